import FoundationEssentials

/// The instants nudge accepts in user files: the years 2000 to 2200.
public enum InstantBounds {
    /// 2000-01-01T00:00:00Z up to, not including, 2201-01-01T00:00:00Z.
    public static let range = Date(timeIntervalSince1970: 946_684_800)..<Date(timeIntervalSince1970: 7_289_654_400)
}
