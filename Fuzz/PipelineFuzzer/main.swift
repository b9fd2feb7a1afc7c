// libFuzzer harness for everything after the JSON reader: UserFileDecoder, HouseholdLoader and Planner.
// Not a SwiftPM target: Fuzz/build.sh compiles it with all of Sources/NudgeCore into one module, so `internal`
// declarations are in reach:
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -module-name NudgeFuzz \
//          $(find Sources/NudgeCore -name '*.swift') Fuzz/JSONFuzzer/checks.swift Fuzz/PipelineFuzzer/main.swift \
//          -o .build-fuzz/pipeline-fuzzer
//
// An input is one user file. Which one is decided by its content, so the example files of data/ are the seed
// corpus as they are: a root with "pets" is laundry.json, "trips" trips.json, "games"/"plays"/"achievements"/
// "imports" streaks.json, an "alarms" array alarms.json, anything else settings.json (bytes that do not parse
// are tried as the file given by their length, mod 5).
//
// Checked for every input (the same invariants as Tests/NudgeCoreTests/MutationFuzzTests.swift):
// - the JSON reader's checks (Fuzz/JSONFuzzer/checks.swift);
// - the decoder: a value exactly when the file is usable (every problem inside an entry or a setting, which
//   stands alone); every problem names the file; a syntax error is reported at the parser's line:column;
// - the loader, with the other four example files and the example as the last good version (and again without
//   one): a valid file applies as decoded; a usable one plans its valid entries as written and nothing that
//   neither it nor its last good version holds, and its settings as the settings oracle reads docs/files.md
//   (Tests/NudgeCoreTests/Decoding/SettingsOracle.swift); an unusable one falls back whole; the other files'
//   parts are untouched;
// - two plans (at NOW, then from its state.json read back at NOW + 1 h): pending sorted, unique, after now,
//   ≤ maxPending, one per source; nothing delivered twice; state.json and plan.json read back.
// The example data directory is read from $NUDGE_FUZZ_DATA, else ./data.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func pipelineFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    checkJSONReader(bytes)
    checkPipeline(bytes)
    return 0
}

let fuzzNow = Date(timeIntervalSince1970: 1_795_258_200)  // 2026-11-21T10:50:00Z
let fuzzBerlin = fuzzZoneNamed("Europe/Berlin") ?? Zone(secondsFromGMT: 3600)!

/// The zone a name stands for, found as the executable finds it for the core: a fixed-offset name, else the TZif
/// file of that name in the system's tz database (the core reads no file).
func fuzzZoneNamed(_ name: String) -> Zone? {
    if let zone = Zone(offsetName: name) { return zone }
    guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
          let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name) else { return nil }
    return Zone(identifier: name, tzif: [UInt8](data))
}

let examples: UserFileMap<[UInt8]> = {
    let directory = ProcessInfo.processInfo.environment["NUDGE_FUZZ_DATA"] ?? "data"
    var files: UserFileMap<[UInt8]> = [:]
    for file in UserFile.allCases {
        guard let data = FileManager.default.contents(atPath: directory + "/" + file.fileName) else {
            fatalError("cannot read \(directory)/\(file.fileName): run from the repository root or set NUDGE_FUZZ_DATA")
        }
        files[file] = Array(data)
    }
    return files
}()

let exampleHousehold: Household = {
    let loaded = HouseholdLoader.load(current: examples, zoneNamed: fuzzZoneNamed)
    guard loaded.valid == UserFile.allCases else { fatalError("example files are not valid: \(loaded.problems)") }
    return loaded.household
}()

let exampleRun = Planner.plan(exampleHousehold, previous: nil, now: fuzzNow.addingTimeInterval(-3600), zone: fuzzBerlin)

nonisolated(unsafe) var examplePlanned = false

func whichFile(_ bytes: [UInt8]) -> UserFile {
    guard let root = try? JSONParser.parse(bytes), case .object = root else {
        return UserFile.allCases[bytes.count % UserFile.allCases.count]
    }
    if root["pets"] != nil { return .laundry }
    if root["trips"] != nil { return .trips }
    if root["games"] != nil || root["plays"] != nil || root["achievements"] != nil || root["imports"] != nil {
        return .streaks
    }
    if root["alarms"]?.arrayValue != nil { return .alarms }
    return .settings
}

enum Part: Equatable {
    case settings(Settings), pets([Pet]), alarms([Alarm]), trips([Trip]), streaks(StreakData)

    init(_ household: Household, _ file: UserFile) {
        switch file {
        case .settings: self = .settings(household.settings)
        case .laundry: self = .pets(household.pets)
        case .alarms: self = .alarms(household.alarms)
        case .trips: self = .trips(household.trips)
        case .streaks: self = .streaks(household.streaks)
        }
    }

    /// The entries of each list of the file, as text (docs/promises.md: entries stand alone).
    var entries: [String: [String]] {
        func texts<Entry>(_ list: [Entry]) -> [String] { list.map { String(describing: $0) } }
        switch self {
        case .settings: return [:]
        case .pets(let pets): return ["pets": texts(pets)]
        case .alarms(let alarms): return ["alarms": texts(alarms)]
        case .trips(let trips): return ["trips": texts(trips)]
        case .streaks(let streaks):
            return ["games": texts(streaks.games), "plays": texts(streaks.plays),
                    "achievements": texts(streaks.achievements), "imports": texts(streaks.imports)]
        }
    }

    static func decode(_ file: UserFile, _ data: [UInt8]) -> (Part?, FileReport) {
        switch file {
        case .settings: let (v, r) = UserFileDecoder.settings(data, zoneNamed: fuzzZoneNamed); return (v.map(Part.settings), r)
        case .laundry: let (v, r) = UserFileDecoder.pets(data); return (v.map(Part.pets), r)
        case .alarms: let (v, r) = UserFileDecoder.alarms(data); return (v.map(Part.alarms), r)
        case .trips: let (v, r) = UserFileDecoder.trips(data, zoneNamed: fuzzZoneNamed); return (v.map(Part.trips), r)
        case .streaks: let (v, r) = UserFileDecoder.streaks(data); return (v.map(Part.streaks), r)
        }
    }
}

func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}

func checkPipeline(_ bytes: [UInt8]) {
    let file = whichFile(bytes)
    let data = bytes
    let name = file.fileName

    // The decoder.
    let (part, report) = Part.decode(file, data)
    require(report.file == file, "\(name): report names \(report.file)")
    require((part != nil) == report.isUsable, "\(name): value \(part != nil) with problems \(report.problems)")
    for problem in report.problems {
        require(problem.file == name && !problem.message.isEmpty && problem.description.hasPrefix(name),
                "\(name): problem does not name the file: \(problem)")
    }
    do {
        _ = try JSONParser.parse(data)
        for problem in report.problems {
            if case .position = problem.place { fatalError("\(name): syntax problem for a document that parses") }
        }
    } catch let error as JSONSyntaxError {
        let expected = DataProblem(file: name, place: .position(line: error.line, column: error.column),
                                   message: error.message)
        require(report.problems == [expected], "\(name): decoder says \(report.problems) for \(error)")
    } catch {
        fatalError("\(name): parser threw \(error)")
    }

    // The loader, with and without a last good version.
    var current = examples
    current[file] = data
    for lastGood: UserFileMap<[UInt8]> in [[file: examples[file] ?? []], [:]] {
        let loaded = HouseholdLoader.load(current: current, lastGood: lastGood, zoneNamed: fuzzZoneNamed)
        require(loaded.reports.map(\.file) == UserFile.allCases, "\(name): reports \(loaded.reports.map(\.file))")
        for other in UserFile.allCases where other != file {
            require(Part(loaded.household, other) == Part(exampleHousehold, other),
                    "\(name): the valid \(other.fileName) changed in the household")
        }
        let actual = Part(loaded.household, file)
        if report.isValid {
            require(actual == part, "\(name): valid file not applied as decoded")
            require(loaded.valid.contains(file) && !loaded.fallbacks.contains(file), "\(name): valid/fallback lists")
        } else if report.isUsable, let part {
            let planned = actual.entries, written = part.entries
            let saved = lastGood.isEmpty ? [:] : Part(exampleHousehold, file).entries
            for (list, entries) in written {
                require(entries.allSatisfy { planned[list]?.contains($0) == true },
                        "\(name): a valid entry of \(list) does not plan as written")
            }
            for (list, entries) in planned {
                require(entries.allSatisfy { written[list]?.contains($0) == true || saved[list]?.contains($0) == true },
                        "\(name): \(list) plans an entry that neither the file nor its last good version holds")
            }
            require(!loaded.valid.contains(file) && !loaded.fallbacks.contains(file), "\(name): valid/fallback lists")
        } else {
            let expected = lastGood.isEmpty ? Part(Household(), file) : Part(exampleHousehold, file)
            require(actual == expected, "\(name): invalid file partially applied (last good: \(!lastGood.isEmpty))")
            require(!loaded.valid.contains(file), "\(name): invalid file listed as valid")
            require(loaded.fallbacks.contains(file) == !lastGood.isEmpty, "\(name): fallbacks \(loaded.fallbacks)")
        }
        if file == .settings {
            let oracle = SettingsOracle(zoneNamed: fuzzZoneNamed)
            let reading = (try? JSONParser.parse(data)).flatMap(oracle.read)
            require((reading != nil) == report.isUsable, "\(name): usable \(report.isUsable), but docs/files.md reads "
                + (reading == nil ? "nothing" : "settings") + " in it")
            let example = lastGood.isEmpty ? nil : (try? JSONParser.parse(examples[file] ?? [])).flatMap(oracle.read)
            require(loaded.household.settings == oracle.expected(current: reading, lastGood: example),
                    "\(name): a setting is neither as written, nor as its last good copy has it, nor its default")
        }
        // The example household (an invalid file falling back to the example) was planned once already.
        if !lastGood.isEmpty, loaded.household != exampleHousehold || !examplePlanned {
            checkPlans(loaded.household, name: name)
            if loaded.household == exampleHousehold { examplePlanned = true }
        }
    }
}

func checkPlans(_ household: Household, name: String) {
    let zone = household.settings.timeZone.flatMap(fuzzZoneNamed) ?? fuzzBerlin
    var delivered = Set(exampleRun.deliveries.map(\.notification.id))
    let first = Planner.plan(household, previous: exampleRun.state, now: fuzzNow, zone: zone)
    checkPlan(first, household: household, now: fuzzNow, delivered: &delivered, name: name)
    guard let saved = try? RunState.decode(first.state.fileContent) else {
        fatalError("\(name): state.json does not read back")
    }
    require(saved == first.state, "\(name): state.json reads back different")
    let later = fuzzNow.addingTimeInterval(3600)
    let second = Planner.plan(household, previous: saved, now: later, zone: zone)
    checkPlan(second, household: household, now: later, delivered: &delivered, name: name)
}

func checkPlan(_ result: PlanResult, household: Household, now: Date, delivered: inout Set<String>, name: String) {
    let plan = result.plan
    let maxPending = household.settings.maxPending
    let pending = plan.pending
    require(zip(pending, pending.dropFirst()).allSatisfy { ($0.fireAt, $0.id) < ($1.fireAt, $1.id) },
            "\(name): pending not sorted")
    require(pending.count <= maxPending, "\(name): \(pending.count) pending > maxPending \(maxPending)")
    require(pending.allSatisfy { $0.fireAt > now }, "\(name): pending not after now")
    let planned = pending.map { ($0.id, $0.kind.family + "/" + $0.source) }
        + plan.deferred.map { ($0.id, $0.kind.family + "/" + $0.source) }
    require(Set(planned.map(\.0)).count == planned.count, "\(name): id planned twice")
    require(Set(planned.map(\.1)).count == planned.count, "\(name): two occurrences of one source planned")
    for delivery in result.deliveries {
        let id = delivery.notification.id
        require(delivered.insert(id).inserted, "\(name): \(id) delivered twice")
        require(delivery.notification.fireAt <= now, "\(name): \(id) delivered before due")
    }
    guard case .success(let again) = Plan.decode(plan.fileContent) else { fatalError("\(name): plan.json unreadable") }
    require(again.pending.map(\.id) == pending.map(\.id), "\(name): plan.json reads back different")
}
