import FoundationEssentials

/// The planner's rules for single records: what a candidate becomes in the plan, their order, catch-up after
/// downtime, and the ledger entry of an outcome.
extension Planner {
    /// Makes a candidate what the plan holds: a leave-time held by the hysteresis, a record moved by quiet hours.
    static func prepare(_ candidate: inout Notification, plannedLeaveTimes: [String: Date],
                        quietHours: QuietHours?, clock: WallClock) {
        LeaveTimeHysteresis.hold(&candidate, planned: plannedLeaveTimes)
        if let quietHours { candidate = quietHours.moving(candidate, clock: clock) }
    }

    /// Plan order: fireAt, then id.
    static func comesFirst(_ lhs: Notification, _ rhs: Notification) -> Bool {
        (lhs.fireAt, lhs.id) < (rhs.fireAt, rhs.id)
    }

    /// After downtime, of each daily repeat only the latest due occurrence is delivered; the earlier ones were
    /// missed (nobody wants five stale alarms at once; docs/design.md, "When a notification is due").
    static func keepLatestOfEachRepeat(
        _ due: [Notification], _ missed: [(Notification, MissedRecord.Reason)]
    ) -> ([Notification], [(Notification, MissedRecord.Reason)]) {
        var latest: [Notification.Thread: Notification] = [:]
        var kept: [Notification] = []
        for notification in due {
            guard case .daily = notification.recurrence else {
                kept.append(notification)
                continue
            }
            if let current = latest[notification.thread], comesFirst(notification, current) { continue }
            latest[notification.thread] = notification
        }
        var missed = missed
        for notification in due {
            if case .daily = notification.recurrence, latest[notification.thread] != notification {
                missed.append((notification, .superseded))
            }
        }
        return (kept + latest.values, missed)
    }
}
