/// `settings.prayerTimes`: where the user prays and how their timetable is computed (SPEC §5.5.1).
public struct PrayerSettings: Equatable, Sendable {
    /// Degrees north (−90…90); nil when not given (prayer alarms then cannot ring).
    public var latitude: Double?
    /// Degrees east (−180…180); nil when not given.
    public var longitude: Double?
    public var method = PrayerMethod.named("MWL")!
    public var asr = AsrSchool.standard
    public var highLatitude = HighLatitudeRule.angleBased
    /// Minutes added to each prayer, in `Prayer` order (a mosque's timetable).
    public var adjustMinutes = [0, 0, 0, 0, 0, 0]

    public init(latitude: Double? = nil, longitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The keys still missing for a computation ("prayerTimes.latitude", …); empty when there are none.
    public var missingKeys: [String] {
        (latitude == nil ? ["prayerTimes.latitude"] : []) + (longitude == nil ? ["prayerTimes.longitude"] : [])
    }

    /// The minutes added to `prayer`.
    public func adjustment(_ prayer: Prayer) -> Int { adjustMinutes[prayer.index] }
}

/// When asr begins: when a shadow is its noon length plus the object's length (`standard`: Shafi'i, Maliki,
/// Hanbali) or plus twice it (`hanafi`).
public enum AsrSchool: String, CaseIterable, Sendable {
    case standard, hanafi

    var shadowLength: Double { self == .standard ? 1 : 2 }
}

/// How fajr and isha are bounded where the sun does not go deep enough (SPEC §5.5.1): fajr never earlier than
/// sunrise − p × night, isha never later than sunset + p × night.
public enum HighLatitudeRule: String, CaseIterable, Sendable {
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
