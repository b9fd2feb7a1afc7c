import FoundationEssentials

/// A learned streak reminder time as kept in `state.json`, with when it was computed.
struct SmartReminder: Equatable, Sendable {
    var result: SmartReminderTime.Result
    var computedAt: Date

    init(result: SmartReminderTime.Result, computedAt: Date) {
        self.result = result
        self.computedAt = computedAt
    }

    /// Keeps a learned time for two days, so the reminder does not wander from day to day; with smart
    /// reminders off, or no plays in 30 days, the manual `settings.streaks.time` applies.
    static func update(_ kept: SmartReminder?, streaks: StreakData, settings: Settings, now: Date,
                       clock: WallClock) -> SmartReminder? {
        guard settings.streaks.smart else { return kept }
        guard SmartReminderTime.needsRecompute(computedAt: kept?.computedAt, now: now) else { return kept }
        guard let result = SmartReminderTime.compute(plays: streaks.plays, now: now, clock: clock) else {
            return nil
        }
        return SmartReminder(result: result, computedAt: now)
    }

    /// The time the streak reminder fires today.
    static func reminderTime(_ kept: SmartReminder?, settings: Settings) -> WallTime {
        guard settings.streaks.smart, let kept else { return settings.streaks.time }
        return kept.result.time
    }
}
