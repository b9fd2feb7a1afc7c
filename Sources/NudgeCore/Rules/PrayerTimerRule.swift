import FoundationEssentials

/// The prayer timer (docs/files.md): `START_TIMER` on a delivered prayer alarm plans one `alarm.timerDone`
/// notification `durationMinutes` later. Its id names the alarm occurrence, so starting the timer again for the
/// same occurrence (or a snooze of it) makes the same id, and nothing new.
enum PrayerTimerRule {
    static let category = "PRAYER_TIMER"
    /// A finished timer is still worth announcing for half an hour.
    static let expiry: TimeInterval = 30 * 60

    static func title(_ alarm: Alarm) -> String { "\(alarm.title) complete" }
    static func body(_ alarm: Alarm) -> String { "Your \(alarm.durationMinutes) minutes are up." }

    /// `alarm.timerDone:<alarm id>:<local date of the alarm occurrence>`.
    static func id(alarmID: String, date: String) -> String {
        Notification.occurrenceID(.timerDone, alarmID, date)
    }

    /// The timer of `alarm` for the occurrence of local date `date`, started at `now`.
    static func timer(for alarm: Alarm, date: String, now: Date, settings: Settings) -> Notification {
        let fireAt = now.addingTimeInterval(TimeInterval(alarm.durationMinutes) * 60)
        return Notification(id: id(alarmID: alarm.id, date: date), kind: .timerDone, source: alarm.id,
                            fireAt: fireAt, expiresAt: fireAt.addingTimeInterval(expiry), title: title(alarm),
                            body: body(alarm), priority: .critical, category: category, actions: [],
                            sound: settings.notifications.sound, badge: settings.notifications.badge,
                            recurrence: .once)
    }
}
