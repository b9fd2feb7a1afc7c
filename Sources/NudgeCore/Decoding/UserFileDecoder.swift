import FoundationEssentials

/// Decodes the bytes of each user file into model values, collecting every problem with its place.
public enum UserFileDecoder {
    /// Parses `data` and hands the root object to `read`; a value when there was no problem, or when every
    /// problem belongs to an entry left out (`entriesStandAlone`: the lists of the files of entries; a setting
    /// is no entry).
    static func decode<Value>(_ file: UserFile, _ data: [UInt8], knownKeys: [StaticString],
                              entriesStandAlone: Bool = true, valueDespiteProblems: Bool = false,
                              _ read: (ObjectReader) -> Value) -> (Value?, FileReport) {
        do {
            return try DocumentReader.read(data, file: file.fileName) { document in
                let value = document.root(knownKeys: knownKeys).map(read)
                document.reportRootNearMisses(lists: entriesStandAlone ? knownKeys : [])
                let usable = document.problems.isEmpty || (entriesStandAlone && document.standsWithoutBrokenEntries)
                let report = FileReport(file: file, problems: document.problems, unknownKeys: document.unknownKeys,
                                        suggestions: document.suggestions, brokenEntries: document.brokenEntries,
                                        isUsable: usable)
                return (usable || valueDespiteProblems ? value : nil, report)
            }
        } catch {
            return (nil, FileReport(file: file, problems: [DataProblem(error, file: file.fileName)]))
        }
    }

    /// `zoneNamed`: the zone an IANA name stands for, to check `timeZone` (the shell reads the tz database);
    /// `zoneNames`: the names to suggest for one it does not know.
    ///
    /// Each setting stands alone (docs/promises.md): when every problem lies inside a setting, the settings are a value,
    /// each invalid one at its default and named in the report's `brokenSettings`, for its last good value to
    /// stand in. A problem outside them (a syntax error, `version`) leaves no value: the file falls back whole.
    public static func settings(_ data: [UInt8], zoneNamed: (String) -> Zone?,
                                zoneNames: () -> [String] = { [] }) -> (Settings?, FileReport) {
        let (decoded, report) = decode(.settings, data, knownKeys: Settings.topLevelKeys, entriesStandAlone: false,
                                       valueDespiteProblems: true) {
            Settings($0, zoneNamed: zoneNamed, zoneNames: zoneNames)
        }
        guard let decoded, let (settings, standing) = standingAlone(decoded, report) else { return (nil, report) }
        return (settings, standing)
    }

    /// The settings with each invalid one at its default, and the report naming them; nil when a problem lies
    /// outside every setting.
    private static func standingAlone(_ decoded: Settings, _ report: FileReport) -> (Settings, FileReport)? {
        guard !report.isValid else { return (decoded, report) }
        var broken: [SettingsSection] = []
        for problem in report.problems {
            // A near miss of a setting's own key (`"notifcations"`) is a problem of that setting.
            guard case .keyPath(let path) = problem.place,
                  let key = path.topLevelKey.flatMap({ _ in report.suggestions[path.description] }) ?? path.firstKey,
                  let section = SettingsSection(rawValue: key) else { return nil }
            if !broken.contains(section) { broken.append(section) }
        }
        var settings = decoded
        for section in broken { settings.take(section, from: Settings()) }
        var standing = report
        standing.brokenSettings = broken
        standing.isUsable = true
        return (settings, standing)
    }

    public static func pets(_ data: [UInt8]) -> ([Pet]?, FileReport) {
        decode(.laundry, data, knownKeys: ["pets"]) { $0.list("pets", Pet.init) }
    }

    static func alarms(_ data: [UInt8]) -> ([Alarm]?, FileReport) {
        decode(.alarms, data, knownKeys: ["alarms"]) { $0.list("alarms", Alarm.init) }
    }
}
