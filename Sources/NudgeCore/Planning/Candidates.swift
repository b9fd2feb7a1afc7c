import Foundation

/// Gathers every occurrence the rules produce around a run: past ones that may be due, future ones to plan.
enum Candidates {
    /// How far back a run looks for missed daily occurrences after downtime; older ones are not listed.
    static let catchUpLimit: TimeInterval = 31 * 86_400
    /// How far ahead daily sources are searched for their next occurrence (a weekly alarm needs 7 days).
    static let lookAheadDays = 8

    /// What the rules need besides the household: the learned values kept in state.
    struct Context {
        var clock: WallClock
        var now: Date
        /// The streak reminder's time of day (manual or learned).
        var streakReminderTime: WallTime
    }

    /// One-off occurrences of every enabled source, and the daily ones on local dates from `since` to a week
    /// after `now`.
    static func collect(_ household: Household, context: Context, since: Date) -> [Notification] {
        let settings = household.settings
        let clock = context.clock
        let now = context.now
        let start = max(min(since, now), now.addingTimeInterval(-catchUpLimit))
        // One day of margin each way covers a zone change of up to a day between runs.
        let firstDate = clock.localDate(of: start).adding(days: -1)
        let lastDate = clock.localDate(of: now).adding(days: lookAheadDays)

        var result: [Notification] = []
        if settings.laundry.enabled {
            for pet in household.pets {
                result += LaundryRule.notifications(for: pet, settings: settings, clock: clock)
            }
        }
        if settings.commute.enabled {
            for trip in household.trips {
                result += CommuteRule.notifications(for: trip, from: firstDate, through: lastDate, settings: settings,
                                                    now: now, clock: clock)
            }
        }
        let streaks = household.streaks
        if settings.streaks.enabled {
            result += streaks.achievements.map { StreakRule.achievement($0, settings: settings) }
            result += streaks.imports.map { resultImport in
                StreakRule.imported(resultImport, gameName: streaks.game(withID: resultImport.game)?.name
                                        ?? resultImport.game, settings: settings)
            }
        }
        let alarms = settings.alarms.enabled ? household.alarms.filter(\.enabled) : []
        var date = firstDate
        while date <= lastDate {
            for alarm in alarms {
                if let occurrence = AlarmRule.occurrence(of: alarm, on: date, settings: settings, clock: clock) {
                    result.append(occurrence)
                }
            }
            if let message = PersonalizedRule.occurrence(on: date, settings: settings, clock: clock) {
                result.append(message)
            }
            if settings.streaks.enabled,
               let reminder = StreakRule.reminder(on: date, at: context.streakReminderTime, data: streaks,
                                                  settings: settings, clock: clock) {
                result.append(reminder)
            }
            date = date.adding(days: 1)
        }
        return result
    }
}
