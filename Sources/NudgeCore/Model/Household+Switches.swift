/// The switches that take a source out of planning and delivery (docs/design.md, "What a run plans"), for records the
/// planner keeps besides the rules' own: snoozes and prayer timers.
extension Household {
    /// Whether `record` may be planned and delivered: its kind's switch is on (a snooze keeps its original's
    /// kind, a prayer timer is an alarm), and for an alarm's records, that alarm is not switched off itself.
    ///
    /// A record whose switch is off is held, not dropped, exactly like the kind's own one-off occurrences (a
    /// laundry stage, an achievement): it rings once the switch is back on if it has not expired by then.
    func isSwitchedOn(_ record: Notification) -> Bool {
        guard settings.isSwitchedOn(record.kind) else { return false }
        switch record.kind {
        case .prayer, .plainAlarm, .timerDone:
            return alarms.first { $0.id == record.source }?.enabled ?? true
        default:
            return true
        }
    }
}
