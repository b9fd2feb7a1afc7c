import FoundationEssentials

/// Decodes the bytes of each user file into model values, collecting every problem with its place.
public enum UserFileDecoder {
    /// Parses `data` and hands the root object to `read`; a value when there was no problem, or when every
    /// problem belongs to an entry left out (`entriesStandAlone`: the lists of the files of entries; a setting
    /// is no entry).
    static func decode<Value>(_ file: UserFile, _ data: [UInt8], knownKeys: [StaticString],
                              entriesStandAlone: Bool = true,
                              _ read: (ObjectReader) -> Value) -> (Value?, FileReport) {
        do {
            return try DocumentReader.read(data, file: file.fileName) { document in
                let value = document.root(knownKeys: knownKeys).map(read)
                if entriesStandAlone { document.reportNearMissLists(knownKeys) }
                let usable = document.problems.isEmpty || (entriesStandAlone && document.standsWithoutBrokenEntries)
                let report = FileReport(file: file, problems: document.problems, unknownKeys: document.unknownKeys,
                                        suggestions: document.suggestions, brokenEntries: document.brokenEntries,
                                        isUsable: usable)
                return (usable ? value : nil, report)
            }
        } catch {
            return (nil, FileReport(file: file, problems: [DataProblem(error, file: file.fileName)]))
        }
    }

    /// `zoneNamed`: the zone an IANA name stands for, to check `timeZone` (the shell reads the tz database).
    public static func settings(_ data: [UInt8], zoneNamed: (String) -> Zone?) -> (Settings?, FileReport) {
        decode(.settings, data, knownKeys: Settings.topLevelKeys, entriesStandAlone: false) {
            Settings($0, zoneNamed: zoneNamed)
        }
    }

    public static func pets(_ data: [UInt8]) -> ([Pet]?, FileReport) {
        decode(.laundry, data, knownKeys: ["pets"]) { $0.list("pets", Pet.init) }
    }

    public static func alarms(_ data: [UInt8]) -> ([Alarm]?, FileReport) {
        decode(.alarms, data, knownKeys: ["alarms"]) { $0.list("alarms", Alarm.init) }
    }
}
