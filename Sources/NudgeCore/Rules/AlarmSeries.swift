import FoundationEssentials

/// One alarm's daily occurrences (docs/files.md, "alarms.json"; docs/prayer-times.md), with everything that does not
/// depend on the date made once.
///
/// The planner asks 10,000 alarms for two or three dates each per run and keeps at most one occurrence of each,
/// so an occurrence is found in two steps: `ringing(on:clock:prayerTimes:)` says when the alarm rings on a date,
/// which is all the planner needs to pass over one long gone, and `occurrence(on:at:time:)` builds the record (no
/// text is made per date: its id is read from its parts) for the ones it keeps. An alarm that follows a prayer
/// computes only the dates the planner asks for.
struct AlarmSeries {
    /// The wall-clock time of an alarm with `time`.
    let time: WallTime
    /// For an alarm that follows a prayer: which, and how many minutes after it (nil for a fixed time). The
    /// times come from the one `PrayerCalendar` the planner passes in: a calendar in each of 10,000 series
    /// made the list five times larger to build and to copy.
    private let prayer: Prayer?
    private let offsetMinutes: Int
    /// How long after its fireAt an occurrence expires.
    let expiry: TimeInterval
    /// Alarms are always critical: quiet hours never move them, so `ringing(on:clock:prayerTimes:)` gives the
    /// record's fireAt.
    static let priority = Priority.critical
    let source: String
    private let title: String
    private let body: String
    private let weekdays: Weekdays
    private let sound: Bool
    private let badge: Bool
    /// `alarm.prayer`, or `alarm.plain` for an alarm that is not a prayer.
    private let kind: NotificationKind

    /// The series of an enabled alarm (nil when it is disabled, or follows a prayer while there are no prayer
    /// times, a problem the loader reports), with the title and body its records show and the settings' sound
    /// and badge.
    init?(_ alarm: Alarm, title: String, body: String, sound: Bool, badge: Bool, hasPrayerTimes: Bool) {
        guard alarm.enabled else { return nil }
        switch alarm.schedule {
        case let .time(time):
            self.time = time
            prayer = nil
            offsetMinutes = 0
        case let .prayer(prayer, offsetMinutes):
            guard hasPrayerTimes else { return nil }
            time = .midnight
            self.prayer = prayer
            self.offsetMinutes = offsetMinutes
        }
        expiry = TimeInterval(max(alarm.durationMinutes, AlarmRule.minimumExpiryMinutes)) * 60
        source = alarm.id
        self.title = title
        self.body = body
        weekdays = alarm.weekdays
        self.sound = sound
        self.badge = badge
        kind = alarm.isPlain ? .plainAlarm : .prayer
    }

    /// When the alarm rings on `date` and the local time it rings at; nil on weekdays it does not ring, and on
    /// days its prayer has no time on that date (`PrayerCalendar.ringing`).
    func ringing(on date: LocalDate, clock: WallClock,
                 prayerTimes: PrayerCalendar?) -> (fireAt: Date, time: WallTime)? {
        guard weekdays.contains(date.weekday) else { return nil }
        guard let prayer else { return (clock.instant(on: date, at: time), time) }
        guard case let .success(ringing) = prayerTimes?.ringing(prayer, on: date, offsetMinutes: offsetMinutes)
        else { return nil }
        return ringing
    }

    /// The record of the occurrence on `date`, which rings at `fireAt`, local `time` (from
    /// `ringing(on:clock:prayerTimes:)`).
    func occurrence(on date: LocalDate, at fireAt: Date, time: WallTime) -> Notification {
        Notification(occurrenceOn: date, kind: kind, source: source, fireAt: fireAt,
                     expiresAt: fireAt.addingTimeInterval(expiry), title: title, body: body, priority: Self.priority,
                     category: kind == .prayer ? AlarmRule.category : AlarmRule.plainCategory,
                     actions: kind == .prayer ? AlarmRule.actions : AlarmRule.plainActions, sound: sound,
                     badge: badge, recurrence: .daily(date: date, time: time))
    }

    /// The first occurrence on the dates from `first` through `last` that `isPassedOver` (given its fireAt,
    /// expiresAt and recurrence) does not skip, with its date; nil when there is none. Only that one's record is
    /// built.
    func firstOccurrence(from first: LocalDate, through last: LocalDate, clock: WallClock,
                         prayerTimes: PrayerCalendar?,
                         isPassedOver: (Date, Date, Notification.Recurrence) -> Bool) -> (Notification, LocalDate)? {
        var date = first
        while date <= last {
            if let (fireAt, time) = ringing(on: date, clock: clock, prayerTimes: prayerTimes),
               !isPassedOver(fireAt, fireAt.addingTimeInterval(expiry), .daily(date: date, time: time)) {
                return (occurrence(on: date, at: fireAt, time: time), date)
            }
            date = date.adding(days: 1)
        }
        return nil
    }
}
