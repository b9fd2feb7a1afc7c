import Foundation
import XCTest
@testable import NudgeCore

/// Deterministic mutation fuzzing of the whole pipeline, in process (docs/files.md, "Mistakes in your files").
///
/// The example files of `data/` (settings.json with a `quietHours` and a `deliver` added: the example has neither,
/// and a setting the fuzzer never sees is one it never breaks) are mutated — byte flips, byte insertions and
/// deletions, truncation at every kind of position, duplicated spans, spliced bytes of other files, JSON tokens
/// (`{ } [ ] , : "`, `null`, `true`, `1e400`, `-0`, `"\u0000"`, `"\ud800"`, deep nesting, BOMs, CR/CRLF…),
/// swapped/copied/replaced values, renamed, removed and duplicated members — and, in one case out of three,
/// "semantic" mutations that keep the file valid but change its meaning (in-range minutes, `HH:MM` times, instants
/// near `now` in various offsets, weekday subsets, DST and odd zones, toggled booleans), so that the planner sees
/// many different households; a semantic mutant of settings.json also has one to three settings broken.
/// Every mutant goes through `JSONParser.parse`, its `UserFileDecoder`, `HouseholdLoader.load` (mutant + the four
/// other example files, with no / the example / a broken last good version) and two runs of `Planner.plan` (at a
/// fixed `now`, 2026-11-21T10:50:00Z, after a run at now − 1 h or as the first run ever; then from that run's
/// state.json read back, at now + 1 h), in the zone the settings name (Europe/Berlin when they name none).
///
/// Invariants:
/// - nothing traps (a trap kills the test process: the case being run is in `NUDGE_FUZZ_LAST_CASE` if set);
/// - the parser throws only `JSONSyntaxError`; line ≥ 1 and ≤ LF count + 1, column ≥ 1, and exact: the place
///   line:column names holds what the message says was found there ("end of input" at the end, `found 'x'` on x…);
/// - a document that parses round-trips: parse → prettyText / compactText → parse is equal; pretty is idempotent;
/// - every problem names the file; a syntax error is reported by the decoder at exactly the parser's line:column;
///   a value exactly when there is no problem;
/// - all or nothing: a valid file's household part is what its decoder returned; an invalid file's part is its
///   last good version's, or empty when there is none (or it is broken too); the other files' parts are untouched;
/// - settings stand alone, by `SettingsOracle`'s own reading of docs/files.md, not nudge's decoder: each setting
///   as the mutant writes it when valid, else as the last good copy has it, else at its default; the same
///   settings named invalid, and the file usable exactly when the oracle reads settings in it;
/// - plans: `pending` sorted by (fireAt, id), unique, after now, at most `maxPending`, one per source, `deferred`
///   only when the budget is full; deliveries due, unexpired, in order, never an id twice across the runs;
///   plan.json, state.json and outbox lines read back; the same household planned twice gives the same bytes;
/// The time per case is reported, not asserted: speed is the bench's job.
/// Planning is pure, so a household already planned (the example, or the example with one part emptied: what
/// invalid files fall back to) reuses its checked result.
///
/// Environment:
/// - `NUDGE_FUZZ_ITERATIONS` (default 3000) mutants, round-robin over the five files;
/// - `NUDGE_FUZZ_SEED` (decimal or 0x hex) and `NUDGE_FUZZ_START` (first iteration) for shards;
/// - `NUDGE_FUZZ_ONLY=N` replays iteration N alone (with the same seed) — a failure prints seed and iteration;
/// - `NUDGE_FUZZ_LAST_CASE=path` rewrites `path` with each case before running it (to name the input of a trap);
/// - `NUDGE_FUZZ_ARTIFACTS=dir` writes each failing input there as a file;
/// - `NUDGE_FUZZ_VERBOSE` lists the slowest cases.
/// `scripts/fuzz.sh` runs the long variant (200,000 mutants, release) and the libFuzzer harnesses in `Fuzz/`.
final class MutationFuzzTests: XCTestCase {
    // MARK: - Tests

    func testMutatedFilesThroughWholePipeline() throws {
        let config = FuzzConfiguration.fromEnvironment()
        let fuzzer = try PipelineFuzzer()
        var stats = FuzzStats()
        let iterations: ClosedRange<Int> = config.only.map { $0...$0 }
            ?? config.start...(config.start + max(config.iterations, 1) - 1)
        let wallStart = DispatchTime.now().uptimeNanoseconds
        for iteration in iterations {
            let file = UserFile.allCases[iteration % UserFile.allCases.count]
            var rng = SplitMix64(seed: config.seed, stream: UInt64(iteration))
            let mutant = fuzzer.mutate(file, rng: &rng)
            let scenario = FuzzScenario(rng: &rng)
            let label = "seed=\(config.hexSeed) iteration=\(iteration) file=\(file.fileName) "
                + "scenario=\(scenario) mutations=\(mutant.steps.joined(separator: "; "))"
            config.recordLastCase(label, mutant.bytes)
            let failures = fuzzer.run(file, mutant.bytes, scenario, label: label, stats: &stats)
            stats.cases += 1
            stats.operations += mutant.steps.count
            report(failures, label: label, bytes: mutant.bytes, config: config)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        print(stats.summary(title: "MutationFuzzTests: \(stats.cases) mutants (seed \(config.hexSeed), "
            + "iterations \(iterations.lowerBound)...\(iterations.upperBound))", seconds: seconds))
    }

    /// Every prefix (and every fourth suffix) of every example file through the parser and the decoder, and one prefix of
    /// each kind of cut position (inside a key, a value string, an escape, a number, a literal, after each
    /// structural character, in whitespace) through the whole pipeline.
    func testTruncationAtEveryOffset() throws {
        let config = FuzzConfiguration.fromEnvironment()
        let fuzzer = try PipelineFuzzer()
        var stats = FuzzStats()
        var cuts = 0
        for file in UserFile.allCases {
            let original = fuzzer.originals[file] ?? []
            for cut in 0...original.count {
                var variants = [("prefix", Array(original[..<cut]))]
                if cut % 4 == 0 { variants.append(("suffix", Array(original[cut...]))) }
                for (what, bytes) in variants {
                    let label = "file=\(file.fileName) \(what) cut at \(cut)"
                    report(fuzzer.checkParserAndDecoder(file, bytes, stats: &stats), label: label, bytes: bytes,
                           config: config)
                    cuts += 1
                }
            }
            let fileIndex = UserFile.allCases.firstIndex(of: file) ?? 0
            var rng = SplitMix64(seed: config.seed, stream: 0xC07_0000 &+ UInt64(fileIndex))
            for (kind, offsets) in CutPositions.classify(original).sorted(by: { $0.key < $1.key }) {
                let cut = offsets[rng.below(offsets.count)]
                let bytes = Array(original[..<cut])
                let scenario = FuzzScenario(rng: &rng)
                let label = "file=\(file.fileName) truncated at \(cut) (\(kind)) scenario=\(scenario)"
                config.recordLastCase(label, bytes)
                report(fuzzer.run(file, bytes, scenario, label: label, stats: &stats), label: label, bytes: bytes,
                       config: config)
                stats.cases += 1
            }
        }
        print("MutationFuzzTests: \(cuts) prefixes/suffixes parsed and decoded; \(stats.cases) truncations, one per "
            + "kind of position, through the whole pipeline; max \(String(format: "%.4f", stats.maxCaseSeconds)) s")
    }

    /// Inputs kept because they once broke something or are hostile on purpose (deep nesting, huge strings,
    /// big but valid files); each runs through the whole pipeline as every user file. Add reproducers here.
    func testRegressionAndHostileInputs() throws {
        let config = FuzzConfiguration.fromEnvironment()
        let fuzzer = try PipelineFuzzer()
        var stats = FuzzStats()
        for (name, bytes, files) in RegressionInputs.all {
            for file in files {
                for scenario in [FuzzScenario(previousRun: true, lastGood: .original),
                                 FuzzScenario(previousRun: false, lastGood: .missing)] {
                    let label = "regression \(name) as \(file.fileName) scenario=\(scenario)"
                    config.recordLastCase(label, bytes)
                    let before = stats.maxCaseSeconds
                    stats.maxCaseSeconds = 0
                    report(fuzzer.run(file, bytes, scenario, label: label, stats: &stats), label: label,
                           bytes: bytes, config: config)
                    if ProcessInfo.processInfo.environment["NUDGE_FUZZ_VERBOSE"] != nil {
                        print("  \(String(format: "%.4f", stats.maxCaseSeconds)) s  \(label)")
                    }
                    if before > stats.maxCaseSeconds { stats.maxCaseSeconds = before }
                    stats.cases += 1
                }
            }
        }
        print(stats.summary(title: "MutationFuzzTests: \(stats.cases) regression/hostile cases", seconds: nil))
    }

    /// Each top-level setting of the example broken alone — by a mistake inside it and by the wrong type — in each
    /// last good scenario, through the whole pipeline: a few hundred random mutants break a given setting only a
    /// few times, so this names each once (the settings oracle says what it must become).
    func testEachSettingBrokenAloneFallsBackAlone() throws {
        let config = FuzzConfiguration.fromEnvironment()
        let fuzzer = try PipelineFuzzer()
        let example = try JSONParser.parse(fuzzer.originals[.settings] ?? [])
        var stats = FuzzStats()
        let inside: [(String, JSONValue)] = [
            ("timeZone", .string("Europe/Berln")), ("maxPending", .number("0")),
            ("notifications", .object([JSONMember("sound", .string("yes"))])),
            ("quietHours", .object([JSONMember("start", .string("22:00")), JSONMember("end", .string("7"))])),
            ("deliver", .object([JSONMember("desktop", .bool(false)),
                                 JSONMember("command", .array([.string(""), .string("{title}")]))])),
            ("deliver", .object([JSONMember("desktop", .string("yes")),
                                 JSONMember("command", .array([.string("notify-send"), .string("{body}")]))])),
            ("laundry", .object([JSONMember("foldReminderMinutes", .number("0"))])),
            ("commute", .object([JSONMember("defaultBufferMinutes", .number("721"))])),
            ("personalized", .object([JSONMember("enabled", .bool(true)), JSONMember("time", .string("06:45"))])),
            ("alarms", .object([JSONMember("snoozeMinutes", .number("1.5"))])),
            ("streaks", .object([JSONMember("milestones", .array([.number("7"), .number("0")]))])),
            ("prayerTimes", .object([JSONMember("latitude", .number("91")), JSONMember("longitude", .number("13"))])),
        ]
        let wrongType = SettingsOracle.keys.map { ($0, $0 == "timeZone" ? JSONValue.number("1") : .string("on")) }
        for (key, value) in inside + wrongType {
            let bytes = Array(example.setting(key, to: value).prettyText.utf8)
            for lastGood in [FuzzScenario.LastGood.original, .missing, .broken] {
                let scenario = FuzzScenario(previousRun: true, lastGood: lastGood)
                let label = "settings.json with \(key) \(value.compactText) scenario=\(scenario)"
                config.recordLastCase(label, bytes)
                report(fuzzer.run(.settings, bytes, scenario, label: label, stats: &stats), label: label, bytes: bytes,
                       config: config)
                stats.cases += 1
            }
        }
        XCTAssertEqual(stats.invalidFiles, stats.cases, "each case breaks a setting")
        print(stats.summary(title: "MutationFuzzTests: \(stats.cases) settings broken alone", seconds: nil))
    }

    /// The checkers themselves: each must notice a broken invariant, or the fuzzer would pass vacuously.
    func testCheckersCatchBrokenInvariants() throws {
        let fuzzer = try PipelineFuzzer()
        var failures: [String] = []

        // Syntax error positions: the real one passes, a shifted or impossible one does not.
        let input = Array("{\n  \"é\": 1, \"b\" 2\n}".utf8)  // the error is at column 15, byte 16 of line 2
        guard case .syntax(let error) = fuzzer.checkParse(input, failures: &failures) else {
            return XCTFail("expected a syntax error")
        }
        XCTAssertEqual([error.line, error.column], [2, 15], error.description)
        XCTAssertEqual(failures, [])
        for wrong in [JSONSyntaxError(line: 2, column: 14, message: error.message),
                      JSONSyntaxError(line: 2, column: 16, message: error.message),
                      JSONSyntaxError(line: 1, column: 15, message: error.message),
                      JSONSyntaxError(line: 9, column: 1, message: error.message),
                      JSONSyntaxError(line: 1, column: 0, message: error.message),
                      JSONSyntaxError(line: 2, column: 15, message: "unexpected end of input; expected ':'")] {
            var caught: [String] = []
            fuzzer.checkPosition(wrong, in: input, failures: &caught)
            XCTAssertFalse(caught.isEmpty, "not caught: \(wrong)")
        }

        // All-or-nothing application.
        let originals = fuzzer.originals
        let (decoded, report) = HouseholdPart.decode(.alarms, originals[.alarms] ?? [])
        var torn = HouseholdLoader.load(current: UserFileMap(originals), zoneNamed: Fixtures.zoneNamed)
        torn.household.alarms.removeLast()
        var stats = FuzzStats()
        var caught: [String] = []
        fuzzer.checkLoaded(torn, file: .alarms, decoded: decoded, report: report,
                           scenario: FuzzScenario(previousRun: true, lastGood: .missing), failures: &caught, stats: &stats)
        XCTAssertFalse(caught.isEmpty, "a valid file applied in part is not caught")
        let invalid = FileReport(file: .alarms, problems: [DataProblem(file: "alarms.json", place: .file, message: "x")])
        caught = []
        fuzzer.checkLoaded(HouseholdLoader.load(current: UserFileMap(originals), zoneNamed: Fixtures.zoneNamed),
                           file: .alarms, decoded: nil, report: invalid,
                           scenario: FuzzScenario(previousRun: true, lastGood: .missing), failures: &caught, stats: &stats)
        XCTAssertFalse(caught.isEmpty, "an invalid file applied without a last good version is not caught")
        XCTAssertEqual(stats.partialApplications, 2)

        // Settings standing alone: a broken `deliver` that lost its last good command.
        let brokenDeliver = Array(#"{ "deliver": { "desktop": true, "command": [""] }, "maxPending": 9 }"#.utf8)
        let (_, deliverReport) = HouseholdPart.decode(.settings, brokenDeliver)
        var settings = HouseholdLoader.load(current: [.settings: brokenDeliver],
                                            lastGood: [.settings: originals[.settings] ?? []],
                                            zoneNamed: Fixtures.zoneNamed).household.settings
        let lastGood = FuzzScenario(previousRun: true, lastGood: .original)
        caught = []
        fuzzer.checkSettings(settings, bytes: brokenDeliver, report: deliverReport, scenario: lastGood,
                             failures: &caught, stats: &stats)
        XCTAssertEqual(caught, [])
        XCTAssertEqual(settings.deliverCommand, ["notify-send", "--app-name=nudge", "{title}", "{body}"])
        settings.deliverCommand = nil
        fuzzer.checkSettings(settings, bytes: brokenDeliver, report: deliverReport, scenario: lastGood,
                             failures: &caught, stats: &stats)
        XCTAssertTrue(caught.contains { $0.contains("deliverCommand nil, expected Optional([\"notify-send\"") },
                      "a broken deliver that lost its last good command is not caught: \(caught)")

        // Plans: unsorted pending, a repeated delivery.
        var result = Planner.plan(fuzzer.baseline, previous: fuzzer.baseRun.state, now: fuzzer.now.addingTimeInterval(3600),
                                  zone: fuzzer.berlin)
        XCTAssertGreaterThan(result.plan.pending.count, 1)
        XCTAssertFalse(result.deliveries.isEmpty)
        var delivered = Set<String>()
        caught = []
        fuzzer.checkPlan(result, household: fuzzer.baseline, now: fuzzer.now.addingTimeInterval(3600), run: "real",
                         delivered: &delivered, failures: &caught)
        XCTAssertEqual(caught, [])
        result.plan.pending.reverse()
        caught = []
        fuzzer.checkPlan(result, household: fuzzer.baseline, now: fuzzer.now.addingTimeInterval(3600), run: "again",
                         delivered: &delivered, failures: &caught)
        XCTAssertTrue(caught.contains { $0.contains("not strictly sorted") }, "\(caught)")
        XCTAssertTrue(caught.contains { $0.contains("delivered twice") }, "\(caught)")
    }

    /// Fails the test once per broken invariant, with everything needed to replay the case.
    private func report(_ failures: [String], label: String, bytes: [UInt8], config: FuzzConfiguration) {
        guard !failures.isEmpty else { return }
        config.saveArtifact(label, bytes)
        let input = bytes.count <= 4096
            ? SwiftLiteral.of(bytes)
            : "(\(bytes.count) bytes; replay with NUDGE_FUZZ_SEED/NUDGE_FUZZ_ONLY) prefix: "
                + SwiftLiteral.of(Array(bytes.prefix(512)))
        for failure in failures.prefix(5) {
            XCTFail("\(label)\n  broken: \(failure)\n  input: \(input)")
        }
    }
}

// MARK: - Configuration and statistics

struct FuzzConfiguration {
    var iterations = 3000
    var seed: UInt64 = 0x6E75_6467_6546_757A  // "nudgeFuz"
    var start = 0
    var only: Int?
    var lastCaseFile: String?
    var artifactDirectory: String?

    var hexSeed: String { "0x" + String(seed, radix: 16) }

    static func fromEnvironment() -> FuzzConfiguration {
        let environment = ProcessInfo.processInfo.environment
        var config = FuzzConfiguration()
        if let text = environment["NUDGE_FUZZ_ITERATIONS"], let value = Int(text), value > 0 { config.iterations = value }
        if let text = environment["NUDGE_FUZZ_SEED"] {
            let seed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            if let seed { config.seed = seed }
        }
        if let text = environment["NUDGE_FUZZ_START"], let value = Int(text), value >= 0 { config.start = value }
        if let text = environment["NUDGE_FUZZ_ONLY"], let value = Int(text), value >= 0 { config.only = value }
        config.lastCaseFile = environment["NUDGE_FUZZ_LAST_CASE"].flatMap { $0.isEmpty ? nil : $0 }
        config.artifactDirectory = environment["NUDGE_FUZZ_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
        return config
    }

    /// Written before a case runs, so the input of a trap (which kills the process) is not lost.
    func recordLastCase(_ label: String, _ bytes: [UInt8]) {
        guard let path = lastCaseFile else { return }
        let text = label + "\n" + SwiftLiteral.of(bytes) + "\n"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func saveArtifact(_ label: String, _ bytes: [UInt8]) {
        guard let directory = artifactDirectory else { return }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let name = "failure-\(UInt64(truncatingIfNeeded: label.hashValue) & 0xFFFF_FFFF)"
        try? Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name + ".json"))
        try? Data((label + "\n").utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name + ".txt"))
    }
}

struct FuzzStats {
    var cases = 0
    var operations = 0
    var syntaxErrors = 0
    var parsed = 0
    var validFiles = 0
    var invalidFiles = 0
    var fallbacksUsed = 0
    var partialApplications = 0
    /// Entries left out of usable files, and the ids of such files checked to plan (docs/promises.md).
    var entriesSetAside = 0
    var siblingsChecked = 0
    var silencedSiblings = 0
    var memoHits = 0
    var deliveries = 0
    var pending = 0
    var maxCaseSeconds = 0.0
    var slowestCase = ""
    var caseTimes: [Double] = []
    /// Seconds spent in each phase, over all cases.
    var phaseSeconds: [String: Double] = [:]

    mutating func phase(_ name: String, since start: inout UInt64) {
        let end = DispatchTime.now().uptimeNanoseconds
        phaseSeconds[name, default: 0] += Double(end - start) / 1e9
        start = end
    }

    /// The slowest cases, slowest first.
    var slowest: [(seconds: Double, label: String)] = []

    mutating func time(_ seconds: Double, label: String) {
        caseTimes.append(seconds)
        if slowest.count < 5 || seconds > slowest[slowest.count - 1].seconds {
            slowest.append((seconds, label))
            slowest.sort { $0.seconds > $1.seconds }
            if slowest.count > 5 { slowest.removeLast() }
        }
        if seconds > maxCaseSeconds {
            maxCaseSeconds = seconds
            slowestCase = label
        }
    }

    func summary(title: String, seconds: Double?) -> String {
        let sorted = caseTimes.sorted()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        var lines = [title]
        lines.append("  mutation operations \(operations); syntax errors \(syntaxErrors); parsed \(parsed); "
            + "valid files \(validFiles); invalid files \(invalidFiles); fallbacks used \(fallbacksUsed)")
        lines.append("  entries set aside \(entriesSetAside); sibling ids checked \(siblingsChecked), silenced "
            + "\(silencedSiblings)")
        lines.append("  crashes 0 (the process is alive); partial/torn applications \(partialApplications); "
            + "deliveries \(deliveries); pending records \(pending); plans reused for a known household \(memoHits)")
        lines.append("  time per case: median \(String(format: "%.4f", percentile(0.5))) s, "
            + "p90 \(String(format: "%.4f", percentile(0.9))) s, "
            + "p99 \(String(format: "%.4f", percentile(0.99))) s, max \(String(format: "%.4f", maxCaseSeconds)) s "
            + "(\(slowestCase.prefix(200)))")
        lines.append("  phases: " + phaseSeconds.sorted { $0.key < $1.key }
            .map { "\($0.key) \(String(format: "%.2f", $0.value)) s" }.joined(separator: ", "))
        if ProcessInfo.processInfo.environment["NUDGE_FUZZ_VERBOSE"] != nil {
            for (seconds, label) in slowest { lines.append("  slow: \(String(format: "%.4f", seconds)) s \(label.prefix(300))") }
        }
        if let seconds { lines.append("  total \(String(format: "%.2f", seconds)) s") }
        return lines.joined(separator: "\n")
    }
}

/// How one case is run: with the state of a previous run or as the first run ever, and with which last good
/// version of the mutated file.
struct FuzzScenario: CustomStringConvertible {
    enum LastGood: String { case missing, original, broken }
    var previousRun: Bool
    var lastGood: LastGood

    init(previousRun: Bool, lastGood: LastGood) {
        self.previousRun = previousRun
        self.lastGood = lastGood
    }

    init(rng: inout SplitMix64) {
        previousRun = rng.below(5) != 0
        lastGood = [LastGood.missing, .original, .original, .broken][rng.below(4)]
    }

    var description: String { "\(previousRun ? "after-a-run" : "first-run")/last-good-\(lastGood.rawValue)" }
}

// MARK: - PRNG

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same sequence on every machine.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// An independent stream per iteration, so any iteration can be replayed alone.
    init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next() ^ stream
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next() % UInt64(bound))
    }

    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool { below(denominator) < numerator }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

// MARK: - The pipeline and its invariants

final class PipelineFuzzer {
    let originals: [UserFile: [UInt8]]
    let baseline: Household
    let berlin: Zone
    let now: Date
    let baseRun: PlanResult
    let keys: [String]
    let settingsOracle = SettingsOracle(zoneNamed: Fixtures.zoneNamed)
    /// The oracle's reading of the settings.json every mutant of it is made from: its last good copy.
    let originalSettings: SettingsOracle.Reading?

    /// What the example settings.json lacks, so that mutants reach every top-level setting.
    static let addedSettings = [
        JSONMember("quietHours", .object([JSONMember("start", .string("22:30")), JSONMember("end", .string("06:00"))])),
        JSONMember("deliver", .object([JSONMember("desktop", .bool(true)), JSONMember("command", .array(
            ["notify-send", "--app-name=nudge", "{title}", "{body}"].map(JSONValue.string)))])),
    ]

    init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var originals: [UserFile: [UInt8]] = [:]
        for file in UserFile.allCases {
            let url = root.appendingPathComponent("data").appendingPathComponent(file.fileName)
            originals[file] = Array(try Data(contentsOf: url))
        }
        var settings = try JSONParser.parse(originals[.settings] ?? [])
        for member in Self.addedSettings { settings = settings.setting(member.key, to: member.value) }
        originals[.settings] = Array(settings.prettyText.utf8)
        originalSettings = settingsOracle.read(settings)
        XCTAssertEqual(SettingsOracle.keys, Settings.topLevelKeys.map(\.description), "the oracle knows every setting")
        XCTAssertEqual(originalSettings?.broken, [], "the oracle must read the example settings as valid")
        self.originals = originals
        let loaded = HouseholdLoader.load(current: UserFileMap(originals), zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.valid, UserFile.allCases, "the example files must be valid: \(loaded.problems)")
        baseline = loaded.household
        berlin = Fixtures.berlin
        // 2026-11-21T10:50:00Z: the example wash (10:30Z + 45 min) is under way; the next hour brings its
        // "Wash Complete!" and the noon prayer, so the second run delivers something.
        now = Date(timeIntervalSince1970: 1_795_258_200)
        baseRun = Planner.plan(baseline, previous: nil, now: now.addingTimeInterval(-3600), zone: berlin)
        var keys = Set<String>()
        for bytes in originals.values {
            if let value = try? JSONParser.parse(bytes) { JSONTree.collectKeys(value, into: &keys) }
        }
        self.keys = keys.sorted()
    }

    // MARK: Mutation

    struct Mutant {
        var bytes: [UInt8]
        var steps: [String]
    }

    func mutate(_ file: UserFile, rng: inout SplitMix64) -> Mutant {
        var bytes = originals[file] ?? []
        var steps: [String] = []
        if rng.below(3) == 0 {
            // Semantic: values changed but (mostly) still valid, so the planner gets a new household.
            var value = (try? JSONParser.parse(bytes)) ?? .object([])
            for _ in 0..<(1 + rng.below(6)) {
                let step = JSONTree.mutate(value, bytes: &bytes, rng: &rng, fuzzer: self, tweakOnly: rng.chance(4, in: 5))
                steps.append(step)
                value = (try? JSONParser.parse(bytes)) ?? value
            }
            if file == .settings {
                // One to three settings broken among valid ones: the case "settings stand alone" is about.
                for _ in 0..<(1 + rng.below(3)) {
                    steps.append(JSONTree.breakSetting(&value, rng: &rng))
                }
                bytes = Array((rng.chance(1, in: 2) ? value.prettyText : value.compactText).utf8)
            }
            return Mutant(bytes: bytes, steps: steps)
        }
        let count = [1, 1, 1, 1, 2, 2, 3, 4][rng.below(8)]
        for _ in 0..<count {
            steps.append(Mutator.apply(to: &bytes, rng: &rng, fuzzer: self, file: file))
        }
        return Mutant(bytes: bytes, steps: steps)
    }

    // MARK: Running one case

    /// Parser and decoder checks only (cheap): used for every prefix and suffix.
    func checkParserAndDecoder(_ file: UserFile, _ bytes: [UInt8], stats: inout FuzzStats) -> [String] {
        var failures: [String] = []
        let parse = checkParse(bytes, failures: &failures)
        _ = checkDecoder(file, bytes, parse: parse, failures: &failures)
        switch parse {
        case .syntax: stats.syntaxErrors += 1
        case .value: stats.parsed += 1
        case .other: break
        }
        return failures
    }

    func run(_ file: UserFile, _ bytes: [UInt8], _ scenario: FuzzScenario, label: String,
             stats: inout FuzzStats) -> [String] {
        let started = DispatchTime.now().uptimeNanoseconds
        var failures: [String] = []
        let data = bytes
        var mark = started

        // 1. The JSON reader.
        let parse = checkParse(bytes, failures: &failures)
        switch parse {
        case .syntax: stats.syntaxErrors += 1
        case .value: stats.parsed += 1
        case .other: break
        }
        stats.phase("1 parse", since: &mark)

        // 2. The file's decoder.
        let (decoded, report) = checkDecoder(file, data, parse: parse, failures: &failures)
        if report.isValid { stats.validFiles += 1 } else { stats.invalidFiles += 1 }
        stats.phase("2 decode", since: &mark)

        // 3. The loader: the mutant plus the other, valid files.
        var current = originals
        current[file] = data
        var lastGood: UserFileMap<[UInt8]> = [:]
        switch scenario.lastGood {
        case .missing: break
        case .original: lastGood[file] = originals[file] ?? []
        case .broken: lastGood[file] = Array("{\"".utf8)
        }
        let loaded = HouseholdLoader.load(current: UserFileMap(current), lastGood: lastGood,
                                          zoneNamed: Fixtures.zoneNamed)
        checkLoaded(loaded, file: file, decoded: decoded, report: report, scenario: scenario, bytes: data,
                    failures: &failures, stats: &stats)
        stats.phase("3 load", since: &mark)

        // 4. Two runs of the planner: at now, then from the saved state of that run an hour later. A household
        // seen before (the example, or the example with one part emptied: what invalid files fall back to) gives
        // the same result (planning is a pure function, checked below), so its result is reused.
        let household = loaded.household
        let zone = household.settings.timeZone.flatMap(Fixtures.zoneNamed) ?? berlin
        let common = commonHouseholds.firstIndex(of: household)
        let memoKey = common.map { MemoKey(household: $0, previousRun: scenario.previousRun, zone: zone.identifier) }
        if let memoKey, let memo = planMemo[memoKey] {
            failures += memo.failures
            stats.deliveries += memo.deliveries
            stats.pending += memo.pending
            stats.memoHits += 1
        } else {
            let outcome = planTwice(household, zone: zone, scenario: scenario, stats: &stats)
            failures += outcome.failures
            stats.deliveries += outcome.deliveries
            stats.pending += outcome.pending
            if let memoKey {
                // Same inputs, same result (byte-identical files).
                let again = Planner.plan(household, previous: scenario.previousRun ? baseRun.state : nil, now: now,
                                         zone: zone)
                if again.plan.fileContent != outcome.firstPlan.plan.fileContent
                    || again.state.fileContent != outcome.firstPlan.state.fileContent {
                    failures.append("planning the same household twice gave different plan.json / state.json")
                }
                planMemo[memoKey] = outcome
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        stats.time(seconds, label: label)
        return failures
    }

    struct MemoKey: Hashable {
        var household: Int
        var previousRun: Bool
        var zone: String
    }

    struct PlanOutcome {
        var failures: [String]
        var deliveries: Int
        var pending: Int
        var firstPlan: PlanResult
    }

    private var planMemo: [MemoKey: PlanOutcome] = [:]

    /// The households invalid files fall back to: the example, and the example with one file's part emptied.
    lazy var commonHouseholds: [Household] = {
        var households = [baseline]
        for file in UserFile.allCases {
            var household = baseline
            switch file {
            case .settings: household.settings = Settings()
            case .laundry: household.pets = []
            case .alarms: household.alarms = []
            case .trips: household.trips = []
            case .streaks: household.streaks = StreakData()
            }
            households.append(household)
        }
        return households
    }()

    func planTwice(_ household: Household, zone: Zone, scenario: FuzzScenario,
                   stats: inout FuzzStats) -> PlanOutcome {
        var failures: [String] = []
        var mark = DispatchTime.now().uptimeNanoseconds
        let previous = scenario.previousRun ? baseRun.state : nil
        var delivered = scenario.previousRun ? Set(baseRun.deliveries.map(\.notification.id)) : []
        let first = Planner.plan(household, previous: previous, now: now, zone: zone)
        stats.phase("4 plan", since: &mark)
        checkPlan(first, household: household, now: now, run: "first run", delivered: &delivered, failures: &failures)
        stats.phase("5 check plan", since: &mark)
        let saved: RunState
        do {
            let state = try RunState.decode(first.state.fileContent)
            saved = state
            // A queued delivery keeps what the desktop and the command show, not the planner's recurrence: the
            // queue reads back as the same bytes, the rest as the same value.
            var written = first.state
            written.channelQueue = state.channelQueue
            if state != written || state.fileContent != first.state.fileContent {
                failures.append("state.json does not read back as the state that was written")
            }
        } catch {
            saved = first.state
            failures.append("state.json written by the first run does not read back: \(error)")
        }
        stats.phase("6 state round trip", since: &mark)
        let later = now.addingTimeInterval(3600)
        let second = Planner.plan(household, previous: saved, now: later, zone: zone)
        stats.phase("4 plan", since: &mark)
        checkPlan(second, household: household, now: later, run: "second run", delivered: &delivered,
                  readBack: false, failures: &failures)
        stats.phase("5 check plan", since: &mark)
        return PlanOutcome(failures: failures, deliveries: first.deliveries.count + second.deliveries.count,
                           pending: first.plan.pending.count + second.plan.pending.count, firstPlan: first)
    }

    enum ParseOutcome {
        case value(JSONValue)
        case syntax(JSONSyntaxError)
        case other
    }

    func checkParse(_ bytes: [UInt8], failures: inout [String]) -> ParseOutcome {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch let error as JSONSyntaxError {
            checkPosition(error, in: bytes, failures: &failures)
            return .syntax(error)
        } catch {
            failures.append("JSONParser.parse threw \(type(of: error)) (\(error)), not JSONSyntaxError")
            return .other
        }
        let pretty = value.prettyText
        for (name, text) in [("prettyText", pretty), ("compactText", value.compactText)] {
            do {
                let again = try JSONParser.parse(Array(text.utf8))
                if again != value { failures.append("\(name) does not round-trip to an equal value") }
                if name == "prettyText", again.prettyText != pretty {
                    failures.append("prettyText → parse → prettyText changed the bytes")
                }
            } catch {
                failures.append("\(name) of a parsed document does not parse: \(error)")
            }
        }
        return .value(value)
    }

    func checkPosition(_ error: JSONSyntaxError, in bytes: [UInt8], failures: inout [String]) {
        let lineBreaks = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        if error.line < 1 || error.line > lineBreaks + 1 {
            failures.append("syntax error line \(error.line) outside 1...\(lineBreaks + 1): \(error)")
            return
        }
        var line = 1
        var lineLength = 0
        for byte in bytes {
            if byte == 0x0A {
                if line == error.line { break }
                line += 1
            } else if line == error.line {
                lineLength += 1
            }
        }
        if error.column < 1 || error.column > lineLength + 1 {
            failures.append("syntax error column \(error.column) outside 1...\(lineLength + 1) on line "
                + "\(error.line): \(error)")
        }
        if error.message.isEmpty { failures.append("syntax error without a message at \(error.line):\(error.column)") }
        // Exact: the place line:column names must hold what the message says was found there.
        if let offset = errorOffset(line: error.line, column: error.column, in: bytes) {
            if let mismatch = positionMismatch(error.message, at: offset, in: bytes) {
                failures.append("syntax error \(error): \(mismatch)")
            }
        } else {
            failures.append("syntax error \(error) names a line:column the input does not have")
        }
    }

    func checkDecoder(_ file: UserFile, _ data: [UInt8], parse: ParseOutcome,
                      failures: inout [String]) -> (HouseholdPart?, FileReport) {
        let (part, report) = HouseholdPart.decode(file, data)
        if report.file != file { failures.append("the decoder of \(file.fileName) reports as \(report.file.fileName)") }
        if (part != nil) != report.isUsable {
            failures.append("decoder returned \(part == nil ? "no value" : "a value") with \(report.problems.count) "
                + "problem(s), usable \(report.isUsable): \(report.problems)")
        }
        if report.isValid && !report.brokenEntries.isEmpty {
            failures.append("a valid \(file.fileName) sets entries aside: \(report.brokenEntries)")
        }
        for problem in report.problems where problem.file != file.fileName || problem.message.isEmpty
            || !problem.description.hasPrefix(file.fileName) {
            failures.append("problem does not name the file \(file.fileName) or says nothing: \(problem)")
        }
        switch parse {
        case .syntax(let error):
            let expected = DataProblem(file: file.fileName, place: .position(line: error.line, column: error.column),
                                       message: error.message)
            if report.problems != [expected] {
                failures.append("decoder reports \(report.problems) for the syntax error \(error)")
            }
        case .value:
            for problem in report.problems {
                if case .position = problem.place { failures.append("syntax problem for a document that parses: \(problem)") }
            }
        case .other:
            break
        }
        return (part, report)
    }

    func checkLoaded(_ loaded: HouseholdLoader.Loaded, file: UserFile, decoded: HouseholdPart?, report: FileReport,
                     scenario: FuzzScenario, bytes: [UInt8]? = nil, failures: inout [String], stats: inout FuzzStats) {
        if loaded.reports.map(\.file) != UserFile.allCases {
            failures.append("loader reports \(loaded.reports.map(\.file.fileName)), expected one per file in order")
        }
        if let mine = loaded.reports.first(where: { $0.file == file }), mine != report {
            failures.append("loader's report for \(file.fileName) differs from the decoder's: \(mine) vs \(report)")
        }
        // The one problem a file may cause in another (docs/files.md): a settings.json whose prayerTimes has no
        // place makes each alarm that follows a prayer an error of alarms.json.
        let placeMissing = file == .settings
            && !(loaded.household.settings.prayerTimes ?? PrayerSettings()).missingKeys.isEmpty
        for problem in loaded.problems where problem.file != file.fileName {
            if placeMissing, problem.file == UserFile.alarms.fileName, problem.message.hasPrefix("follows a prayer") {
                continue
            }
            failures.append("problem attributed to a valid file: \(problem)")
        }
        for other in UserFile.allCases where other != file {
            if HouseholdPart(loaded.household, other) != HouseholdPart(baseline, other) {
                failures.append("\(other.fileName) (valid, untouched) changed in the household")
                stats.partialApplications += 1
            }
            if !loaded.valid.contains(other), !(placeMissing && other == .alarms) {
                failures.append("\(other.fileName) is no longer listed as valid")
            }
        }
        let actual = HouseholdPart(loaded.household, file)
        if file == .settings, let bytes {
            checkSettings(loaded.household.settings, bytes: bytes, report: report, scenario: scenario,
                          failures: &failures, stats: &stats)
        }
        if report.isValid {
            if let decoded, actual != decoded {
                failures.append("valid \(file.fileName) is not applied as decoded")
                stats.partialApplications += 1
            }
            if !loaded.valid.contains(file) { failures.append("valid \(file.fileName) not in `valid`") }
            if loaded.fallbacks.contains(file) { failures.append("valid \(file.fileName) listed as a fallback") }
        } else if report.isUsable, let decoded {
            stats.entriesSetAside += report.brokenEntries.count + report.brokenSettings.count
            checkEntriesStandAlone(actual, decoded: decoded, file: file, scenario: scenario, bytes: bytes,
                                   failures: &failures, stats: &stats)
            if loaded.valid.contains(file) { failures.append("invalid \(file.fileName) listed as valid") }
            if loaded.fallbacks.contains(file) { failures.append("usable \(file.fileName) fell back whole") }
        } else {
            let expected = scenario.lastGood == .original ? HouseholdPart(baseline, file) : HouseholdPart(Household(), file)
            if actual != expected {
                failures.append("invalid \(file.fileName) partially applied: its household part is neither the "
                    + "last good version nor empty (scenario \(scenario))")
                stats.partialApplications += 1
            }
            if loaded.valid.contains(file) { failures.append("invalid \(file.fileName) listed as valid") }
            if loaded.fallbacks.contains(file) != (scenario.lastGood == .original) {
                failures.append("fallbacks \(loaded.fallbacks) for scenario \(scenario)")
            }
            if scenario.lastGood == .original { stats.fallbacksUsed += 1 }
        }
    }

    /// Settings stand alone (docs/promises.md), as `SettingsOracle` reads the mutant and its last good copy from
    /// their JSON: what the household plans with, which settings are invalid, and whether any of the file stands.
    func checkSettings(_ planned: Settings, bytes: [UInt8], report: FileReport, scenario: FuzzScenario,
                       failures: inout [String], stats: inout FuzzStats) {
        let current = (try? JSONParser.parse(bytes)).flatMap(settingsOracle.read)
        if (current != nil) != report.isUsable {
            failures.append("settings.json is \(report.isUsable ? "usable" : "unusable") (\(report.problems)), but "
                + "docs/files.md reads \(current == nil ? "nothing" : "settings") in it")
        }
        if let current, report.isUsable, Set(current.broken) != Set(report.brokenSettings.map(\.rawValue)) {
            failures.append("settings.json's invalid settings are \(report.brokenSettings), by docs/files.md "
                + "\(current.broken) (\(report.problems))")
        }
        let expected = settingsOracle.expected(current: current,
                                               lastGood: scenario.lastGood == .original ? originalSettings : nil)
        if planned != expected {
            failures.append("settings.json plans settings that are neither as written, nor as its last good copy "
                + "has them, nor the defaults (scenario \(scenario)): \(Self.differences(planned, expected))")
            stats.partialApplications += 1
        }
    }

    /// The fields in which `planned` differs from `expected`, each with both values.
    static func differences(_ planned: Settings, _ expected: Settings) -> String {
        zip(Mirror(reflecting: planned).children, Mirror(reflecting: expected).children)
            .filter { String(describing: $0.value) != String(describing: $1.value) }
            .map { "\($0.label ?? "?") \($0.value), expected \($1.value)" }.joined(separator: "; ")
    }

    /// A file whose problems all lie in entries (docs/promises.md): every valid entry plans as written; every id the
    /// file still names that its last good version had plans (as written, or from that version): a mistake in
    /// one entry never silences a sibling; nothing plans that neither the file nor its last good version holds.
    /// The ids the file names are read from the parsed document, not through nudge's decoder, by their exact keys:
    /// Foundation's JSONSerialization drops the U+FEFF of a key `"\u{FEFF}id"` and reads it as `id`.
    func checkEntriesStandAlone(_ actual: HouseholdPart, decoded: HouseholdPart, file: UserFile,
                                scenario: FuzzScenario, bytes: [UInt8]?, failures: inout [String],
                                stats: inout FuzzStats) {
        let planned = actual.entryLists, written = decoded.entryLists
        let saved = scenario.lastGood == .original ? HouseholdPart(baseline, file).entryLists : [:]
        for (list, entries) in written {
            for entry in entries where !(planned[list] ?? []).contains(entry) {
                failures.append("a valid entry of \(file.fileName)'s \(list) does not plan as written: \(entry)")
                stats.partialApplications += 1
            }
        }
        for (list, entries) in planned {
            for entry in entries where !(written[list] ?? []).contains(entry) && !(saved[list] ?? []).contains(entry) {
                failures.append("\(file.fileName)'s \(list) plans an entry that neither the file nor its last good "
                    + "version holds: \(entry)")
            }
        }
        guard let bytes, case .object(let lists)? = try? JSONParser.parse(bytes) else { return }
        func member(_ key: String, of members: [JSONMember]) -> JSONValue? {
            members.first { Array($0.key.utf8) == Array(key.utf8) }?.value
        }
        for (list, savedEntries) in saved {
            guard case .array(let elements)? = member(list, of: lists) else { continue }
            let named = Set(elements.compactMap { element -> String? in
                guard case .object(let fields) = element, case .string(let id)? = member("id", of: fields) else {
                    return nil
                }
                return id
            })
            let plannedIDs = Set((planned[list] ?? []).compactMap(\.id))
            for id in Set(savedEntries.compactMap(\.id)).intersection(named) where !plannedIDs.contains(id) {
                failures.append("\(file.fileName) still names \(list) id \"\(id)\", valid before the mutation, "
                    + "and it does not plan: a mistake silenced a sibling")
                stats.silencedSiblings += 1
            }
            stats.siblingsChecked += named.count
        }
    }

    func checkPlan(_ result: PlanResult, household: Household, now: Date, run: String, delivered: inout Set<String>,
                   readBack: Bool = true, failures: inout [String]) {
        let plan = result.plan
        let maxPending = household.settings.maxPending
        func ordered(_ records: [(fireAt: Date, id: String)]) -> Bool {
            zip(records, records.dropFirst()).allSatisfy { ($0.fireAt, $0.id) < ($1.fireAt, $1.id) }
        }
        func weaklyOrdered(_ records: [NudgeCore.Notification]) -> Bool {
            zip(records, records.dropFirst()).allSatisfy { ($0.fireAt, $0.id) <= ($1.fireAt, $1.id) }
        }
        if !ordered(plan.pending.map { ($0.fireAt, $0.id) }) { failures.append("\(run): pending not strictly sorted by (fireAt, id)") }
        if !ordered(plan.deferred.map { ($0.fireAt, $0.id) }) { failures.append("\(run): deferred not strictly sorted by (fireAt, id)") }
        if plan.pending.count > maxPending {
            failures.append("\(run): \(plan.pending.count) pending > maxPending \(maxPending)")
        }
        if plan.budget.pending != plan.pending.count || plan.budget.limit != maxPending {
            failures.append("\(run): budget \(plan.budget) does not match \(plan.pending.count)/\(maxPending)")
        }
        if !plan.deferred.isEmpty && plan.pending.count < maxPending {
            failures.append("\(run): records deferred while the budget has room")
        }
        if let early = plan.pending.first(where: { $0.fireAt <= now }) {
            failures.append("\(run): pending \(early.id) is not after now")
        }
        let planned = plan.pending.map { ($0.id, $0.kind.family, $0.source) }
            + plan.deferred.map { ($0.id, $0.kind.family, $0.source) }
        if Set(planned.map(\.0)).count != planned.count { failures.append("\(run): an id planned twice") }
        if Set(planned.map { $0.1 + "/" + $0.2 }).count != planned.count {
            failures.append("\(run): two future occurrences of one source planned (not just-in-time)")
        }
        // The next wake is after now and no later than any record's fireAt, pending or deferred.
        if let wake = plan.nextWakeAt, wake <= now { failures.append("\(run): nextWakeAt is not after now") }
        if let first = (plan.pending.map(\.fireAt) + plan.deferred.map(\.fireAt)).min(),
           plan.nextWakeAt.map({ $0 > first }) ?? true {
            failures.append("\(run): nextWakeAt is later than the first fireAt")
        }
        for record in plan.pending + result.deliveries.map(\.notification) where record.expiresAt < record.fireAt {
            failures.append("\(run): \(record.id) expires before it fires")
        }
        for delivery in result.deliveries {
            let id = delivery.notification.id
            if !delivered.insert(id).inserted { failures.append("\(run): \(id) delivered twice") }
            if delivery.notification.fireAt > now { failures.append("\(run): \(id) delivered before it is due") }
            if delivery.notification.expiresAt < now { failures.append("\(run): \(id) delivered after it expired") }
            if planned.contains(where: { $0.0 == id }) { failures.append("\(run): \(id) delivered and still planned") }
            let line = delivery.outboxLine
            if let value = try? JSONParser.parse(Array(line.utf8)) {
                if Delivery(record: value)?.notification.id != id {
                    failures.append("\(run): outbox line of \(id) does not read back")
                }
            } else {
                failures.append("\(run): outbox line of \(id) is not JSON: \(line)")
            }
        }
        if !weaklyOrdered(result.deliveries.map(\.notification)) {
            failures.append("\(run): deliveries not in (fireAt, id) order")
        }
        guard readBack else { return }
        switch Plan.decode(plan.fileContent) {
        case .success(let again):
            if again.pending.map(\.id) != plan.pending.map(\.id) || again.deferred.map(\.id) != plan.deferred.map(\.id)
                || again.budget != plan.budget {
                failures.append("\(run): plan.json does not read back as the plan that was written")
            }
        case .failure(let problem):
            failures.append("\(run): plan.json does not read back: \(problem)")
        }
    }
}

/// One file's part of a household, to compare "what the loader applied" with "what the file says".
enum HouseholdPart: Equatable {
    case settings(Settings)
    case pets([Pet])
    case alarms([Alarm])
    case trips([Trip])
    case streaks(StreakData)

    init(_ household: Household, _ file: UserFile) {
        switch file {
        case .settings: self = .settings(household.settings)
        case .laundry: self = .pets(household.pets)
        case .alarms: self = .alarms(household.alarms)
        case .trips: self = .trips(household.trips)
        case .streaks: self = .streaks(household.streaks)
        }
    }

    /// One entry of a list of a user file, with its id when it has one (plays have none).
    enum Entry: Equatable {
        case pet(Pet), alarm(Alarm), trip(Trip), game(Game), play(Play), achievement(Achievement)
        case resultImport(ResultImport)

        var id: String? {
            switch self {
            case .pet(let pet): return pet.id
            case .alarm(let alarm): return alarm.id
            case .trip(let trip): return trip.id
            case .game(let game): return game.id
            case .play: return nil
            case .achievement(let achievement): return achievement.id
            case .resultImport(let entry): return entry.id
            }
        }
    }

    /// The entries of each list of the file, by the list's key.
    var entryLists: [String: [Entry]] {
        switch self {
        case .settings: return [:]
        case .pets(let pets): return ["pets": pets.map(Entry.pet)]
        case .alarms(let alarms): return ["alarms": alarms.map(Entry.alarm)]
        case .trips(let trips): return ["trips": trips.map(Entry.trip)]
        case .streaks(let streaks):
            return ["games": streaks.games.map(Entry.game), "plays": streaks.plays.map(Entry.play),
                    "achievements": streaks.achievements.map(Entry.achievement),
                    "imports": streaks.imports.map(Entry.resultImport)]
        }
    }

    static func decode(_ file: UserFile, _ data: [UInt8]) -> (HouseholdPart?, FileReport) {
        switch file {
        case .settings:
            let (value, report) = UserFileDecoder.settings(data, zoneNamed: Fixtures.zoneNamed)
            return (value.map(HouseholdPart.settings), report)
        case .laundry:
            let (value, report) = UserFileDecoder.pets(data)
            return (value.map(HouseholdPart.pets), report)
        case .alarms:
            let (value, report) = UserFileDecoder.alarms(data)
            return (value.map(HouseholdPart.alarms), report)
        case .trips:
            let (value, report) = UserFileDecoder.trips(data, zoneNamed: Fixtures.zoneNamed)
            return (value.map(HouseholdPart.trips), report)
        case .streaks:
            let (value, report) = UserFileDecoder.streaks(data)
            return (value.map(HouseholdPart.streaks), report)
        }
    }
}

// MARK: - Mutations

enum Mutator {
    static let interestingBytes: [UInt8] = [
        0x00, 0x01, 0x08, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x22, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x39, 0x3A,
        0x45, 0x5B, 0x5C, 0x5D, 0x65, 0x75, 0x7B, 0x7D, 0x7F, 0x80, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE2,
        0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF8, 0xFE, 0xFF,
    ]

    /// JSON tokens and near-tokens inserted as text.
    static let tokens: [String] = [
        "{", "}", "[", "]", ",", ":", "\"", "null", "true", "false", "1e400", "-1e400", "-0", "0", "-", "1.", ".5",
        "1e", "1E+", "01", "+1", "0x10", "NaN", "Infinity", "nul", "tru", "\"\\u0000\"", "\"\\ud800\"",
        "\"\\udc00\"", "\"\\ud800\\udc00\"", "\"\\ud800\\u0041\"", "\"\\uD83D\\uDE00\"", "\"\\u12\"", "\"\\x\"",
        "\\", "\\u", "\\ud800", "\"\n\"", "\"\t\"", "/* c */", "// c\n", "'x'", "\"é\"", "\"😀\"", "\u{2028}",
        "\u{FEFF}", "\r\n", "\r", "\t", " ", "\"a\":1", "\"a\":1,", ",\"a\":", "{\"a\":", "[null,", "{}", "[]",
        "\"version\": 2,", "\"version\": 1,", "\"pets\": [],", "\"alarms\": null,",
    ]

    static func nesting(_ rng: inout SplitMix64) -> String {
        let depth = rng.pick([2, 64, 510, 511, 512, 513, 1000, 20_000])
        switch rng.below(4) {
        case 0: return String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        case 1: return String(repeating: "[", count: depth)
        case 2: return String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        default: return String(repeating: "[{\"x\":", count: depth / 2)
        }
    }

    /// Applies one random mutation in place; returns what it did.
    static func apply(to bytes: inout [UInt8], rng: inout SplitMix64, fuzzer: PipelineFuzzer, file: UserFile) -> String {
        let choice = rng.below(100)
        if choice >= 55, let value = try? JSONParser.parse(bytes) {
            return JSONTree.mutate(value, bytes: &bytes, rng: &rng, fuzzer: fuzzer)
        }
        let count = bytes.count
        switch choice % 11 {
        case 0 where count > 0:
            let offset = rng.below(count)
            let bit = rng.below(8)
            bytes[offset] ^= UInt8(1 << bit)
            return "flip bit \(bit) of byte \(offset)"
        case 1 where count > 0:
            let offset = rng.below(count)
            let byte = rng.chance(1, in: 2) ? rng.pick(interestingBytes) : UInt8(truncatingIfNeeded: rng.next())
            bytes[offset] = byte
            return "set byte \(offset) to 0x\(String(byte, radix: 16))"
        case 2:
            let offset = rng.below(count + 1)
            let length = 1 + rng.below(4)
            let inserted = (0..<length).map { _ in
                rng.chance(2, in: 3) ? rng.pick(interestingBytes) : UInt8(truncatingIfNeeded: rng.next())
            }
            bytes.insert(contentsOf: inserted, at: offset)
            return "insert \(inserted.map { String($0, radix: 16) }) at \(offset)"
        case 3 where count > 0:
            let offset = rng.below(count)
            let length = min(count - offset, rng.chance(1, in: 2) ? 1 : 1 + rng.below(64))
            bytes.removeSubrange(offset..<offset + length)
            return "delete \(length) byte(s) at \(offset)"
        case 4:
            let classes = CutPositions.classify(bytes).sorted { $0.key < $1.key }
            guard !classes.isEmpty else { bytes = []; return "truncate to 0" }
            let (kind, offsets) = classes[rng.below(classes.count)]
            let cut = offsets[rng.below(offsets.count)]
            bytes.removeSubrange(cut...)
            return "truncate at \(cut) (\(kind))"
        case 5 where count > 0:
            let from = rng.below(count)
            let length = min(count - from, 1 + rng.below(rng.chance(1, in: 4) ? 400 : 40))
            let to = rng.below(count + 1)
            let span = Array(bytes[from..<from + length])
            bytes.insert(contentsOf: span, at: to)
            return "duplicate \(length) byte(s) from \(from) to \(to)"
        case 6, 7:
            let token = rng.chance(1, in: 12) ? nesting(&rng) : rng.pick(tokens)
            let offset = rng.chance(2, in: 3) ? boundary(bytes, rng: &rng) : rng.below(count + 1)
            bytes.insert(contentsOf: Array(token.utf8), at: offset)
            return "insert token \(SwiftLiteral.of(Array(token.utf8.prefix(24))))\(token.utf8.count > 24 ? "…" : "") "
                + "(\(token.utf8.count) bytes) at \(offset)"
        case 8:
            let other = rng.pick(UserFile.allCases)
            let source = fuzzer.originals[other] ?? []
            guard !source.isEmpty else { return "splice nothing" }
            let from = rng.below(source.count)
            let length = min(source.count - from, 1 + rng.below(120))
            let to = boundary(bytes, rng: &rng)
            bytes.insert(contentsOf: source[from..<from + length], at: to)
            return "splice \(length) byte(s) of \(other.fileName)@\(from) at \(to)"
        case 9 where count > 1:
            // Swap two bytes: often a quote with a bracket, which scrambles structure locally.
            let a = rng.below(count)
            let b = min(count - 1, a + 1 + rng.below(8))
            bytes.swapAt(a, b)
            return "swap bytes \(a) and \(b)"
        default:
            // Replace all line breaks by CR, or insert a BOM, or strip whitespace: layout changes.
            switch rng.below(3) {
            case 0:
                bytes = bytes.map { $0 == 0x0A ? 0x0D : $0 }
                return "LF → CR"
            case 1:
                bytes.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: rng.chance(3, in: 4) ? 0 : rng.below(count + 1))
                return "insert BOM"
            default:
                bytes = bytes.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }
                return "LF → CRLF"
            }
        }
    }

    /// An offset next to a structural character (where a token is most disruptive), else anywhere.
    static func boundary(_ bytes: [UInt8], rng: inout SplitMix64) -> Int {
        guard !bytes.isEmpty else { return 0 }
        let structural: Set<UInt8> = [0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x22]
        for _ in 0..<16 {
            let offset = rng.below(bytes.count)
            if structural.contains(bytes[offset]) { return offset + rng.below(2) }
        }
        return rng.below(bytes.count + 1)
    }
}

/// Structure-aware mutations: swap or replace values, rename, remove or duplicate members.
enum JSONTree {
    enum Step: Equatable {
        case member(Int)
        case element(Int)
    }

    static func collectKeys(_ value: JSONValue, into keys: inout Set<String>) {
        switch value {
        case .object(let members):
            for member in members {
                keys.insert(member.key)
                collectKeys(member.value, into: &keys)
            }
        case .array(let elements):
            for element in elements { collectKeys(element, into: &keys) }
        default:
            break
        }
    }

    static func paths(_ value: JSONValue, prefix: [Step] = [], into paths: inout [[Step]], limit: Int = 20_000) {
        guard paths.count < limit else { return }
        paths.append(prefix)
        switch value {
        case .object(let members):
            for index in members.indices { Self.paths(members[index].value, prefix: prefix + [.member(index)], into: &paths) }
        case .array(let elements):
            for index in elements.indices { Self.paths(elements[index], prefix: prefix + [.element(index)], into: &paths) }
        default:
            break
        }
    }

    static func value(at path: ArraySlice<Step>, in value: JSONValue) -> JSONValue? {
        guard let step = path.first else { return value }
        switch (step, value) {
        case (.member(let index), .object(let members)) where members.indices.contains(index):
            return Self.value(at: path.dropFirst(), in: members[index].value)
        case (.element(let index), .array(let elements)) where elements.indices.contains(index):
            return Self.value(at: path.dropFirst(), in: elements[index])
        default:
            return nil
        }
    }

    /// `value` with the node at `path` transformed by `change` (which may edit the parent container: it gets the
    /// node's container and index).
    static func updating(_ value: JSONValue, at path: ArraySlice<Step>, _ change: (JSONValue) -> JSONValue) -> JSONValue {
        guard let step = path.first else { return change(value) }
        switch (step, value) {
        case (.member(let index), .object(var members)) where members.indices.contains(index):
            members[index].value = updating(members[index].value, at: path.dropFirst(), change)
            return .object(members)
        case (.element(let index), .array(var elements)) where elements.indices.contains(index):
            elements[index] = updating(elements[index], at: path.dropFirst(), change)
            return .array(elements)
        default:
            return value
        }
    }

    /// Replaces a value inside one top-level setting, chosen evenly among those `root` has (not by their sizes),
    /// with one of `interestingValues`: mostly a mistake, sometimes another valid value.
    static func breakSetting(_ root: inout JSONValue, rng: inout SplitMix64) -> String {
        guard case .object(let members) = root else { return "break a setting (no object)" }
        let settings = members.indices.filter { SettingsOracle.keys.contains(members[$0].key) }
        guard !settings.isEmpty else { return "break a setting (none)" }
        let member = rng.pick(settings)
        var inside: [[Step]] = []
        paths(members[member].value, prefix: [.member(member)], into: &inside)
        let path = rng.pick(inside)
        let replacement = interestingValues(&rng)
        let place = describe(path, in: root)
        root = updating(root, at: path[...]) { _ in replacement }
        return "break setting \(place) with \(DocumentReader.quote(replacement))"
    }

    static func isPrefix(_ a: [Step], of b: [Step]) -> Bool { a.count <= b.count && Array(b.prefix(a.count)) == a }

    static func interestingValues(_ rng: inout SplitMix64) -> JSONValue {
        let numbers = ["0", "-0", "-1", "1", "5", "15", "59", "60", "120", "121", "365", "366", "720", "721", "1440",
                       "1441", "10000", "10001", "1000000", "1000001", "1e400", "-1e400", "1.0", "1.5", "15e0", "1E2",
                       "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                       "0.000001", "123456789012345678901234567890"]
        let strings = ["", " ", "\u{0}", "\u{FFFD}", "x", "a/b", "a b", "a:b", "é", "e\u{301}", "🐶", "\u{202E}abc",
                       String(repeating: "a", count: 100), String(repeating: "a", count: 101),
                       String(repeating: "é", count: 100), String(repeating: "z", count: 10_000),
                       "25:00", "24:00", "23:59", "00:00", "02:30", "2:30", "12:5", "-1:00", "12:60", "１２:００", "12:00:00",
                       "2026-11-21T10:50:00Z", "2026-11-21T10:50:00.999999Z", "2026-11-21T11:50:00+01:00",
                       "2026-11-21T11:15:00Z", "2000-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "2200-12-31T23:59:59Z",
                       "2201-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-03-29T02:30:00+01:00",
                       "2026-11-21T10:50:00", "9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z",
                       "2026-11-21T10:50:00.1234567890123456789Z", "2026-11-21T10:50:60Z", "2026-11-21T10:50:00+24:00",
                       "2026-11-21T10:50:00-00:00", "2026-11-21t10:50:00z", "2026-11-21 10:50:00Z",
                       "+2026-11-21T10:50:00Z", "2026-11-21T10:50:00+99:99",
                       "wash", "dry", "fold", "mon", "sun", "Mon", "monday",
                       "Europe/Berlin", "UTC", "GMT", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata",
                       "Pacific/Kiritimati", "Pacific/Chatham", "America/St_Johns", "Mars/Olympus", "GMT+14", "EST",
                       "../../etc/passwd", "snowy", "fajr", "wordle", "office", "a-100", "i-77", "c-1042", "{title}",
                       "notify-send", "$(reboot)"]
        switch rng.below(10) {
        case 0: return rng.pick([.null, .bool(true), .bool(false)])
        case 1, 2, 3: return .number(rng.pick(numbers))
        case 4, 5, 6: return .string(rng.pick(strings))
        case 8 where rng.chance(3, in: 4): return .number(rng.pick(numbers))
        case 7:
            return rng.pick([.array([]), .object([]), .array([.string("mon")]), .array([.null]),
                             .array(["mon", "tue", "wed", "thu", "fri", "sat", "sun", "mon"].map(JSONValue.string)),
                             .array([.string("notify-send"), .string("{title}")]), .array([.string("")]),
                             .object([JSONMember("start", .string("22:00")), JSONMember("end", .string("07:00"))]),
                             .object([JSONMember("start", .string("00:00")), JSONMember("end", .string("00:00"))]),
                             .object([JSONMember("start", .string("05:00")), JSONMember("end", .string("23:59"))])])
        case 8:
            var nested = JSONValue.array([])
            for _ in 0..<rng.pick([10, 300, 505]) { nested = .array([nested]) }
            return nested
        default:
            return .array(Array(repeating: .object([]), count: rng.pick([1, 2, 100])))
        }
    }

    static func mutate(_ root: JSONValue, bytes: inout [UInt8], rng: inout SplitMix64, fuzzer: PipelineFuzzer,
                       tweakOnly: Bool = false) -> String {
        var all: [[Step]] = []
        paths(root, into: &all)
        let nonRoot = Array(all.dropFirst())
        var result = root
        var what: String
        let choice = tweakOnly ? 7 : rng.below(12)
        switch choice {
        case 7...11 where !nonRoot.isEmpty:
            // Change a value to another one that is still valid, so the planner sees a new household.
            let candidates = nonRoot.filter { path in
                guard let node = value(at: path[...], in: root) else { return false }
                switch node {
                case .object, .null: return false
                case .array(let elements): return elements.allSatisfy { $0.stringValue.flatMap(Weekday.init(rawValue:)) != nil }
                default: return true
                }
            }
            guard !candidates.isEmpty else { what = "tweak (nothing)"; break }
            let path = rng.pick(candidates)
            let key = describe(path, in: root).split(separator: ".").last.map(String.init) ?? ""
            guard let old = value(at: path[...], in: root) else { what = "tweak (none)"; break }
            let new = tweak(old, key: key, rng: &rng, now: fuzzer.now)
            result = updating(root, at: path[...]) { _ in new }
            what = "tweak \(describe(path, in: root)) to \(DocumentReader.quote(new))"
        case 0 where nonRoot.count >= 2:
            // Swap the values of two members/elements, neither inside the other.
            var a = rng.pick(nonRoot)
            var b = rng.pick(nonRoot)
            for _ in 0..<8 where isPrefix(a, of: b) || isPrefix(b, of: a) {
                a = rng.pick(nonRoot)
                b = rng.pick(nonRoot)
            }
            guard !isPrefix(a, of: b), !isPrefix(b, of: a),
                  let va = value(at: a[...], in: root), let vb = value(at: b[...], in: root) else {
                what = "swap (no pair)"
                break
            }
            result = updating(updating(root, at: a[...]) { _ in vb }, at: b[...]) { _ in va }
            what = "swap values at \(describe(a, in: root)) and \(describe(b, in: root))"
        case 1 where !nonRoot.isEmpty, 2 where !nonRoot.isEmpty:
            let path = rng.pick(nonRoot)
            let replacement = interestingValues(&rng)
            result = updating(root, at: path[...]) { _ in replacement }
            what = "replace \(describe(path, in: root)) with \(DocumentReader.quote(replacement))"
        case 3 where !nonRoot.isEmpty:
            // Copy one value over another (e.g. an id onto another id: duplicates).
            let from = rng.pick(nonRoot)
            let to = rng.pick(nonRoot)
            guard let copied = value(at: from[...], in: root), !isPrefix(to, of: from) else {
                what = "copy (none)"
                break
            }
            result = updating(root, at: to[...]) { _ in copied }
            what = "copy \(describe(from, in: root)) onto \(describe(to, in: root))"
        case 4:
            // Rename a key (to another known key, to an unknown one, or to one already in the object).
            let objects = all.filter { if case .object(let members)? = value(at: $0[...], in: root) { return !members.isEmpty } else { return false } }
            guard let path = objects.isEmpty ? nil : rng.pick(objects) else { what = "rename (no object)"; break }
            var newKey = rng.chance(3, in: 4) ? rng.pick(fuzzer.keys) : rng.pick(["", "Id", "ID", "id ", "é", "version"])
            result = updating(root, at: path[...]) { node in
                guard case .object(var members) = node else { return node }
                let index = rng.below(members.count)
                if members.contains(where: { $0.key == newKey }) { newKey += "_" }
                members[index].key = newKey
                return .object(members)
            }
            what = "rename a key of \(describe(path, in: root)) to \(JSONValue.quoted(newKey))"
        case 5:
            // Remove a member or an element.
            let containers = all.filter { path in
                switch value(at: path[...], in: root) {
                case .object(let members)?: return !members.isEmpty
                case .array(let elements)?: return !elements.isEmpty
                default: return false
                }
            }
            guard !containers.isEmpty else { what = "remove (nothing)"; break }
            let path = rng.pick(containers)
            var removed = ""
            result = updating(root, at: path[...]) { node in
                switch node {
                case .object(var members):
                    let member = members.remove(at: rng.below(members.count))
                    removed = member.key
                    return .object(members)
                case .array(var elements):
                    let index = rng.below(elements.count)
                    elements.remove(at: index)
                    removed = "[\(index)]"
                    return .array(elements)
                default:
                    return node
                }
            }
            what = "remove \(removed) from \(describe(path, in: root))"
        default:
            // Duplicate an array element (same id twice) or add an unknown member.
            let arrays = all.filter { if case .array(let elements)? = value(at: $0[...], in: root) { return !elements.isEmpty } else { return false } }
            if let path = arrays.isEmpty ? nil : rng.pick(arrays), rng.chance(2, in: 3) {
                let times = rng.pick([1, 1, 2, 200])
                result = updating(root, at: path[...]) { node in
                    guard case .array(var elements) = node else { return node }
                    let index = rng.below(elements.count)
                    elements.insert(contentsOf: Array(repeating: elements[index], count: times), at: index)
                    return .array(elements)
                }
                what = "duplicate an element of \(describe(path, in: root)) \(times)×"
            } else {
                result = root.setting("unknownKey\(rng.below(3))", to: interestingValues(&rng))
                what = "add an unknown top-level member"
            }
        }
        switch rng.below(10) {
        case 0...5:
            bytes = Array(result.prettyText.utf8)
            return what + " (pretty)"
        case 6...8:
            bytes = Array(result.compactText.utf8)
            return what + " (compact)"
        default:
            bytes = Array((result.prettyText + "\n").utf8).flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }
            return what + " (pretty, CRLF)"
        }
    }

    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham",
                        "America/St_Johns", "Pacific/Kiritimati", "Pacific/Apia", "Europe/Dublin", "Africa/Casablanca",
                        "America/Santiago", "Asia/Tehran", "UTC", "GMT", "Europe/London", "Antarctica/Troll",
                        // Accepted by Foundation on Linux too: fixed offsets up to ±18 h, POSIX-style names.
                        "GMT-18", "GMT+14", "UTC+5", "GMT+0530", "Etc/GMT+12", "Factory", "PST8PDT", "EST"]

    /// A different value that a valid file could hold in the same place: in-range minutes, an `HH:MM` time, an
    /// instant near `now` (with some offset), a weekday subset, a known zone, the other stage, the other boolean.
    static func tweak(_ value: JSONValue, key: String, rng: inout SplitMix64, now: Date) -> JSONValue {
        switch value {
        case .bool(let bool):
            return .bool(!bool)
        case .number:
            let bounds: ClosedRange<Int>
            switch key {
            case "warnBeforeMinutes": bounds = 0...120
            case "bufferMinutes", "defaultBufferMinutes": bounds = 0...720
            case "travelMinutes": bounds = 0...1440
            case "healthWarnAfterDays": bounds = 1...365
            case "maxPending": bounds = 1...100
            case "streak": bounds = 0...1000
            default: bounds = 1...1440
            }
            let picks = [bounds.lowerBound, bounds.upperBound, 1, 2, 5, 10, 15, 30, 45, 60, 90, 120, 61, 25, 3]
                .filter(bounds.contains)
            return .number(String(rng.chance(1, in: 2) ? rng.pick(picks) : bounds.lowerBound
                + rng.below(min(bounds.count, 240))))
        case .string(let text):
            if key == "timeZone" { return .string(rng.pick(zones)) }
            if text == "wash" || text == "dry" { return .string(text == "wash" ? "dry" : "wash") }
            if Weekday(rawValue: text) != nil { return .string(rng.pick(Weekday.allCases).rawValue) }
            if WallTime(parsing: text) != nil {
                let hour = rng.chance(1, in: 3) ? rng.pick([0, 1, 2, 3, 9, 10, 11, 12, 22, 23]) : rng.below(24)
                let minute = rng.chance(1, in: 2) ? rng.pick([0, 1, 29, 30, 45, 50, 59]) : rng.below(60)
                return .string(String(format: "%02d:%02d", hour, minute))
            }
            if RFC3339.parse(text) != nil {
                // Mostly within a few hours of now (so things fall due between the two runs), sometimes days.
                let minutes = rng.chance(3, in: 4) ? rng.below(481) - 240 : rng.below(20_161) - 10_080
                var instant = now.addingTimeInterval(Double(minutes * 60 + (rng.chance(1, in: 4) ? rng.below(60) : 0)))
                let offsets = [0, 0, 60, -300, 330, 765, -210, 840, -720]
                let offset = rng.pick(offsets)
                var text = RFC3339.format(instant)
                if offset != 0 || rng.chance(1, in: 6) {
                    // Write the same instant in another offset: local wall time + "+HH:MM".
                    instant = instant.addingTimeInterval(Double(offset * 60))
                    let utc = RFC3339.format(instant)
                    let sign = offset < 0 ? "-" : "+"
                    let hhmm = String(format: "%02d:%02d", abs(offset) / 60, abs(offset) % 60)
                    text = String(utc.dropLast()) + (rng.chance(1, in: 3) ? ".5" : "") + sign + hhmm
                }
                return .string(text)
            }
            if key == "id" || key == "game" { return .string(rng.pick(["snowy", "fajr", "wordle", "office", "x\(rng.below(5))"])) }
            return .string(rng.pick(["Sam", "Ünïcödé 🐶", "x", text + text]))
        case .array:
            let days = Weekday.allCases.filter { _ in rng.chance(1, in: 2) }
            return .array((days.isEmpty ? [Weekday.allCases[rng.below(7)]] : days).map { .string($0.rawValue) })
        default:
            return value
        }
    }

    /// `alarms[1].time`-style description of a path.
    static func describe(_ path: [Step], in root: JSONValue) -> String {
        var text = ""
        var node = root
        for step in path {
            switch (step, node) {
            case (.member(let index), .object(let members)) where members.indices.contains(index):
                text += (text.isEmpty ? "" : ".") + members[index].key
                node = members[index].value
            case (.element(let index), .array(let elements)) where elements.indices.contains(index):
                text += "[\(index)]"
                node = elements[index]
            default:
                return text + "?"
            }
        }
        return text.isEmpty ? "(root)" : text
    }
}

/// The kinds of position a file can be cut at, by a small lexer over the bytes (valid JSON or not).
enum CutPositions {
    /// For every kind of position, the offsets `cut` such that keeping `bytes[..<cut]` cuts there.
    static func classify(_ bytes: [UInt8]) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        var inString = false
        var escape = false
        var stringIsKey = false
        var containers: [UInt8] = []
        var lastStructural: UInt8 = 0
        var previous: UInt8 = 0
        for (offset, byte) in bytes.enumerated() {
            let kind: String
            if inString {
                if escape {
                    kind = "inside an escape"
                } else if byte & 0xC0 == 0x80 {
                    kind = "inside a UTF-8 sequence"
                } else if byte == 0x22 {
                    kind = stringIsKey ? "before a key's closing quote" : "before a string's closing quote"
                } else {
                    kind = stringIsKey ? "inside a key" : "inside a value string"
                }
            } else {
                switch byte {
                case 0x7B: kind = "before {"
                case 0x7D: kind = "before }"
                case 0x5B: kind = "before ["
                case 0x5D: kind = "before ]"
                case 0x2C: kind = "before ,"
                case 0x3A: kind = "before :"
                case 0x22: kind = "before an opening quote"
                case 0x20, 0x09, 0x0A, 0x0D: kind = previous == 0x3A || previous == 0x2C ? "after a separator" : "in whitespace"
                case 0x30...0x39, 0x2D, 0x2E, 0x2B, 0x45, 0x65:
                    kind = offset > 0 && isNumberByte(previous) ? "inside a number" : "before a number"
                case 0x61...0x7A: kind = offset > 0 && (0x61...0x7A).contains(previous) ? "inside a literal" : "before a literal"
                default: kind = "before another byte"
                }
            }
            result[kind, default: []].append(offset)
            // Advance the lexer past `byte`.
            if inString {
                if escape {
                    escape = false
                } else if byte == 0x5C {
                    escape = true
                } else if byte == 0x22 {
                    inString = false
                }
            } else {
                switch byte {
                case 0x22:
                    inString = true
                    stringIsKey = containers.last == 0x7B && (lastStructural == 0x7B || lastStructural == 0x2C)
                case 0x7B, 0x5B:
                    containers.append(byte)
                    lastStructural = byte
                case 0x7D, 0x5D:
                    if !containers.isEmpty { containers.removeLast() }
                    lastStructural = byte
                case 0x2C, 0x3A:
                    lastStructural = byte
                default:
                    break
                }
            }
            previous = byte
        }
        result["at the end (whole file)"] = [bytes.count]
        if bytes.count > 0 { result["one byte short"] = [bytes.count - 1] }
        return result
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x2E || byte == 0x2B || byte == 0x45 || byte == 0x65
    }
}

// MARK: - Syntax error positions

/// The byte offset that a syntax error's 1-based line and column name (columns count scalars; a BOM at the
/// start is not a column), or nil when the input has no such place. Everything before an error has been
/// accepted by the parser, so it is valid UTF-8 and each scalar's length follows from its lead byte.
func errorOffset(line: Int, column: Int, in bytes: [UInt8]) -> Int? {
    var index = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    var currentLine = 1
    while currentLine < line {
        guard let lineFeed = bytes[index...].firstIndex(of: 0x0A) else { return nil }
        index = lineFeed + 1
        currentLine += 1
    }
    var currentColumn = 1
    while currentColumn < column {
        guard index < bytes.count, bytes[index] != 0x0A else { return nil }
        let lead = bytes[index]
        index += lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        currentColumn += 1
    }
    return index <= bytes.count ? index : nil
}

/// Whether the error's message agrees with what is at `offset`: "end of input" at the end, "found 'x'" where x
/// is, "found U+XXXX" / "control character U+XXXX" on that scalar, "invalid UTF-8 byte 0xNN" on that byte, and so
/// on. Returns a description of the disagreement, or nil.
func positionMismatch(_ message: String, at offset: Int, in bytes: [UInt8]) -> String? {
    func scalar(at offset: Int) -> UInt32? {
        guard offset < bytes.count else { return nil }
        let lead = bytes[offset]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard offset + length <= bytes.count else { return nil }
        return String(validating: bytes[offset..<offset + length], as: UTF8.self)?.unicodeScalars.first?.value
    }
    let here = offset < bytes.count ? "byte 0x\(String(bytes[offset], radix: 16))" : "the end"
    if message.contains("end of input") {
        return offset == bytes.count ? nil : "says end of input but points at \(here) (offset \(offset))"
    }
    guard offset < bytes.count else { return "points past the last byte but does not say end of input" }
    if let range = message.range(of: "found '", options: .backwards), message.hasSuffix("'") {
        let found = Array(message[range.upperBound...].dropLast().utf8)
        return bytes[offset...].starts(with: found) ? nil : "says found '\(String(decoding: found, as: UTF8.self))' but \(here) is there"
    }
    if let range = message.range(of: "U+", options: .backwards),
       let value = UInt32(message[range.upperBound...].prefix { $0.isHexDigit }, radix: 16) {
        return scalar(at: offset) == value ? nil : "names U+\(String(value, radix: 16)) but \(here) is there"
    }
    if let range = message.range(of: "invalid UTF-8 byte 0x"),
       let value = UInt8(message[range.upperBound...].prefix { $0.isHexDigit }, radix: 16) {
        return bytes[offset] == value ? nil : "names byte 0x\(String(value, radix: 16)) but \(here) is there"
    }
    if message.hasPrefix("missing ','") {
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        return offset > 0 && !space.contains(bytes[offset - 1]) ? nil
            : "\"\(message)\" but the byte before \(here) ends no value"
    }
    let expected: (UInt8) -> Bool
    if message.hasPrefix("trailing comma") {
        expected = { $0 == 0x2C }
    } else if message.hasPrefix("a comment") {
        expected = { $0 == 0x2F }
    } else if message.hasPrefix("duplicate key") {
        expected = { $0 == 0x22 }
    } else if message.hasPrefix("unpaired surrogate") {
        expected = { $0 == 0x5C }
    } else if message.hasPrefix("nesting deeper") {
        expected = { $0 == 0x5B || $0 == 0x7B }
    } else if message.hasPrefix("leading zeros") {
        expected = { $0 >= 0x30 && $0 <= 0x39 }
    } else if message.hasPrefix("trailing characters") {
        expected = { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    } else if message == "invalid UTF-8" {
        expected = { $0 >= 0x80 }
    } else {
        return nil
    }
    return expected(bytes[offset]) ? nil : "\"\(message)\" but \(here) is there"
}

// MARK: - Reporting

enum SwiftLiteral {
    /// The bytes as a Swift expression of type `[UInt8]`: a string literal when they are UTF-8, else a byte array.
    static func of(_ bytes: [UInt8]) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return "([" + bytes.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: ", ") + "] as [UInt8])"
        }
        var literal = "Array(\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case " "..."~": literal.unicodeScalars.append(scalar)
            default: literal += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return literal + "\".utf8)"
    }
}

// MARK: - Regression and hostile inputs

enum RegressionInputs {
    static let everyFile = UserFile.allCases

    /// Big inputs are smaller in a debug build (which is 20–50× slower) so that `swift test` stays quick;
    /// `swift test -c release` (scripts/fuzz.sh) runs them at full size.
    #if DEBUG
    static let big = (objects: 1000, alarms: 300, pets: 300, plays: 3000, trips: 30, observations: 100, string: 250_000)
    #else
    static let big = (objects: 10_000, alarms: 2000, pets: 2000, plays: 20_000, trips: 300, observations: 300,
                      string: 1_000_000)
    #endif

    /// (name, bytes, files to try it as). Reproducers of fixed (or still open) defects go first.
    static var all: [(String, [UInt8], [UserFile])] {
        var inputs: [(String, [UInt8], [UserFile])] = [
            ("empty file", [], everyFile),
            ("BOM only", [0xEF, 0xBB, 0xBF], everyFile),
            ("BOM then {}", [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], everyFile),
            ("two BOMs", [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x7B, 0x7D], everyFile),
            ("whitespace only", Array(" \n\t\r\n".utf8), everyFile),
            ("lone high surrogate", Array(#"{"alarms": "\ud800"}"#.utf8), everyFile),
            ("high surrogate at end of input", Array(#"{"a": "\ud800"#.utf8), everyFile),
            ("high surrogate then backslash at end", Array(#"{"a": "\ud800\"#.utf8), everyFile),
            ("escaped NUL in an id", Array(#"{"pets":[{"id":"a\u0000b"}]}"#.utf8), [.laundry]),
            ("1e400 maxPending", Array(#"{"maxPending": 1e400}"#.utf8), [.settings]),
            ("null version", Array(#"{"version": null, "maxPending": 10}"#.utf8), everyFile),
            ("U+FEFF before an id's key", Array("{\"pets\":[{\"id\":\"snowy\"},{\"\u{FEFF}id\":\"mochi\"}]}".utf8),
             [.laundry]),
            ("a trip in an unknown zone", Array((#"{"trips":[{"id":"dentist","destination":"Dentist","#
                + #""timeZone":"Dentist","arriveAt":"2026-11-24T14:30:00+01:00","travelMinutes":20}]}"#).utf8),
             [.trips]),
            ("-0 minutes", Array(#"{"pets":[{"id":"a","washMinutes":-0}]}"#.utf8), [.laundry]),
            ("100000 [", Array(repeating: 0x5B, count: 100_000), [.settings]),
            ("512-deep arrays", Array((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8),
             [.settings]),
            ("513-deep arrays", Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8),
             [.settings]),
            ("512-deep value inside a file", Array(("{\"pets\":" + String(repeating: "[", count: 511)
                + String(repeating: "]", count: 511) + "}").utf8), [.laundry]),
            ("long string", Array(("{\"timeZone\":\"" + String(repeating: "a", count: big.string) + "\"}").utf8), [.settings]),
            ("long string of escapes", Array(("{\"timeZone\":\"" + String(repeating: "\\u00e9", count: big.string / 5) + "\"}").utf8),
             [.settings]),
            ("CR-only line breaks", Array("{\r\"alarms\": [\r}".utf8), [.alarms]),
            ("error on a line after CRLFs", Array("{\r\n\r\n\"a\" 1}".utf8), [.settings]),
            ("invalid UTF-8 in a key", [0x7B, 0x22, 0xC0, 0x80, 0x22, 0x3A, 0x31, 0x7D], everyFile),
            ("UTF-8 cut inside a string", [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xE2, 0x82], [.settings]),
            ("surrogate encoded in UTF-8", [0x22, 0xED, 0xA0, 0x80, 0x22], [.settings]),
        ]
        // Duplicate keys (canonically equivalent spellings are the same String in Swift).
        inputs.append(("duplicate key after 16 members", Array(("{" + (0..<20).map { "\"k\($0)\":0," }.joined()
            + "\"k3\":1}").utf8), [.settings]))
        inputs.append(("canonically equivalent keys", Array("{\"caf\u{E9}\":1,\"cafe\u{301}\":2}".utf8), [.settings]))
        // Big but valid files: the time per case must stay small.
        inputs.append(("\(big.objects) objects with 20 members", Array(("{\"x\":[" + Array(repeating: "{" + (0..<20).map { "\"m\($0)\":\($0)" }
            .joined(separator: ",") + "}", count: big.objects).joined(separator: ",") + "]}").utf8), [.settings]))
        inputs.append(("\(big.alarms) alarms", Array(("{\"alarms\":[" + (0..<big.alarms).map {
            "{\"id\":\"a\($0)\",\"title\":\"A\",\"time\":\"\(String(format: "%02d:%02d", $0 % 24, $0 % 60))\"}"
        }.joined(separator: ",") + "]}").utf8), [.alarms]))
        inputs.append(("\(big.alarms) alarms with one id", Array(("{\"alarms\":[" + Array(repeating:
            "{\"id\":\"a\",\"title\":\"A\",\"time\":\"05:30\"}", count: big.alarms).joined(separator: ",") + "]}").utf8),
            [.alarms]))
        inputs.append(("\(big.pets) pets washing", Array(("{\"pets\":[" + (0..<big.pets).map {
            "{\"id\":\"p\($0)\",\"cycle\":{\"stage\":\"wash\",\"startedAt\":\"2026-11-21T10:\(String(format: "%02d", $0 % 60)):00Z\"}}"
        }.joined(separator: ",") + "]}").utf8), [.laundry]))
        inputs.append(("\(big.plays) plays", Array(("{\"games\":[{\"id\":\"g\",\"name\":\"G\",\"streak\":3}],\"plays\":[" + (0..<big.plays).map {
            "{\"game\":\"g\",\"at\":\"\(RFC3339.format(Date(timeIntervalSince1970: 1_795_258_200 - Double($0) * 3_600)))\"}"
        }.joined(separator: ",") + "]}").utf8), [.streaks]))
        inputs.append(("\(big.trips) trips with \(big.observations) observations", Array(("{\"trips\":[" + (0..<big.trips).map { trip in
            "{\"id\":\"t\(trip)\",\"destination\":\"D\",\"arriveBy\":\"08:45\",\"travelMinutes\":25,\"observations\":["
                + (0..<big.observations).map { "{\"departedAt\":\"\(RFC3339.format(Date(timeIntervalSince1970: 1_795_258_200 - Double($0) * 86_400)))\",\"minutes\":\(20 + $0 % 15)}" }
                .joined(separator: ",") + "]}"
        }.joined(separator: ",") + "]}").utf8), [.trips]))
        return inputs
    }
}
