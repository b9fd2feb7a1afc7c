import FoundationEssentials

extension PrayerSettings {
    /// Reads `settings.prayerTimes`, reporting every invalid value with its key path (docs/files.md, "Prayer times").
    init(_ object: ObjectReader) {
        self.init()
        object.checkKeys(["latitude", "longitude", "method", "asr", "highLatitude", "polar", "adjustMinutes"])
        latitude = object.degrees("latitude", in: -90...90)
        longitude = object.degrees("longitude", in: -180...180)
        if let member = object.member("method") {
            method = Self.method(object, member) ?? method
        }
        asr = object.choice("asr", AsrSchool.self) ?? asr
        highLatitude = object.choice("highLatitude", HighLatitudeRule.self) ?? highLatitude
        if let member = object.member("polar") {
            polar = Self.polar(object, member) ?? polar
        }
        if let adjust = object.object("adjustMinutes") {
            adjust.checkKeys(["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"])
            for prayer in Prayer.allCases {
                adjustMinutes[prayer.index] = adjust.int(prayer.rawValue, default: 0, in: -60...60) ?? 0
            }
        }
    }

    /// `"none"`, `"nearestLatitude"`, `"nearestDay"` or a reference latitude of 0–65 degrees.
    private static func polar(_ object: ObjectReader, _ member: Int) -> PolarResolution? {
        let document = object.document
        let expected = "expected one of \(PolarResolution.names.joined(separator: ", ")), or a reference latitude "
            + "from 0 to 65 degrees"
        if document.tape.kind(member) == .number {
            return object.degrees("polar", in: PolarResolution.referenceRange).map(PolarResolution.referenceLatitude)
        }
        guard let name = document.string(member) else {
            object.report("polar", "\(expected), found \(document.tape.typeDescription(member))")
            return nil
        }
        guard let polar = PolarResolution(name: name) else {
            object.report("polar", "\(document.quote(member)) is not a known value (\(expected))")
            return nil
        }
        return polar
    }

    /// A method's name, or the user's own `{ "fajrAngle": …, "ishaAngle": … }` / `"ishaMinutes": …`.
    private static func method(_ object: ObjectReader, _ member: Int) -> PrayerMethod? {
        let document = object.document
        if let name = document.string(member) {
            guard let method = PrayerMethod.named(name) else {
                let names = PrayerMethod.all.compactMap(\.name).joined(separator: ", ")
                object.report("method", "\(document.quote(member)) is not a method (expected one of \(names), or an object with fajrAngle and ishaAngle or ishaMinutes)")
                return nil
            }
            return method
        }
        guard let custom = object.object("method") else { return nil }
        custom.checkKeys(["fajrAngle", "ishaAngle", "ishaMinutes"])
        let fajr = custom.degrees("fajrAngle", in: 0...30, required: true)
        let angleMember = custom.member("ishaAngle"), minutesMember = custom.member("ishaMinutes")
        let isha: PrayerMethod.Isha?
        switch (angleMember, minutesMember) {
        case (_?, _?):
            custom.report("ishaMinutes", "a method has either ishaAngle or ishaMinutes, not both")
            return nil
        case (nil, nil):
            document.report(custom.path, "missing required key \"ishaAngle\" (degrees) or \"ishaMinutes\"")
            return nil
        case (_?, nil):
            isha = custom.degrees("ishaAngle", in: 0...30).map(PrayerMethod.Isha.angle)
        case let (nil, minutes?):
            isha = custom.int("ishaMinutes", at: minutes, default: nil, in: 0...240).map(PrayerMethod.Isha.minutes)
        }
        guard let fajr, let isha else { return nil }
        return PrayerMethod(fajrAngle: fajr, isha: isha)
    }
}

extension ObjectReader {
    /// A number of degrees within `range`; nil when absent (reported when `required`) or invalid (reported).
    func degrees(_ key: String, in range: ClosedRange<Double>, required: Bool = false) -> Double? {
        guard let member = required ? requireMember(key) : member(key) else { return nil }
        let expected = "expected a number of degrees from \(Self.number(range.lowerBound)) to \(Self.number(range.upperBound))"
        guard document.tape.kind(member) == .number else {
            report(key, "\(expected), found \(document.tape.typeDescription(member))")
            return nil
        }
        guard let value = Double(document.tape.text(member)), value.isFinite, range.contains(value) else {
            report(key, "\(document.quote(member)) is out of range (\(expected))")
            return nil
        }
        return value
    }

    /// One of an enumeration's raw values (`"hanafi"`); nil when absent or unknown (reported).
    func choice<Value: RawRepresentable & CaseIterable>(_ key: String, _ type: Value.Type) -> Value?
    where Value.RawValue == String {
        guard let member = member(key), let text = string(key, at: member) else { return nil }
        guard let value = Value(rawValue: text) else {
            let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
            report(key, "\(document.quote(member)) is not a known value (expected one of \(names))")
            return nil
        }
        return value
    }

    /// "90", "-180": a bound as a person writes it.
    private static func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
