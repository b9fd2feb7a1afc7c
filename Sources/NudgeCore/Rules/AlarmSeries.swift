import FoundationEssentials

/// One alarm's daily occurrences (SPEC §5.5), with everything that does not depend on the date made once.
///
/// The planner asks 10,000 alarms for two or three dates each per run and keeps at most one occurrence of each,
/// so an occurrence is found in two steps: `fireAt(on:clock:)` says when the alarm rings on a date, which is all
/// the planner needs to pass over one long gone, and `occurrence(on:at:)` builds the record (no text is made per
/// date: its id is read from its parts) for the ones it keeps.
struct AlarmSeries {
    let time: WallTime
    /// How long after its fireAt an occurrence expires.
    let expiry: TimeInterval
    /// Alarms are always critical: quiet hours never move them, so `fireAt(on:clock:)` is the record's fireAt.
    static let priority = Priority.critical
    private let source: String
    private let title: String
    private let body: String
    private let weekdays: Weekdays
    private let sound: Bool
    private let badge: Bool

    /// The series of an enabled alarm (nil when it is disabled), with the title and body its records show and
    /// the settings' sound and badge.
    init?(_ alarm: Alarm, title: String, body: String, sound: Bool, badge: Bool) {
        guard alarm.enabled else { return nil }
        time = alarm.time
        expiry = TimeInterval(max(alarm.durationMinutes, AlarmRule.minimumExpiryMinutes)) * 60
        source = alarm.id
        self.title = title
        self.body = body
        weekdays = alarm.weekdays
        self.sound = sound
        self.badge = badge
    }

    /// When the alarm rings on `date`, nil on weekdays it does not ring.
    func fireAt(on date: LocalDate, clock: WallClock) -> Date? {
        guard weekdays.contains(date.weekday) else { return nil }
        return clock.instant(on: date, at: time)
    }

    /// The record of the occurrence on `date`, which rings at `fireAt` (from `fireAt(on:clock:)`).
    func occurrence(on date: LocalDate, at fireAt: Date) -> Notification {
        Notification(occurrenceOn: date, kind: .prayer, source: source, fireAt: fireAt,
                     expiresAt: fireAt.addingTimeInterval(expiry), title: title, body: body, priority: Self.priority,
                     category: AlarmRule.category, actions: AlarmRule.actions, sound: sound, badge: badge,
                     recurrence: .daily(date: date, time: time))
    }

    /// The first occurrence on the dates from `first` through `last` that `isPassedOver` (given its fireAt,
    /// expiresAt and recurrence) does not skip, with its date; nil when there is none. Only that one's record is
    /// built.
    func firstOccurrence(from first: LocalDate, through last: LocalDate, clock: WallClock,
                         isPassedOver: (Date, Date, Notification.Recurrence) -> Bool) -> (Notification, LocalDate)? {
        var date = first
        while date <= last {
            if let fireAt = fireAt(on: date, clock: clock),
               !isPassedOver(fireAt, fireAt.addingTimeInterval(expiry), .daily(date: date, time: time)) {
                return (occurrence(on: date, at: fireAt), date)
            }
            date = date.adding(days: 1)
        }
        return nil
    }
}
