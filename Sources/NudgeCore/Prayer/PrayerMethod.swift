/// A calculation method: the sun's depression at fajr and isha (or isha a fixed time after maghrib), and for
/// the Shia methods the depression at maghrib (docs/files.md, "Prayer times").
struct PrayerMethod: Equatable, Sendable {
    /// How isha is found.
    enum Isha: Equatable, Sendable {
        /// When the sun's centre is this many degrees below the horizon after sunset.
        case angle(Double)
        /// This many minutes after maghrib.
        case minutes(Int)
    }

    /// The name from `settings.json` ("MWL"); nil for the user's own angles.
    var name: String?
    var fajrAngle: Double
    var isha: Isha
    /// Maghrib's depression below the horizon; nil means sunset.
    var maghribAngle: Double?

    init(name: String? = nil, fajrAngle: Double, isha: Isha, maghribAngle: Double? = nil) {
        self.name = name
        self.fajrAngle = fajrAngle
        self.isha = isha
        self.maghribAngle = maghribAngle
    }

    /// The seven methods of docs/files.md ("Prayer times"), with PrayTimes.org's parameters.
    static let all: [PrayerMethod] = [
        PrayerMethod(name: "MWL", fajrAngle: 18, isha: .angle(17)),
        PrayerMethod(name: "ISNA", fajrAngle: 15, isha: .angle(15)),
        PrayerMethod(name: "Egypt", fajrAngle: 19.5, isha: .angle(17.5)),
        PrayerMethod(name: "Makkah", fajrAngle: 18.5, isha: .minutes(90)),
        PrayerMethod(name: "Karachi", fajrAngle: 18, isha: .angle(18)),
        PrayerMethod(name: "Tehran", fajrAngle: 17.7, isha: .angle(14), maghribAngle: 4.5),
        PrayerMethod(name: "Jafari", fajrAngle: 16, isha: .angle(14), maghribAngle: 4),
    ]

    /// The method called `name` (exact spelling), nil when there is none.
    static func named(_ name: String) -> PrayerMethod? {
        all.first { $0.name == name }
    }

    /// "MWL (fajr 18°, isha 17°)", as `nudge times` names it.
    var description: String {
        var parts = ["fajr \(Self.degrees(fajrAngle))"]
        if let maghribAngle { parts.append("maghrib \(Self.degrees(maghribAngle))") }
        switch isha {
        case let .angle(angle): parts.append("isha \(Self.degrees(angle))")
        case let .minutes(minutes): parts.append("isha \(minutes) min after maghrib")
        }
        return "\(name ?? "custom") (\(parts.joined(separator: ", ")))"
    }

    /// "18°", "19.5°".
    static func degrees(_ value: Double) -> String {
        let whole = value.rounded()
        return (whole == value ? String(Int(whole)) : String(value)) + "°"
    }
}
