/// The six times of a prayer timetable, in the order of the day (docs/prayer-times.md).
enum Prayer: String, CaseIterable, Sendable {
    case fajr, sunrise, dhuhr, asr, maghrib, isha

    /// Position in the day, 0…5.
    var index: Int {
        switch self {
        case .fajr: return 0
        case .sunrise: return 1
        case .dhuhr: return 2
        case .asr: return 3
        case .maghrib: return 4
        case .isha: return 5
        }
    }

    /// "fajr, sunrise, dhuhr, asr, maghrib, isha", for messages.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")
}
