import FoundationEssentials

/// One alarm's daily occurrences (SPEC §5.5), with everything that does not depend on the date made once.
///
/// The planner asks 10,000 alarms for two or three dates each per run and keeps at most one occurrence of each,
/// so an occurrence is found in two steps: `fireAt(on:clock:)` says when the alarm rings on a date, which is all
/// the planner needs to pass over one long gone, and `occurrence(on:at:)` builds the record (its id is the only
/// text made per date) for the ones it keeps.
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
        Notification(id: occurrenceID(on: date), kind: .prayer, source: source, fireAt: fireAt,
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

    /// `Notification.occurrenceID(.prayer, source, date.description)`, written straight into the string's own
    /// storage: writing it into a buffer first (the kind byte by byte through its `UTF8View`) and then copying
    /// that into a string cost twice as much.
    private func occurrenceID(on date: LocalDate) -> String {
        guard (0...9999).contains(date.year) else {
            return Notification.occurrenceID(.prayer, source, date.description)
        }
        let prefix = Self.idPrefix
        var source = source
        return source.withUTF8 { source in
            String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + source.count + 11) { buffer in
                guard let start = buffer.baseAddress else { return 0 }
                var end = start
                end.initialize(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
                end += prefix.utf8CodeUnitCount
                if let bytes = source.baseAddress { end.initialize(from: bytes, count: source.count) }
                end += source.count
                // Unsigned: dividing by a constant is then a multiplication, without a sign to correct.
                let year = UInt(truncatingIfNeeded: date.year), month = UInt(truncatingIfNeeded: date.month)
                let day = UInt(truncatingIfNeeded: date.day)
                let digit = { (value: UInt) in UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value) }
                end[0] = UInt8(ascii: ":")
                end[1] = digit(year / 1000)
                end[2] = digit(year / 100 % 10)
                end[3] = digit(year / 10 % 10)
                end[4] = digit(year % 10)
                end[5] = UInt8(ascii: "-")
                end[6] = digit(month / 10)
                end[7] = digit(month % 10)
                end[8] = UInt8(ascii: "-")
                end[9] = digit(day / 10)
                end[10] = digit(day % 10)
                return end + 11 - start
            }
        }
    }

    /// `alarm.prayer:`, the start of every occurrence id.
    private static let idPrefix: StaticString = "alarm.prayer:"
}
