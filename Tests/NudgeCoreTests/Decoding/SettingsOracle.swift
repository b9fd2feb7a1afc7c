#if canImport(NudgeCore)
@testable import NudgeCore
#endif

/// `settings.json` as docs/files.md describes it, read apart from nudge's decoding (`Settings.init`,
/// `ObjectReader`, `Settings.take`, `HouseholdLoader`): the fuzzers' oracle of "settings stand alone"
/// (docs/promises.md, "A mistake takes down only what it touches"). It reads the parsed document, whose parser the
/// fuzzers check on their own, and writes every field of `Settings` itself, defaults included: a field that the
/// product's fallback forgets differs from it. Fuzz/build.sh compiles it into the libFuzzer pipeline harness too,
/// with the core's sources, where there is no NudgeCore module to import.
struct SettingsOracle {
    /// The zones the tz database names, as the shell finds them for the core.
    let zoneNamed: (String) -> Zone?

    /// The top-level settings of docs/files.md.
    static let keys = ["timeZone", "notifications", "maxPending", "quietHours", "deliver", "laundry", "commute",
                       "personalized", "alarms", "streaks", "prayerTimes"]

    /// One settings.json as the oracle reads it.
    struct Reading {
        /// The top-level members (a file that parses has no key twice).
        var members: [String: JSONValue]
        /// The settings whose value is invalid, in `keys` order.
        var broken: [String]
    }

    /// The reading of a parsed settings.json; nil when nothing of it stands: it is no object, or it names a
    /// `version` other than 1 (`null` is no version, as for any optional key).
    func read(_ document: JSONValue) -> Reading? {
        guard case .object(let list) = document else { return nil }
        let members = Dictionary(list.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        if let version = members["version"], version != .null, version != .number("1") { return nil }
        // A near miss of an absent top-level key breaks the setting it misses; of `version`, the whole file.
        var missed: Set<String> = []
        for name in members.keys where !Self.keys.contains(name) && name != "version" {
            guard let meant = Self.nearMiss(name, among: Self.keys + ["version"]), members[meant] == nil else { continue }
            if meant == "version" { return nil }
            missed.insert(meant)
        }
        var scratch = Settings()
        return Reading(members: members, broken: Self.keys.filter {
            missed.contains($0) || Self.holdsNearMiss($0, members[$0]) || !assign($0, members[$0], to: &scratch)
        })
    }

    /// The keys docs/files.md names in each object of a setting, by the object's place below the top level.
    private static let objectKeys: [String: [String]] = [
        "notifications": ["enabled", "sound", "badge"],
        "quietHours": ["start", "end"],
        "deliver": ["desktop", "command"],
        "laundry": ["enabled", "warnBeforeMinutes", "foldReminderMinutes", "healthWarnAfterDays"],
        "commute": ["enabled", "defaultBufferMinutes"],
        "personalized": ["enabled", "firstName", "time"],
        "alarms": ["enabled", "snoozeMinutes"],
        "streaks": ["enabled", "time", "smart", "milestones"],
        "prayerTimes": ["latitude", "longitude", "method", "asr", "highLatitude", "polar", "adjustMinutes"],
        "prayerTimes.adjustMinutes": ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"],
        "prayerTimes.method": ["fajrAngle", "ishaAngle", "ishaMinutes"],
    ]

    /// Whether an object of the setting holds a near miss of a key it lacks (docs/promises.md, "A typo is a mistake, not a note"): then the setting is invalid.
    private static func holdsNearMiss(_ place: String, _ value: JSONValue?) -> Bool {
        guard case .object(let list)? = value, let known = objectKeys[place] else { return false }
        let names = Set(list.map(\.key))
        for name in names where !known.contains(name) {
            if let meant = nearMiss(name, among: known), !names.contains(meant) { return true }
        }
        return list.contains { holdsNearMiss(place + "." + $0.key, $0.value) }
    }

    /// The known key `name` nearly is, as docs/files.md says: the fewest edits (insertions, deletions,
    /// substitutions), at most one for a key under six letters and two for a longer one, the first listed on a
    /// tie; else the shortest known key that begins or ends with a `name` of three letters or more, case ignored.
    static func nearMiss(_ name: String, among known: [String]) -> String? {
        let limit = name.count < 6 ? 1 : 2
        var best: (key: String, edits: Int)?
        for key in known {
            let edits = editDistance(Array(name), Array(key))
            if edits <= limit, edits < (best?.edits ?? .max) { best = (key, edits) }
        }
        if let best { return best.key }
        guard name.count >= 3 else { return nil }
        let lower = name.lowercased()
        return known.filter { $0.lowercased() != lower && ($0.lowercased().hasPrefix(lower)
                                                            || $0.lowercased().hasSuffix(lower)) }
            .min { $0.count < $1.count }
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var next = [i + 1]
            for (j, y) in b.enumerated() { next.append(min(row[j + 1] + 1, next[j] + 1, row[j] + (x == y ? 0 : 1))) }
            row = next
        }
        return row[b.count]
    }

    /// The settings a household plans with when settings.json reads `current` (nil: it stands as nothing) and its
    /// last good copy `lastGood` (nil: none): each setting as written when valid, else as the last good copy has
    /// it when that copy is valid throughout, else at its default.
    func expected(current: Reading?, lastGood: Reading?) -> Settings {
        let saved = lastGood.flatMap { $0.broken.isEmpty ? $0.members : nil } ?? [:]
        var settings = Settings()
        for key in Self.keys {
            let written = current.map { $0.broken.contains(key) ? saved[key] : $0.members[key] } ?? saved[key]
            let applied = assign(key, written, to: &settings)
            precondition(applied, "the oracle chose an invalid value of \(key)")
        }
        return settings
    }

    /// Writes the setting `key` as `value` says (absent or `null`: its default) into `settings`, every field of it;
    /// false, with `settings` unchanged, when the value is invalid.
    func assign(_ key: String, _ value: JSONValue?, to settings: inout Settings) -> Bool {
        let value = value == .null ? nil : value
        var result = settings
        let valid: Bool
        switch key {
        case "timeZone":
            result.timeZone = value.flatMap(zoneName)
            valid = value == nil || result.timeZone != nil
        case "maxPending":
            let number = Self.wholeNumber(value, default: 64, in: 1...10_000)
            result.maxPending = number ?? 0
            valid = number != nil
        case "quietHours":
            valid = assignQuietHours(value, to: &result)
        case "notifications":
            let members = Self.object(value)
            let switches = ["enabled", "sound", "badge"].map { Self.bool(members?[$0], default: true) }
            (result.notifications.enabled, result.notifications.sound, result.notifications.badge)
                = (switches[0] ?? true, switches[1] ?? true, switches[2] ?? true)
            valid = members != nil && !switches.contains(nil)
        case "deliver":
            valid = assignDeliver(value, to: &result)
        case "laundry", "commute", "alarms":
            valid = assignSwitchedSection(key, value, to: &result)
        case "personalized":
            valid = assignPersonalized(value, to: &result)
        case "streaks":
            valid = assignStreaks(value, to: &result)
        case "prayerTimes":
            valid = assignPrayerTimes(value, to: &result)
        default:
            return false
        }
        if valid { settings = result }
        return valid
    }

    // MARK: - The settings

    /// An IANA name the tz database has, not a fixed offset: "UTC+3" means three hours *behind* UTC in a POSIX
    /// `TZ`, so docs/files.md asks for a name such as "Europe/Berlin" ("Etc/GMT+5" is one).
    private func zoneName(_ value: JSONValue) -> String? {
        guard case .string(let name) = value, zoneNamed(name) != nil else { return nil }
        let upper = name.uppercased()
        for prefix in ["UTC", "GMT", "UT"] where upper.hasPrefix(prefix) {
            let sign = upper.dropFirst(prefix.count).first
            if sign == "+" || sign == "-" { return nil }
        }
        return name
    }

    /// `start` and `end` both `HH:MM`; none when absent.
    private func assignQuietHours(_ value: JSONValue?, to settings: inout Settings) -> Bool {
        guard let value else {
            settings.quietHours = nil
            return true
        }
        guard let members = Self.object(value), let start = Self.time(members["start"]),
              let end = Self.time(members["end"]) else { return false }
        settings.quietHours = QuietHours(start: start, end: end)
        return true
    }

    /// `desktop` a boolean (false), `command` a non-empty array of strings whose first, the program, is not empty.
    private func assignDeliver(_ value: JSONValue?, to settings: inout Settings) -> Bool {
        settings.deliverDesktop = false
        settings.deliverCommand = nil
        guard let members = Self.object(value), let desktop = Self.bool(members["desktop"], default: false) else {
            return false
        }
        settings.deliverDesktop = desktop
        switch members["command"] {
        case nil, .null?:
            return true
        case .array(let elements)?:
            let argv = elements.compactMap { element -> String? in
                if case .string(let text) = element { return text }
                return nil
            }
            guard !argv.isEmpty, argv.count == elements.count, argv[0] != "" else { return false }
            settings.deliverCommand = argv
            return true
        default:
            return false
        }
    }

    /// `laundry`, `commute` and `alarms`: a switch (on) and whole numbers in the ranges of docs/files.md.
    private func assignSwitchedSection(_ key: String, _ value: JSONValue?, to settings: inout Settings) -> Bool {
        let members = Self.object(value)
        let enabled = Self.bool(members?["enabled"], default: true)
        let number = { (name: String, fallback: Int, range: ClosedRange<Int>) in
            Self.wholeNumber(members?[name], default: fallback, in: range)
        }
        let numbers: [Int?]
        switch key {
        case "laundry":
            numbers = [number("warnBeforeMinutes", 0, 0...120), number("foldReminderMinutes", 30, 1...1440),
                       number("healthWarnAfterDays", 7, 1...365)]
            settings.laundry.enabled = enabled ?? true
            (settings.laundry.warnBeforeMinutes, settings.laundry.foldReminderMinutes,
             settings.laundry.healthWarnAfterDays) = (numbers[0] ?? 0, numbers[1] ?? 30, numbers[2] ?? 7)
        case "commute":
            numbers = [number("defaultBufferMinutes", 10, 0...720)]
            settings.commute.enabled = enabled ?? true
            settings.commute.defaultBufferMinutes = numbers[0] ?? 10
        default:
            numbers = [number("snoozeMinutes", 5, 1...1440)]
            settings.alarms.enabled = enabled ?? true
            settings.alarms.snoozeMinutes = numbers[0] ?? 5
        }
        return members != nil && enabled != nil && !numbers.contains(nil)
    }

    /// `enabled` (off), `firstName`, required when on and not blank (nothing a person would see), `time` (08:00).
    private func assignPersonalized(_ value: JSONValue?, to settings: inout Settings) -> Bool {
        let members = Self.object(value)
        let enabled = Self.bool(members?["enabled"], default: false)
        let time = Self.time(members?["time"], default: WallTime(hour: 8, minute: 0))
        var firstName: String??
        switch members?["firstName"] {
        case nil, .null?: firstName = .some(nil)
        case .string(let text)?: firstName = text
        default: firstName = nil
        }
        let blank = { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace || scalar == "\u{200B}" }
        let named = (firstName ?? nil).map { !$0.unicodeScalars.allSatisfy(blank) } ?? false
        settings.personalized.enabled = enabled ?? false
        settings.personalized.firstName = firstName ?? nil
        settings.personalized.time = time ?? WallTime(hour: 8, minute: 0)!
        return members != nil && enabled != nil && time != nil && firstName != nil && (enabled == false || named)
    }

    /// `enabled` (on), `time` (19:00), `smart` (off), `milestones`: whole days 1 to 36,500, kept sorted once each.
    private func assignStreaks(_ value: JSONValue?, to settings: inout Settings) -> Bool {
        let members = Self.object(value)
        let enabled = Self.bool(members?["enabled"], default: true)
        let smart = Self.bool(members?["smart"], default: false)
        let time = Self.time(members?["time"], default: WallTime(hour: 19, minute: 0))
        var milestones: [Int]? = [7, 30, 100, 365]
        switch members?["milestones"] {
        case nil, .null?:
            break
        case .array(let elements)?:
            let days = elements.map { Self.wholeNumber($0, default: nil, in: 1...36_500) }
            milestones = days.contains(nil) ? nil : Set(days.compactMap { $0 }).sorted()
        default:
            milestones = nil
        }
        settings.streaks.enabled = enabled ?? true
        settings.streaks.smart = smart ?? false
        settings.streaks.time = time ?? WallTime(hour: 19, minute: 0)!
        settings.streaks.milestones = milestones ?? []
        return members != nil && enabled != nil && smart != nil && time != nil && milestones != nil
    }

    /// docs/files.md, "Prayer times": the place (either may be missing: that is a problem of the alarms that
    /// follow a prayer), a method by name or the person's own angles, and the rest by name or range.
    private func assignPrayerTimes(_ value: JSONValue?, to settings: inout Settings) -> Bool {
        guard let value else {
            settings.prayerTimes = nil
            return true
        }
        guard let members = Self.object(value) else { return false }
        var prayer = PrayerSettings(latitude: nil, longitude: nil)
        (prayer.method, prayer.asr, prayer.highLatitude) = (Self.methods[0], .standard, .angleBased)
        (prayer.polar, prayer.adjustMinutes) = (.none, [0, 0, 0, 0, 0, 0])
        var valid = true
        func check<Value>(_ read: Value??, _ assign: (Value) -> Void) {
            switch read {
            case .none: valid = false
            case .some(.none): break
            case .some(.some(let value)): assign(value)
            }
        }
        check(Self.degrees(members["latitude"], in: -90...90)) { prayer.latitude = $0 }
        check(Self.degrees(members["longitude"], in: -180...180)) { prayer.longitude = $0 }
        check(Self.method(members["method"])) { prayer.method = $0 }
        check(Self.choice(members["asr"], AsrSchool.self)) { prayer.asr = $0 }
        check(Self.choice(members["highLatitude"], HighLatitudeRule.self)) { prayer.highLatitude = $0 }
        check(Self.polar(members["polar"])) { prayer.polar = $0 }
        switch members["adjustMinutes"] {
        case nil, .null?:
            break
        case .object(let list)?:
            let adjust = Dictionary(list.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            let minutes = ["fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha"].map {
                Self.wholeNumber(adjust[$0], default: 0, in: -60...60)
            }
            if minutes.contains(nil) { valid = false } else { prayer.adjustMinutes = minutes.compactMap { $0 } }
        default:
            valid = false
        }
        settings.prayerTimes = prayer
        return valid
    }

    /// The methods of docs/files.md, "Prayer times", the default first.
    private static let methods = [
        PrayerMethod(name: "MWL", fajrAngle: 18, isha: .angle(17)),
        PrayerMethod(name: "ISNA", fajrAngle: 15, isha: .angle(15)),
        PrayerMethod(name: "Egypt", fajrAngle: 19.5, isha: .angle(17.5)),
        PrayerMethod(name: "Makkah", fajrAngle: 18.5, isha: .minutes(90)),
        PrayerMethod(name: "Karachi", fajrAngle: 18, isha: .angle(18)),
        PrayerMethod(name: "Tehran", fajrAngle: 17.7, isha: .angle(14), maghribAngle: 4.5),
        PrayerMethod(name: "Jafari", fajrAngle: 16, isha: .angle(14), maghribAngle: 4),
    ]

    /// One of the seven methods of docs/files.md by name, or `{ "fajrAngle": …, "ishaAngle": … }` (0 to 30
    /// degrees each) or with `"ishaMinutes"` (0 to 240) instead of `ishaAngle`. Nil: invalid; `.some(nil)`: absent.
    private static func method(_ value: JSONValue?) -> PrayerMethod?? {
        switch value {
        case nil, .null?:
            return .some(nil)
        case .string(let name)?:
            guard let method = methods.first(where: { $0.name == name }) else { return nil }
            return method
        case .object(let list)?:
            let members = Dictionary(list.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            let angle = members["ishaAngle"].flatMap { $0 == .null ? nil : $0 }
            let minutes = members["ishaMinutes"].flatMap { $0 == .null ? nil : $0 }
            guard let fajr = degrees(members["fajrAngle"], in: 0...30) ?? nil else { return nil }
            switch (angle, minutes) {
            case (let angle?, nil):
                guard let isha = degrees(angle, in: 0...30) ?? nil else { return nil }
                return PrayerMethod(fajrAngle: fajr, isha: .angle(isha))
            case (nil, let minutes?):
                guard let isha = wholeNumber(minutes, default: nil, in: 0...240) else { return nil }
                return PrayerMethod(fajrAngle: fajr, isha: .minutes(isha))
            default:
                return nil
            }
        default:
            return nil
        }
    }

    /// `none`, `nearestLatitude`, `nearestDay` or a reference latitude of 0 to 65 degrees.
    private static func polar(_ value: JSONValue?) -> PolarResolution?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .string("none")?: return PolarResolution.none
        case .string("nearestLatitude")?: return PolarResolution.nearestLatitude
        case .string("nearestDay")?: return PolarResolution.nearestDay
        case .number?:
            guard let latitude = degrees(value, in: 0...65) ?? nil else { return nil }
            return PolarResolution.referenceLatitude(latitude)
        default: return nil
        }
    }

    // MARK: - Values

    /// The members of an object; none for an absent section (its defaults); nil when it is no object.
    private static func object(_ value: JSONValue?) -> [String: JSONValue]? {
        switch value {
        case nil, .null?: return [:]
        case .object(let list)?: return Dictionary(list.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        default: return nil
        }
    }

    /// `true` or `false`; `fallback` when absent; nil when it is something else.
    private static func bool(_ value: JSONValue?, default fallback: Bool) -> Bool? {
        switch value {
        case nil, .null?: return fallback
        case .bool(let bool)?: return bool
        default: return nil
        }
    }

    /// A whole number within `range`, written as digits (`-` before them for a negative one: no fraction, no
    /// exponent); `fallback` when absent, nil when it is anything else (or absent with no fallback).
    private static func wholeNumber(_ value: JSONValue?, default fallback: Int?,
                                    in range: ClosedRange<Int>) -> Int? {
        switch value {
        case nil, .null?:
            return fallback
        case .number(let text)?:
            let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(text),
                  range.contains(number) else { return nil }
            return number
        default:
            return nil
        }
    }

    /// Degrees: any finite JSON number within `range`. Nil: invalid; `.some(nil)`: absent.
    private static func degrees(_ value: JSONValue?, in range: ClosedRange<Double>) -> Double?? {
        switch value {
        case nil, .null?: return .some(nil)
        case .number(let text)?:
            guard let degrees = Double(text), degrees.isFinite, range.contains(degrees) else { return nil }
            return degrees
        default: return nil
        }
    }

    /// One of an enumeration's names. Nil: invalid; `.some(nil)`: absent.
    private static func choice<Value: RawRepresentable>(_ value: JSONValue?, _ type: Value.Type) -> Value??
    where Value.RawValue == String {
        switch value {
        case nil, .null?: return .some(nil)
        case .string(let name)?:
            guard let choice = Value(rawValue: name) else { return nil }
            return choice
        default: return nil
        }
    }

    /// `HH:MM`, two digits each, 00:00 to 23:59; `fallback` when absent; nil when it is anything else.
    private static func time(_ value: JSONValue?, default fallback: WallTime? = nil) -> WallTime? {
        switch value {
        case nil, .null?:
            return fallback
        case .string(let text)?:
            let bytes = Array(text.utf8)
            let digit = { (index: Int) in (0x30...0x39).contains(bytes[index]) ? Int(bytes[index] - 0x30) : nil }
            guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"), let h1 = digit(0), let h2 = digit(1),
                  let m1 = digit(3), let m2 = digit(4) else { return nil }
            return WallTime(hour: h1 * 10 + h2, minute: m1 * 10 + m2)
        default:
            return nil
        }
    }
}
