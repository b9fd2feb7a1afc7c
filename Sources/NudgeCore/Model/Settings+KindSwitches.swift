/// Which `enabled` switch of settings.json governs each kind (docs/files.md, "settings.json").
extension Settings {
    /// Whether `kind` is switched on: `laundry.enabled` for laundry stages and warnings, `alarms.enabled` for
    /// prayer alarms and their timers, and so on. `nudge test` has no switch.
    func isSwitchedOn(_ kind: NotificationKind) -> Bool {
        switch kind {
        case .washComplete, .dryComplete, .foldReminder, .almostDone, .laundryHealth: return laundry.enabled
        case .leave, .arrival: return commute.enabled
        case .personalized: return personalized.enabled
        case .prayer, .plainAlarm, .timerDone: return alarms.enabled
        case .streakReminder, .achievement, .imported: return streaks.enabled
        case .test, .missedDigest: return true
        }
    }
}
