import FoundationEssentials

/// Keeps a planned leave-time still while the prediction wobbles (SPEC §5.3): once an instance is in the plan,
/// its fireAt moves only when the new computation differs by more than 2 minutes. A reminder that jitters by a
/// minute on every run is noise; one that moves by five is news.
enum LeaveTimeHysteresis {
    static let threshold: TimeInterval = 120

    /// The leave reminder with its planned time when the new one is within the threshold of it.
    static func holding(_ candidate: Notification, planned: [String: Date]) -> Notification {
        guard candidate.kind == .leave, let plannedAt = planned[candidate.id],
              abs(candidate.fireAt.timeIntervalSince(plannedAt)) <= threshold else { return candidate }
        var kept = candidate
        kept.fireAt = plannedAt
        return kept
    }

    /// The leave times now in the plan, for the next run.
    static func remember(_ pending: [Notification]) -> [String: Date] {
        var times: [String: Date] = [:]
        for record in pending where record.kind == .leave {
            times[record.id] = record.fireAt
        }
        return times
    }
}
