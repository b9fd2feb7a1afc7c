import Foundation

/// Gathers every occurrence the rules produce around a run: past ones that may be due, future ones to plan.
enum Candidates {
    /// How far back a run looks for missed daily occurrences after downtime; older ones are not listed.
    static let catchUpLimit: TimeInterval = 31 * 86_400
    /// How far ahead daily sources are searched for their next occurrence (a weekly alarm needs 7 days).
    static let lookAheadDays = 8

    /// One-off occurrences of every enabled source, and the daily ones on local dates from `since` to a week
    /// after `now`.
    static func collect(_ household: Household, clock: WallClock, since: Date, now: Date) -> [Notification] {
        let settings = household.settings
        var result: [Notification] = []
        if settings.laundry.enabled {
            for pet in household.pets {
                result += LaundryRule.notifications(for: pet, settings: settings, clock: clock)
            }
        }
        let start = max(min(since, now), now.addingTimeInterval(-catchUpLimit))
        // One day of margin each way covers a zone change of up to a day between runs.
        let firstDate = clock.localDate(of: start).adding(days: -1)
        let lastDate = clock.localDate(of: now).adding(days: lookAheadDays)
        if settings.alarms.enabled {
            for alarm in household.alarms where alarm.enabled {
                var date = firstDate
                while date <= lastDate {
                    if let occurrence = AlarmRule.occurrence(of: alarm, on: date, settings: settings, clock: clock) {
                        result.append(occurrence)
                    }
                    date = date.adding(days: 1)
                }
            }
        }
        return result
    }
}
