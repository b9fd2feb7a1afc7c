/// The files of a data directory that the user owns and nudge only reads (docs/files.md).
public enum UserFile: String, CaseIterable, Sendable, Comparable {
    case settings = "settings.json"
    case laundry = "laundry.json"
    case alarms = "alarms.json"
    case trips = "trips.json"
    case streaks = "streaks.json"

    public var fileName: String { rawValue }

    /// The place in declaration order.
    var index: Int {
        switch self {
        case .settings: return 0
        case .laundry: return 1
        case .alarms: return 2
        case .trips: return 3
        case .streaks: return 4
        }
    }

    /// Declaration order: settings first, so its zone and switches apply to the files after it.
    public static func < (lhs: UserFile, rhs: UserFile) -> Bool {
        lhs.index < rhs.index
    }
}
