import FoundationEssentials

extension RunState {
    /// Notes that `action` was applied to the delivered notification `id` at `now`.
    public mutating func recordAction(_ action: NotificationAction, on id: String, now: Date) {
        userActions.record(action, on: id, now: now)
    }

    /// "Remind Tomorrow" (docs/design.md, "Acting on a delivery"): cancels every pending snooze of a streak reminder
    /// and, when today's reminder (`today`, nil when nothing is at risk) has not happened yet, records it as suppressed
    /// so it does not come today. Returns how many snoozes were cancelled.
    @discardableResult
    public mutating func remindTomorrow(today: Notification?, now: Date) -> Int {
        let before = userActions.snoozes.count
        userActions.snoozes.removeAll { $0.kind == .streakReminder }
        if let today { memory.recordUnlessHandled(today, .suppressed, at: now) }
        return before - userActions.snoozes.count
    }
}
