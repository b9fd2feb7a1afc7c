import FoundationEssentials

extension Settings {
    static let topLevelKeys: [StaticString] = ["timeZone", "notifications", "maxPending", "quietHours", "deliver",
                                            "laundry", "commute", "personalized", "alarms", "streaks", "prayerTimes"]

    /// Reads `settings.json`'s top-level object, reporting every invalid value to `document`. `zoneNamed` finds the
    /// zone an IANA name stands for (the shell reads the system's tz database): `timeZone` must name one.
    init(_ root: ObjectReader, zoneNamed: (String) -> Zone?, zoneNames: () -> [String] = { [] }) {
        self.init()
        let document = root.document
        timeZone = root.zoneName("timeZone", zoneNamed: zoneNamed, zoneNames: zoneNames)
        if let object = root.object("notifications") {
            object.checkKeys(["enabled", "sound", "badge"])
            notifications.enabled = object.bool("enabled", default: true)
            notifications.sound = object.bool("sound", default: true)
            notifications.badge = object.bool("badge", default: true)
        }
        maxPending = root.int("maxPending", default: 64, in: 1...10_000) ?? 64
        if let object = root.object("quietHours") {
            object.checkKeys(["start", "end"])
            let start = object.wallTime("start", default: nil)
            let end = object.wallTime("end", default: nil)
            if let start, let end { quietHours = QuietHours(start: start, end: end) }
        }
        if let object = root.object("deliver") {
            object.checkKeys(["desktop", "command"])
            deliverDesktop = object.bool("desktop", default: false)
            deliverCommand = Self.command(object)
        }
        if let object = root.object("laundry") {
            object.checkKeys(["enabled", "warnBeforeMinutes", "foldReminderMinutes", "healthWarnAfterDays"])
            laundry.enabled = object.bool("enabled", default: true)
            laundry.warnBeforeMinutes = object.int("warnBeforeMinutes", default: 0, in: 0...120) ?? 0
            laundry.foldReminderMinutes = object.int("foldReminderMinutes", default: 30, in: 1...1440) ?? 30
            laundry.healthWarnAfterDays = object.int("healthWarnAfterDays", default: 7, in: 1...365) ?? 7
        }
        if let object = root.object("commute") {
            object.checkKeys(["enabled", "defaultBufferMinutes"])
            commute.enabled = object.bool("enabled", default: true)
            commute.defaultBufferMinutes = object.int("defaultBufferMinutes", default: 10, in: 0...720) ?? 10
        }
        if let object = root.object("personalized") {
            object.checkKeys(["enabled", "firstName", "time"])
            personalized.enabled = object.bool("enabled", default: false)
            personalized.firstName = object.optionalString("firstName")
            personalized.time = object.wallTime("time", default: personalized.time) ?? personalized.time
            let name = personalized.firstName?.trimmingWhitespace ?? ""
            if personalized.enabled && name.isEmpty {
                document.report(object.path.appending("firstName"),
                                "is required when personalized.enabled is true (the name the message greets)")
            }
        }
        if let object = root.object("alarms") {
            object.checkKeys(["enabled", "snoozeMinutes"])
            alarms.enabled = object.bool("enabled", default: true)
            alarms.snoozeMinutes = object.int("snoozeMinutes", default: 5, in: 1...1440) ?? 5
        }
        if let object = root.object("streaks") {
            object.checkKeys(["enabled", "time", "smart", "milestones"])
            streaks.enabled = object.bool("enabled", default: true)
            streaks.time = object.wallTime("time", default: streaks.time) ?? streaks.time
            streaks.smart = object.bool("smart", default: false)
            streaks.milestones = Self.milestones(object) ?? streaks.milestones
        }
        if let object = root.object("prayerTimes") {
            prayerTimes = PrayerSettings(object)
        }
    }

    /// Foundation also accepts "UTC+5" or "GMT-03:00", which are no IANA names, and in POSIX `TZ` syntax "UTC+5"
    /// means five hours *behind* UTC: a copied `$TZ` would put every alarm ten hours off. IANA's own
    /// "Etc/GMT+5" stays accepted.
    static func isOffsetName(_ name: String) -> Bool {
        let upper = name.uppercased()
        guard let prefix = ["UTC", "GMT", "UT"].first(where: { upper.hasPrefix($0) }) else { return false }
        let rest = upper.dropFirst(prefix.count)
        return rest.first == "+" || rest.first == "-"
    }

    /// `streaks.milestones`: whole numbers of days, 1–36,500, kept sorted without repeats; nil when absent or
    /// invalid (reported).
    private static func milestones(_ object: ObjectReader) -> [Int]? {
        guard let member = object.member("milestones") else { return nil }
        let tape = object.document.tape
        guard tape.kind(member) == .array else {
            object.report("milestones", "expected an array of whole numbers of days (like [7, 30, 100, 365]), "
                + "found \(tape.typeDescription(member))")
            return nil
        }
        var days: [Int] = []
        for (index, element) in tape.elements(of: member).enumerated() {
            guard tape.kind(element) == .number, let number = tape.intValue(element), (1...36_500).contains(number)
            else {
                object.document.report(object.path.appending("milestones").appending(index: index),
                                       "expected a whole number of days from 1 to 36500, found "
                                           + object.document.quote(element))
                return nil
            }
            days.append(number)
        }
        return Array(Set(days)).sorted()
    }

    /// `deliver.command`: a non-empty array of strings, the program first. No shell ever sees it.
    private static func command(_ object: ObjectReader) -> [String]? {
        guard let member = object.member("command") else { return nil }
        let tape = object.document.tape
        guard tape.kind(member) == .array, case let elements = tape.elements(of: member), !elements.isEmpty else {
            object.report("command", "expected a non-empty array of strings (program and arguments), found \(tape.typeDescription(member))")
            return nil
        }
        var argv: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = object.document.string(element), !(index == 0 && text.isEmpty) else {
                object.document.report(object.path.appending("command").appending(index: index),
                                       "expected a non-empty string, found \(object.document.quote(element))")
                return nil
            }
            argv.append(text)
        }
        return argv
    }
}

extension ObjectReader {
    /// An IANA zone name at `key` that `zoneNamed` knows, not a fixed offset such as "UTC+3"; nil when absent or
    /// invalid (reported, with the closest names among `zoneNames`).
    func zoneName(_ key: String, zoneNamed: (String) -> Zone?, zoneNames: () -> [String]) -> String? {
        guard let name = optionalString(key) else { return nil }
        if !Settings.isOffsetName(name), zoneNamed(name) != nil { return name }
        let closest = Spelling.closestNames(to: name, among: zoneNames())
        let hint = closest.isEmpty ? "" : "; did you mean \(closest.joined(separator: " or "))?"
        report(key, "\"\(name)\" is not a known time zone (expected an IANA name such as \"Europe/Berlin\"\(hint))")
        return nil
    }
}
