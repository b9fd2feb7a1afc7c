import FoundationEssentials

/// Keeps a planned leave-time still while the prediction wobbles (docs/files.md): once an instance is in the plan,
/// its fireAt moves only when the new computation differs by more than 2 minutes. A reminder that jitters by a
/// minute on every run is noise; one that moves by five is news.
enum LeaveTimeHysteresis {
    static let threshold: TimeInterval = 120

    /// Gives a leave reminder its planned time when the new one is within the threshold of it; leaves every
    /// other candidate as it is, uncopied. A snooze is not held: its time is the person's, and a second snooze
    /// moves it (docs/promises.md, one snooze per notification).
    static func hold(_ candidate: inout Notification, planned: [String: Date]) {
        guard candidate.kind == .leave, !isSnooze(candidate.id), let plannedAt = planned[candidate.id],
              abs(candidate.fireAt.timeIntervalSince(plannedAt)) <= threshold else { return }
        candidate.fireAt = plannedAt
    }

    private static func isSnooze(_ id: String) -> Bool { SnoozeRule.baseID(of: id) != id }

    /// The leave times now in the plan, for the next run. Looked for by index in each list: joining the lists
    /// and looping over the records would copy 10,000 alarm records to find no leave reminder.
    static func remember(_ pending: [Notification], _ deferred: [Notification]) -> [String: Date] {
        var times: [String: Date] = [:]
        func add(_ list: [Notification]) {
            for index in list.indices where list[index].kind == .leave && !isSnooze(list[index].id) {
                times[list[index].id] = list[index].fireAt
            }
        }
        add(pending)
        add(deferred)
        return times
    }
}
