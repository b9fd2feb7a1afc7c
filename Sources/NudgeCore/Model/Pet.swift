import FoundationEssentials

/// A laundry "pet" from `laundry.json` (docs/files.md, "laundry.json"): a load with its own wash and dry times.
public struct Pet: Equatable, Sendable {
    public var id: String
    public var name: String
    public var washMinutes: Int
    public var dryMinutes: Int
    /// When the last cycle was folded; the health warning counts from here.
    var lastCompletedAt: Date?
    /// The cycle under way, if any.
    public var cycle: LaundryCycle?

    init(id: String, name: String, washMinutes: Int = 45, dryMinutes: Int = 60,
         lastCompletedAt: Date? = nil, cycle: LaundryCycle? = nil) {
        self.id = id
        self.name = name
        self.washMinutes = washMinutes
        self.dryMinutes = dryMinutes
        self.lastCompletedAt = lastCompletedAt
        self.cycle = cycle
    }
}

/// One laundry cycle under way. The user (or `nudge laundry …`) moves `stage` on; nudge only reads it.
public struct LaundryCycle: Equatable, Sendable {
    public enum Stage: String, Sendable, CaseIterable {
        case wash, dry
    }

    /// Names the cycle in occurrence ids; when the file gives none, the start instant stands in.
    public var id: String
    var stage: Stage
    var startedAt: Date

    init(id: String, stage: Stage, startedAt: Date) {
        self.id = id
        self.stage = stage
        self.startedAt = startedAt
    }
}
