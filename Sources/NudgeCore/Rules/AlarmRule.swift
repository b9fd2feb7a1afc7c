import FoundationEssentials

/// Daily prayer alarms (SPEC §5.5): one occurrence per alarm per listed weekday, at its local wall-clock time.
public enum AlarmRule {
    static let category = "PRAYER_ALARM"
    static let actions = ["START_TIMER", "SNOOZE"]
    /// An alarm stays worth ringing for its duration, and never less than half an hour (SPEC §7).
    static let minimumExpiryMinutes = 30

    static func title(_ alarm: Alarm) -> String { "\(alarm.title) Time" }
    static func body(_ alarm: Alarm) -> String { "Take \(alarm.durationMinutes) minutes to pray" }

    /// The alarm's occurrence on a local date, or nil when it is disabled or does not ring on that weekday.
    public static func occurrence(of alarm: Alarm, on date: LocalDate, settings: Settings,
                                  clock: WallClock) -> Notification? {
        occurrence(of: alarm, on: date, settings: settings, clock: clock, title: title(alarm), body: body(alarm))
    }

    /// The same with the alarm's title and body made once, for the planner, which asks for several dates of
    /// 10,000 alarms: each occurrence then shares the two strings instead of building its own.
    static func occurrence(of alarm: Alarm, on date: LocalDate, settings: Settings, clock: WallClock,
                           title: String, body: String) -> Notification? {
        guard alarm.enabled, alarm.weekdays.contains(date.weekday) else { return nil }
        let fireAt = clock.instant(on: date, at: alarm.time)
        let expiry = TimeInterval(max(alarm.durationMinutes, minimumExpiryMinutes)) * 60
        return Notification(id: Notification.occurrenceID(.prayer, alarm.id, date.description), kind: .prayer,
                            source: alarm.id, fireAt: fireAt, expiresAt: fireAt.addingTimeInterval(expiry),
                            title: title, body: body, priority: .critical, category: category,
                            actions: actions, sound: settings.notifications.sound,
                            badge: settings.notifications.badge, recurrence: .daily(date: date, time: alarm.time))
    }
}
