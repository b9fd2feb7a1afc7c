import FoundationEssentials

/// Turns the bytes of the user files into a `Household`, falling back to each broken file's last good version
/// so that one mistyped file never silences the others (docs/promises.md).
public enum HouseholdLoader {
    /// The household to plan with, and what was found on the way.
    public struct Loaded: Sendable {
        public var household = Household()
        /// One report per file present, in `UserFile` order.
        public var reports: [FileReport] = []
        /// Broken files whose last good version stands in for them.
        public var fallbacks: [UserFile] = []
        /// Files that are valid as they are now: candidates to become the new last good version.
        public var valid: [UserFile] = []
        /// Broken entries of usable files put back from their file's last good version (the others plan not
        /// at all until fixed).
        public var restored: [UserFile: [BrokenEntry]] = [:]
        /// Invalid settings that took their last good value (the others are at their default until fixed).
        public var restoredSettings: [SettingsSection] = []

        public var problems: [DataProblem] { reports.flatMap(\.problems) }
    }

    /// `current` holds the files that exist (a missing file means "nothing of that kind"); `lastGood` the saved
    /// copies of earlier valid versions.
    /// `unreadable` holds files that are there but could not be read (a directory, no permission, a symbolic link
    /// that points nowhere), with the reason: they are reported like a broken file and fall back to their last
    /// good version too. `zoneNamed` finds the zone an IANA name stands for, for settings.json's `timeZone`.
    public static func load(current: UserFileMap<[UInt8]>, lastGood: UserFileMap<[UInt8]> = [:],
                            unreadable: UserFileMap<FileAccessProblem> = [:],
                            zoneNamed: (String) -> Zone?, zoneNames: () -> [String] = { [] }) -> Loaded {
        var loaded = Loaded()
        for file in UserFile.allCases {
            let report: FileReport
            if let problem = unreadable[file] {
                report = FileReport(file: file, problems: [DataProblem(file: file.fileName, place: .file,
                                                                       message: problem.description)])
            } else if let data = current[file] {
                report = apply(file, data, to: &loaded.household, zoneNamed: zoneNamed, zoneNames: zoneNames)
            } else {
                continue
            }
            loaded.reports.append(report)
            if report.isValid {
                loaded.valid.append(file)
            } else if report.isUsable {
                // Entries stand alone: the file plans as it is now, a broken entry from its last good version.
                var saved = Household()
                if let data = lastGood[file], apply(file, data, to: &saved, zoneNamed: zoneNamed).isValid {
                    let restored = loaded.household.restore(report.brokenEntries, of: file, from: saved)
                    if !restored.isEmpty { loaded.restored[file] = restored }
                    for section in report.brokenSettings { loaded.household.settings.take(section, from: saved.settings) }
                    if !report.brokenSettings.isEmpty { loaded.restoredSettings = report.brokenSettings }
                }
            } else if let saved = lastGood[file],
                      apply(file, saved, to: &loaded.household, zoneNamed: zoneNamed).isValid {
                loaded.fallbacks.append(file)
            }
        }
        checkPrayerAlarms(&loaded, lastGood: lastGood, zoneNamed: zoneNamed)
        return loaded
    }

    /// An alarm that follows a prayer needs `settings.prayerTimes.latitude` and `longitude` (docs/files.md): without
    /// them it is a problem of that alarm, and `alarms.json` is handled like a file with an invalid value: its last
    /// good version stands in when that one can ring. Without one, the other alarms still ring. A settings.json
    /// that is itself broken, with no last good version, is that file's problem alone: its prayer alarms cannot
    /// ring, and alarms.json is not blamed for it.
    private static func checkPrayerAlarms(_ loaded: inout Loaded, lastGood: UserFileMap<[UInt8]>,
                                          zoneNamed: (String) -> Zone?) {
        // Settings whose prayerTimes are broken and have no last good value: their own problem, as a broken file.
        let settingsBroken = loaded.reports.contains { report in
            report.file == .settings && !report.isValid
                && (report.isUsable ? report.brokenSettings.contains(.prayerTimes)
                                      && !loaded.restoredSettings.contains(.prayerTimes)
                                    : !loaded.fallbacks.contains(.settings))
        }
        guard !settingsBroken else { return }
        let missing = (loaded.household.settings.prayerTimes ?? PrayerSettings()).missingKeys
        guard !missing.isEmpty, let reportIndex = loaded.reports.firstIndex(where: { $0.file == .alarms }),
              loaded.reports[reportIndex].isUsable else { return }
        let hadBrokenEntries = !loaded.reports[reportIndex].isValid
        let alarmsPath = KeyPath.root.appending("alarms")
        for (index, alarm) in loaded.household.alarms.enumerated() where alarm.prayer != nil {
            loaded.reports[reportIndex].problems.append(DataProblem(
                file: UserFile.alarms.fileName, place: .keyPath(alarmsPath.appending(index: index).appending("prayer")),
                message: "follows a prayer, but settings.json has no \(missing.joined(separator: " and ")) (the place whose prayer times it follows)"))
        }
        guard !loaded.reports[reportIndex].isValid else { return }
        loaded.valid.removeAll { $0 == .alarms }
        // With broken entries of its own, the file already plans entry by entry, as it is now.
        guard !hadBrokenEntries else { return }
        var fallback = loaded.household
        if let saved = lastGood[.alarms], apply(.alarms, saved, to: &fallback, zoneNamed: zoneNamed).isValid,
           !fallback.alarms.contains(where: { $0.prayer != nil }) {
            loaded.household = fallback
            loaded.fallbacks.append(.alarms)
        }
    }

    /// Decodes one file into its part of the household; the household is untouched when the file is invalid.
    private static func apply(_ file: UserFile, _ data: [UInt8], to household: inout Household,
                              zoneNamed: (String) -> Zone?, zoneNames: () -> [String] = { [] }) -> FileReport {
        switch file {
        case .settings:
            let (settings, report) = UserFileDecoder.settings(data, zoneNamed: zoneNamed, zoneNames: zoneNames)
            if let settings { household.settings = settings }
            return report
        case .laundry:
            let (pets, report) = UserFileDecoder.pets(data)
            if let pets { household.pets = pets }
            return report
        case .alarms:
            let (alarms, report) = UserFileDecoder.alarms(data)
            if let alarms { household.alarms = alarms }
            return report
        case .trips:
            let (trips, report) = UserFileDecoder.trips(data, zoneNamed: zoneNamed, zoneNames: zoneNames)
            if let trips { household.trips = trips }
            return report
        case .streaks:
            let (streaks, report) = UserFileDecoder.streaks(data)
            if let streaks { household.streaks = streaks }
            return report
        }
    }
}
