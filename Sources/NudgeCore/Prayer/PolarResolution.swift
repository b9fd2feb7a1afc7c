/// `prayerTimes.polar`: the time a prayer takes on a date where the sun does not allow it at the place
/// (docs/prayer-times.md). Only the missing times are resolved; the others stay the place's own.
enum PolarResolution: Equatable, Sendable, CustomStringConvertible {
    /// The prayer does not ring that day.
    case none
    /// The time, for that date and longitude, at the nearest latitude toward the equator, in steps of 0.5° from
    /// the place's, at which it exists.
    case nearestLatitude
    /// The time of the nearest date, before or after (the earlier on a tie), on which it exists at the place:
    /// that date's instant moved by whole days (its universal time of day).
    case nearestDay
    /// The time at this latitude (0–65°, on the place's side of the equator), for that date and longitude.
    case referenceLatitude(Double)

    /// The words of the option: "none", "nearestLatitude", "nearestDay", "48.5".
    static let names = ["none", "nearestLatitude", "nearestDay"]

    /// The reference latitudes a person may name.
    static let referenceRange = 0.0...65.0

    var description: String {
        switch self {
        case .none: return "none"
        case .nearestLatitude: return "nearestLatitude"
        case .nearestDay: return "nearestDay"
        case let .referenceLatitude(latitude): return PrayerTimetable.number(latitude)
        }
    }

    /// The resolution named by a string value of `polar`.
    init?(name: String) {
        switch name {
        case "none": self = .none
        case "nearestLatitude": self = .nearestLatitude
        case "nearestDay": self = .nearestDay
        default: return nil
        }
    }

    /// Where a resolved time was found.
    enum Source: Equatable, Sendable {
        /// At this latitude (degrees, signed), the same date and longitude.
        case latitude(Double)
        /// On this solar date at the place.
        case date(LocalDate)
    }
}
