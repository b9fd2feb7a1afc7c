import FoundationEssentials

/// Gathers what the rules produce around a run: every one-off occurrence, and the daily series, each a function
/// from a local date to that date's occurrence, for the planner to walk only as far as it needs.
struct Candidates {
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
        /// Open departures, each with its arrival check (docs/files.md, "trips.json").
        var departures: [Departure] = []
        /// Streak milestones reached; the announced ones are achievements (docs/files.md, "streaks.json").
        var milestones: [Milestone] = []
        /// The games' plays on the local calendar, made once by the planner.
        var streakCalendar: StreakCalendar?
    }

    /// One occurrence per local date, or nil on dates it does not happen.
    typealias Series = (LocalDate) -> Notification?

    var oneOffs: [Notification] = []
    /// The daily series, at most two, in named slots.
    var streakReminder: Series?
    var personalized: Series?
    var dailyCount: Int { (streakReminder == nil ? 0 : 1) + (personalized == nil ? 0 : 1) }
    /// The enabled alarms' series, kept apart from `daily` so the planner can time an occurrence before it
    /// builds its record.
    var alarms: [AlarmSeries] = []
    /// The prayer times the alarms that follow a prayer ring at; nil without `settings.prayerTimes`' place.
    var prayerTimes: PrayerCalendar?
    /// The local dates daily series are walked over: from a day before the previous run (a zone change moves
    /// dates by up to a day) to a week after now.
    var firstDate: LocalDate
    var lastDate: LocalDate

    /// The occurrence `id` as this run produces it, before quiet hours and the leave-time hysteresis; nil when
    /// nothing produces it now. For a clock set back: whether an outcome lies ahead of the corrected clock is
    /// judged by the instant in the run's zone, where an alarm's date may fall another day than where it was
    /// recorded.
    func occurrence(id: String, clock: WallClock) -> Notification? {
        if let oneOff = oneOffs.first(where: { $0.id == id }) { return oneOff }
        guard let parts = DeliveredDates.parts(of: id) else { return nil }
        if parts.kind == NotificationKind.prayer.rawValue || parts.kind == NotificationKind.plainAlarm.rawValue {
            guard let series = alarms.first(where: { $0.source == parts.source }),
                  let ringing = series.ringing(on: parts.date, clock: clock, prayerTimes: prayerTimes) else {
                return nil
            }
            return series.occurrence(on: parts.date, at: ringing.fireAt, time: ringing.time)
        }
        let series = parts.kind == NotificationKind.streakReminder.rawValue ? streakReminder
            : parts.kind == NotificationKind.personalized.rawValue ? personalized : nil
        return series?(parts.date).flatMap { $0.id == id ? $0 : nil }
    }

    /// What the household's switched-on sources produce around `context.now`: the one-offs listed, the daily
    /// series and the alarms ready to be walked from `firstDate` to `lastDate`.
    static func collect(_ household: Household, context: Context, since: Date) -> Candidates {
        let settings = household.settings
        let clock = context.clock
        let now = context.now
        let start = max(min(since, now), now.addingTimeInterval(-catchUpLimit))
        var result = Candidates(firstDate: clock.localDate(of: start).adding(days: -1),
                                lastDate: clock.localDate(of: now).adding(days: lookAheadDays))
        if settings.laundry.enabled {
            for pet in household.pets {
                result.oneOffs += LaundryRule.notifications(for: pet, settings: settings, clock: clock)
            }
        }
        if settings.commute.enabled { result.addCommute(household, context: context) }
        if settings.streaks.enabled { result.addStreaks(household, context: context) }
        if settings.alarms.enabled { result.addAlarms(household, clock: clock) }
        if settings.personalized.enabled {
            result.personalized = { date in PersonalizedRule.occurrence(on: date, settings: settings, clock: clock) }
        }
        return result
    }

    /// The trips' reminders over the dates planned, and the arrival check of each open departure.
    private mutating func addCommute(_ household: Household, context: Context) {
        let settings = household.settings
        let clock = context.clock
        let now = context.now
        for trip in household.trips {
            oneOffs += CommuteRule.notifications(for: trip, from: firstDate, through: lastDate, settings: settings,
                                                 clock: clock)
        }
        for departure in context.departures where now.timeIntervalSince(departure.at) < Departure.openFor {
            if let trip = household.trips.first(where: { $0.id == departure.trip }), trip.enabled,
               !trip.isPaused(in: clock.zone) {
                oneOffs.append(ArrivalCheckRule.check(for: departure, trip: trip, settings: settings, clock: clock))
            }
        }
    }

    /// The achievements (written, imported, and milestones announced) and the streak reminder's series.
    private mutating func addStreaks(_ household: Household, context: Context) {
        let settings = household.settings
        let streaks = household.streaks
        oneOffs += streaks.achievements.map { StreakRule.achievement($0, settings: settings) }
        oneOffs += streaks.imports.map { resultImport in
            StreakRule.imported(resultImport, gameName: streaks.game(withID: resultImport.game)?.name
                                    ?? resultImport.game, settings: settings)
        }
        for milestone in context.milestones {
            guard let unlockedAt = milestone.announcedAt else { continue }
            oneOffs.append(MilestoneRule.achievement(
                milestone, unlockedAt: unlockedAt,
                gameName: streaks.game(withID: milestone.game)?.name ?? milestone.game, settings: settings))
        }
        let calendar = context.streakCalendar ?? StreakCalendar(streaks, clock: context.clock)
        streakReminder = { date in
            StreakRule.reminder(on: date, at: context.streakReminderTime, calendar: calendar, settings: settings)
        }
    }

    /// The enabled alarms' series, and the prayer times those that follow a prayer ring at.
    private mutating func addAlarms(_ household: Household, clock: WallClock) {
        let settings = household.settings
        // Alarms of the same duration share one body text: the previous alarm's, when it fits (a table of
        // them would cost a small household more than its plan, for the first use of that generic type).
        var shared: (minutes: Int, body: String)?
        let sound = settings.notifications.sound, badge = settings.notifications.badge
        alarms.reserveCapacity(household.alarms.count)
        prayerTimes = settings.prayerTimes.flatMap { PrayerCalendar(settings: $0, clock: clock) }
        for alarm in household.alarms where alarm.enabled {
            let body: String
            if let own = alarm.body {
                body = own
            } else {
                body = shared?.minutes == alarm.durationMinutes ? shared?.body ?? "" : AlarmRule.body(alarm)
                shared = (alarm.durationMinutes, body)
            }
            if let series = AlarmSeries(alarm, title: AlarmRule.title(alarm), body: body, sound: sound,
                                        badge: badge, hasPrayerTimes: prayerTimes != nil) {
                alarms.append(series)
            }
        }
    }
}
