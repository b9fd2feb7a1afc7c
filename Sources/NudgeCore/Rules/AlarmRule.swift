import FoundationEssentials

/// Daily alarms (docs/files.md): one occurrence per alarm per listed weekday, at its local wall-clock time. A prayer
/// alarm is `alarm.prayer` with a timer to start; a plain one (`Alarm.isPlain`) is `alarm.plain` with a snooze only.
enum AlarmRule {
    static let category = "PRAYER_ALARM"
    static let actions = ["START_TIMER", "SNOOZE"]
    static let plainCategory = "ALARM"
    static let plainActions = ["SNOOZE"]
    /// An alarm stays worth ringing for its duration, and never less than half an hour (docs/files.md, "alarms.json").
    static let minimumExpiryMinutes = 30

    /// `<title> Time` for a prayer; a plain alarm's title as written.
    static func title(_ alarm: Alarm) -> String {
        alarm.isPlain ? alarm.title : alarm.title + " Time"
    }

    /// The alarm's own `body`, else the prayer's "Take 15 minutes to pray".
    static func body(_ alarm: Alarm) -> String { alarm.body ?? "Take \(alarm.durationMinutes) minutes to pray" }

    /// The alarm's occurrence on a local date, or nil when it is disabled or does not ring on that weekday.
    static func occurrence(of alarm: Alarm, on date: LocalDate, settings: Settings,
                           clock: WallClock) -> Notification? {
        occurrence(of: alarm, on: date, settings: settings, clock: clock, title: title(alarm), body: body(alarm))
    }

    /// The same with the title and body given (the planner asks `AlarmSeries`, which makes them once per alarm).
    static func occurrence(of alarm: Alarm, on date: LocalDate, settings: Settings, clock: WallClock,
                           title: String, body: String) -> Notification? {
        let prayerTimes = settings.prayerTimes.flatMap { PrayerCalendar(settings: $0, clock: clock) }
        guard let series = AlarmSeries(alarm, title: title, body: body, sound: settings.notifications.sound,
                                       badge: settings.notifications.badge, hasPrayerTimes: prayerTimes != nil),
              let (fireAt, time) = series.ringing(on: date, clock: clock, prayerTimes: prayerTimes) else { return nil }
        return series.occurrence(on: date, at: fireAt, time: time)
    }
}
