/// `settings.prayerTimes`: where the user prays and how their timetable is computed (docs/files.md, "Prayer times").
public struct PrayerSettings: Equatable, Sendable {
    /// Degrees north (−90…90); nil when not given (prayer alarms then cannot ring).
    var latitude: Double?
    /// Degrees east (−180…180); nil when not given.
    var longitude: Double?
    var method = PrayerMethod.named("MWL")!
    var asr = AsrSchool.standard
    var highLatitude = HighLatitudeRule.angleBased
    /// What a time the sun does not allow at the place becomes.
    var polar = PolarResolution.none
    /// Minutes added to each prayer, in `Prayer` order (a mosque's timetable).
    var adjustMinutes = [0, 0, 0, 0, 0, 0]

    public init(latitude: Double? = nil, longitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The keys still missing for a computation ("prayerTimes.latitude", …); empty when there are none.
    public var missingKeys: [String] {
        (latitude == nil ? ["prayerTimes.latitude"] : []) + (longitude == nil ? ["prayerTimes.longitude"] : [])
    }

    /// The minutes added to `prayer`.
    func adjustment(_ prayer: Prayer) -> Int { adjustMinutes[prayer.index] }
}
