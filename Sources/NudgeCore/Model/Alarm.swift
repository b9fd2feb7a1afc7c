import FoundationEssentials

/// A daily prayer alarm from `alarms.json` (SPEC §5.5), at a local wall-clock time on chosen weekdays.
public struct Alarm: Equatable, Sendable {
    public var id: String
    public var title: String
    public var time: WallTime
    public var durationMinutes: Int
    public var enabled: Bool
    public var weekdays: Weekdays

    public init(id: String, title: String, time: WallTime, durationMinutes: Int = 15, enabled: Bool = true,
                weekdays: Weekdays = Weekdays.everyDay) {
        self.id = id
        self.title = title
        self.time = time
        self.durationMinutes = durationMinutes
        self.enabled = enabled
        self.weekdays = weekdays
    }
}
