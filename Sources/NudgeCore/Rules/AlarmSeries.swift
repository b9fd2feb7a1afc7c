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

    /// The first occurrence on `dates` that `isPassedOver` (given its fireAt, expiresAt and recurrence) does not
    /// skip, with the index of its date; nil when there is none. Only that one's record is built.
    func firstOccurrence(on dates: ArraySlice<LocalDate>, clock: WallClock,
                         isPassedOver: (Date, Date, Notification.Recurrence) -> Bool) -> (Notification, Int)? {
        for index in dates.indices {
            let date = dates[index]
            guard let fireAt = fireAt(on: date, clock: clock),
                  !isPassedOver(fireAt, fireAt.addingTimeInterval(expiry), .daily(date: date, time: time)) else {
                continue
            }
            return (occurrence(on: date, at: fireAt), index)
        }
        return nil
    }

    /// `Notification.occurrenceID(.prayer, source, date.description)`, written in one piece on the stack and
    /// made a string once: building the date's text first, then joining, cost as much again.
    private func occurrenceID(on date: LocalDate) -> String {
        guard (0...9999).contains(date.year) else {
            return Notification.occurrenceID(.prayer, source, date.description)
        }
        let kind = NotificationKind.prayer.rawValue
        var source = source
        return source.withUTF8 { sourceBytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: kind.utf8.count + sourceBytes.count + 12) { buffer in
                var index = buffer.initialize(from: kind.utf8).1
                func put(_ byte: UInt8) {
                    buffer[index] = byte
                    index += 1
                }
                func digit(_ value: Int) {
                    put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
                }
                put(UInt8(ascii: ":"))
                for byte in sourceBytes { put(byte) }
                put(UInt8(ascii: ":"))
                digit(date.year / 1000)
                digit(date.year / 100)
                digit(date.year / 10)
                digit(date.year)
                put(UInt8(ascii: "-"))
                digit(date.month / 10)
                digit(date.month)
                put(UInt8(ascii: "-"))
                digit(date.day / 10)
                digit(date.day)
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<index]), as: UTF8.self)
            }
        }
    }
}
