/// The files of a data directory that the user owns and nudge only reads (SPEC §1).
public enum UserFile: String, CaseIterable, Sendable, Comparable {
    case settings = "settings.json"
    case laundry = "laundry.json"
    case alarms = "alarms.json"
    case trips = "trips.json"
    case streaks = "streaks.json"

    public var fileName: String { rawValue }

    /// Declaration order: settings first, so its zone and switches apply to the files after it.
    public static func < (lhs: UserFile, rhs: UserFile) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}
