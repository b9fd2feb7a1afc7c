import FoundationEssentials

extension Settings {
    /// Reads `settings.json`'s top-level object, reporting every invalid value to `document`. `zoneNamed` finds the
    /// zone an IANA name stands for (the shell reads the system's tz database): `timeZone` must name one.
    init(_ root: ObjectReader, zoneNamed: (String) -> Zone?, zoneNames: () -> [String] = { [] }) {
        self.init()
        timeZone = root.zoneName("timeZone", zoneNamed: zoneNamed, zoneNames: zoneNames)
        if let object = root.object("notifications") {
            notifications = NotificationSwitches(object)
        }
        maxPending = root.int("maxPending", default: 64, in: 1...10_000) ?? 64
        if let object = root.object("quietHours") {
            quietHours = QuietHours(object)
        }
        if let object = root.object("deliver") {
            object.checkKeys(["desktop", "command", "calendar"])
            deliverDesktop = object.bool("desktop", default: false)
            deliverCommand = Self.argv(object, "command")
            deliverCalendar = object.object("calendar").flatMap(CalendarSettings.init)
        }
        if let object = root.object("laundry") {
            laundry = LaundrySettings(object)
        }
        if let object = root.object("commute") {
            commute = CommuteSettings(object)
        }
        if let object = root.object("personalized") {
            personalized = PersonalizedSettings(object)
        }
        if let object = root.object("alarms") {
            alarms = AlarmSettings(object)
        }
        if let object = root.object("streaks") {
            streaks = StreakSettings(object)
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

    /// `deliver.command`, `deliver.calendar.passwordCommand`: a non-empty array of strings, the program first. No
    /// shell ever sees it.
    static func argv(_ object: ObjectReader, _ key: String) -> [String]? {
        guard let member = object.member(key) else { return nil }
        let tape = object.document.tape
        guard tape.kind(member) == .array, case let elements = tape.elements(of: member), !elements.isEmpty else {
            object.report(key, "expected a non-empty array of strings (program and arguments), found \(tape.typeDescription(member))")
            return nil
        }
        var argv: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = object.document.string(element), !(index == 0 && text.isEmpty) else {
                object.document.report(object.path.appending(key).appending(index: index),
                                       "expected a non-empty string, found \(object.document.quote(element))")
                return nil
            }
            argv.append(text)
        }
        return argv
    }
}

extension NotificationSwitches {
    /// `settings.notifications`, each switch on unless set.
    init(_ object: ObjectReader) {
        self.init()
        object.checkKeys(["enabled", "sound", "badge"])
        enabled = object.bool("enabled", default: true)
        sound = object.bool("sound", default: true)
        badge = object.bool("badge", default: true)
    }
}

extension QuietHours {
    /// `settings.quietHours`; nil unless both `start` and `end` are valid times (a missing one is reported).
    init?(_ object: ObjectReader) {
        object.checkKeys(["start", "end"])
        let start = object.wallTime("start", default: nil)
        let end = object.wallTime("end", default: nil)
        guard let start, let end else { return nil }
        self.init(start: start, end: end)
    }
}

extension LaundrySettings {
    /// `settings.laundry`.
    init(_ object: ObjectReader) {
        self.init()
        object.checkKeys(["enabled", "warnBeforeMinutes", "foldReminderMinutes", "healthWarnAfterDays"])
        enabled = object.bool("enabled", default: true)
        warnBeforeMinutes = object.int("warnBeforeMinutes", default: 0, in: 0...120) ?? 0
        foldReminderMinutes = object.int("foldReminderMinutes", default: 30, in: 1...1440) ?? 30
        healthWarnAfterDays = object.int("healthWarnAfterDays", default: 7, in: 1...365) ?? 7
    }
}

extension CommuteSettings {
    /// `settings.commute`.
    init(_ object: ObjectReader) {
        self.init()
        object.checkKeys(["enabled", "defaultBufferMinutes"])
        enabled = object.bool("enabled", default: true)
        defaultBufferMinutes = object.int("defaultBufferMinutes", default: 10, in: 0...720) ?? 10
    }
}

extension PersonalizedSettings {
    /// `settings.personalized`: `firstName` is required when the message is on.
    init(_ object: ObjectReader) {
        self.init()
        object.checkKeys(["enabled", "firstName", "time"])
        enabled = object.bool("enabled", default: false)
        firstName = object.optionalString("firstName")
        time = object.wallTime("time", default: time) ?? time
        let name = firstName?.trimmingWhitespace ?? ""
        if enabled && name.isEmpty {
            object.document.report(object.path.appending("firstName"),
                                   "is required when personalized.enabled is true (the name the message greets)")
        }
    }
}

extension AlarmSettings {
    /// `settings.alarms`.
    init(_ object: ObjectReader) {
        self.init()
        object.checkKeys(["enabled", "snoozeMinutes"])
        enabled = object.bool("enabled", default: true)
        snoozeMinutes = object.int("snoozeMinutes", default: 5, in: 1...1440) ?? 5
    }
}

extension StreakSettings {
    /// `settings.streaks`.
    init(_ object: ObjectReader) {
        self.init()
        object.checkKeys(["enabled", "time", "smart", "milestones"])
        enabled = object.bool("enabled", default: true)
        time = object.wallTime("time", default: time) ?? time
        smart = object.bool("smart", default: false)
        milestones = Self.milestones(object) ?? milestones
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
