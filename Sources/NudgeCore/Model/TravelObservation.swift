import FoundationEssentials

/// One measured journey of a trip (docs/files.md, "trips.json"): when the user left and how many minutes it took.
///
/// Observations are what the commute rule learns from; `TravelPrediction` turns the recent ones into the
/// travel time it plans with.
public struct TravelObservation: Equatable, Sendable {
    public var departedAt: Date
    /// 1–1440.
    public var minutes: Int

    public init(departedAt: Date, minutes: Int) {
        self.departedAt = departedAt
        self.minutes = minutes
    }
}
