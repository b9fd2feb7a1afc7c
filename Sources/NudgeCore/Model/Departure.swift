import FoundationEssentials

/// A departure recorded by `nudge trip depart` or "Leaving now" (docs/files.md), kept in state.json until the
/// arrival closes it or it is `openFor` old.
public struct Departure: Equatable, Sendable {
    /// A journey longer than this is no journey nudge learns from: the departure is dropped.
    static let openFor: TimeInterval = 12 * 3600

    /// The trip's id in trips.json.
    var trip: String
    public var at: Date

    public init(trip: String, at: Date) {
        self.trip = trip
        self.at = at
    }

    /// Whether the departure is still open at `now`: not in the future, and less than `openFor` ago.
    func isOpen(at now: Date) -> Bool {
        at <= now && now.timeIntervalSince(at) < Self.openFor
    }

    /// `20261120T075800Z`: the departure instant in UTC, as the arrival check's id names it.
    var stamp: String {
        let utc = LocalDateTime(secondsSinceEpoch: LocalDateTime.floorSeconds(of: at))
        let date = utc.date
        return LocalDate.zeroPadded(date.year, width: 4) + LocalDate.zeroPadded(date.month, width: 2)
            + LocalDate.zeroPadded(date.day, width: 2) + "T" + LocalDate.zeroPadded(utc.hour, width: 2)
            + LocalDate.zeroPadded(utc.minute, width: 2) + LocalDate.zeroPadded(utc.second, width: 2) + "Z"
    }
}
