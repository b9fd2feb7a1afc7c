import FoundationEssentials

/// A daily prayer alarm from `alarms.json` (docs/files.md), at a local wall-clock time or following a prayer time
/// (docs/prayer-times.md) on chosen weekdays.
public struct Alarm: Equatable, Sendable {
    /// When an alarm rings on its dates.
    enum Schedule: Equatable, Sendable {
        /// `time`: the same wall-clock time every day.
        case time(WallTime)
        /// `prayer`: the prayer's computed time moved by `offsetMinutes`.
        case prayer(Prayer, offsetMinutes: Int)
    }

    var id: String
    var title: String
    var schedule: Schedule
    var durationMinutes: Int
    var enabled: Bool
    var weekdays: Weekdays
    /// What the alarm says (1–200 characters); nil: a prayer's "Take 15 minutes to pray". A `let`, set by the
    /// init: a `var` optional starts as nil and is then assigned, which costs decoding a copy of every alarm.
    let body: String?

    init(id: String, title: String, schedule: Schedule, durationMinutes: Int = 15, enabled: Bool = true,
         weekdays: Weekdays = Weekdays.everyDay, body: String? = nil) {
        self.id = id
        self.title = title
        self.schedule = schedule
        self.durationMinutes = durationMinutes
        self.enabled = enabled
        self.weekdays = weekdays
        self.body = body
    }

    /// An alarm at a fixed wall-clock time.
    init(id: String, title: String, time: WallTime, durationMinutes: Int = 15, enabled: Bool = true,
         weekdays: Weekdays = Weekdays.everyDay) {
        self.init(id: id, title: title, schedule: .time(time), durationMinutes: durationMinutes, enabled: enabled,
                  weekdays: weekdays)
    }

    /// The fixed wall-clock time; nil for an alarm that follows a prayer.
    var time: WallTime? {
        if case let .time(time) = schedule { return time }
        return nil
    }

    /// An alarm that is not a prayer: its own `body` and a fixed time ("Wake up", "Take the pill"). It keeps its
    /// title as written and offers only a snooze (`alarm.plain`).
    var isPlain: Bool { body != nil && prayer == nil }

    /// The prayer followed; nil for an alarm at a fixed time.
    var prayer: Prayer? {
        if case let .prayer(prayer, _) = schedule { return prayer }
        return nil
    }
}
