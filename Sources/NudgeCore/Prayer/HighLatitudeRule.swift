/// How fajr and isha are bounded where the sun does not go deep enough (docs/files.md): fajr never earlier than
/// sunrise − p × night, isha never later than sunset + p × night.
enum HighLatitudeRule: String, CaseIterable, Sendable {
    case angleBased, middleOfNight, seventhOfNight, none

    /// p for a twilight of `angle` degrees; nil for `none`.
    func portion(angle: Double) -> Double? {
        switch self {
        case .angleBased: return angle / 60
        case .middleOfNight: return 1.0 / 2
        case .seventhOfNight: return 1.0 / 7
        case .none: return nil
        }
    }
}
