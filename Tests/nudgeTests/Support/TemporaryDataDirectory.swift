import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A fresh data directory under the system temporary directory, removed by `remove()` (call it in tearDown).
/// Runs `nudge` against itself with `--data` and `--now` always given.
final class TemporaryDataDirectory {
    let url: URL

    /// The path exactly as nudge prints it in messages (`<dir>/laundry.json:3:21: …`).
    var path: String { url.path }

    init(label: String = "nudge-e2e") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    func fileURL(_ name: String) -> URL { url.appendingPathComponent(name) }

    // MARK: - Files

    /// Writes a user file (as a person would, with their own umask).
    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: fileURL(name))
    }

    func remove(_ name: String) throws {
        try FileManager.default.removeItem(at: fileURL(name))
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: fileURL(name).path)
    }

    func data(_ name: String) throws -> Data {
        try Data(contentsOf: fileURL(name))
    }

    func text(_ name: String) throws -> String {
        String(decoding: try data(name), as: UTF8.self)
    }

    /// The JSON object in a file.
    func json(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: data(name))
        return try XCTUnwrap(value as? [String: Any], "\(name) is not a JSON object", file: file, line: line)
    }

    /// The lines of `outbox.jsonl`; empty when it does not exist.
    func outboxLines() throws -> [String] {
        guard exists("outbox.jsonl") else { return [] }
        return NudgeResult.lines(try text("outbox.jsonl"))
    }

    /// The `id`s in `outbox.jsonl`, in order.
    /// The ids in the outbox but those of "Missed while away" digests (docs/design.md), for tests about the rest.
    func outboxIDsButDigests() throws -> [String] {
        try outboxIDs().filter { !$0.hasPrefix("digest.missed:") }
    }

    func outboxIDs() throws -> [String] {
        try outboxLines().map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["id"] as? String ?? "<no id>"
        }
    }

    /// The ids of `pending` in plan.json, in file order.
    func plannedIDs() throws -> [String] {
        let pending = try json("plan.json")["pending"] as? [[String: Any]] ?? []
        return pending.map { $0["id"] as? String ?? "<no id>" }
    }

    /// The permission bits of a file (without the file type).
    func mode(_ name: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: fileURL(name).path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Every file and directory below the directory (hidden ones included), by relative path, with its bytes
    /// (nil for a directory) and its permission bits: what a dry run must leave untouched.
    func snapshot() throws -> [String: Entry] {
        var result: [String: Entry] = [:]
        // The directory itself: a temporary file created and removed again still changes its mtime.
        let root = try FileManager.default.attributesOfItem(atPath: path)
        result["."] = Entry(content: nil, mode: (root[.posixPermissions] as? NSNumber)?.intValue ?? -1,
                            modified: root[.modificationDate] as? Date)
        let keys: [URLResourceKey] = [.isDirectoryKey]
        guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: keys) else {
            return result
        }
        let prefix = url.standardizedFileURL.path + "/"
        for case let item as URL in enumerator {
            let full = item.standardizedFileURL.path
            let relative = full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
            let isDirectory = (try item.resourceValues(forKeys: [.isDirectoryKey])).isDirectory ?? false
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            let modified = attributes[.modificationDate] as? Date
            result[relative] = Entry(content: isDirectory ? nil : try Data(contentsOf: item), mode: mode,
                                     modified: modified)
        }
        return result
    }

    struct Entry: Equatable {
        var content: Data?
        var mode: Int
        var modified: Date?
    }

    /// Copies every file of this directory into a new temporary directory.
    func copy() throws -> TemporaryDataDirectory {
        let other = try TemporaryDataDirectory(label: "nudge-e2e-copy")
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            try FileManager.default.copyItem(at: fileURL(name), to: other.fileURL(name))
        }
        return other
    }

    // MARK: - Running nudge

    /// `nudge COMMAND --data DIR --now NOW ARGUMENTS…`.
    @discardableResult
    func nudge(_ command: String, now: String, _ arguments: String...) throws -> NudgeResult {
        try NudgeProcess.run([command, "--data", path, "--now", now] + arguments, workingDirectory: url)
    }

    /// `nudge run --json --data DIR --now NOW`.
    @discardableResult
    func run(at now: String, _ arguments: String...) throws -> NudgeResult {
        try NudgeProcess.run(["run", "--json", "--data", path, "--now", now] + arguments, workingDirectory: url)
    }

    /// `nudge status --json` parsed.
    func status(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let result = try NudgeProcess.run(["status", "--json", "--data", path], workingDirectory: url)
        XCTAssertEqual(result.status, 0, result.summary, file: file, line: line)
        let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try XCTUnwrap(value as? [String: Any], "status --json is not an object: \(result.stdout)",
                             file: file, line: line)
    }
}

/// Small JSON documents for the tests, written the way the README shows them.
enum Fixture {
    static func settings(timeZone: String = "UTC") -> String {
        """
        { "timeZone": "\(timeZone)", "notifications": { "enabled": true, "sound": true, "badge": true } }

        """
    }

    /// One pet, optionally with a wash cycle under way.
    static func laundry(washStartedAt: String?, cycleID: String = "c-1", washMinutes: Int = 45) -> String {
        let cycle = washStartedAt.map {
            ", \"cycle\": { \"id\": \"\(cycleID)\", \"stage\": \"wash\", \"startedAt\": \"\($0)\" }"
        } ?? ""
        return """
        { "pets": [ { "id": "snowy", "name": "Snowy", "washMinutes": \(washMinutes), "dryMinutes": 60\(cycle) } ] }

        """
    }

    /// One daily alarm `fajr` with the title "Morning Prayer".
    static func alarm(time: String, durationMinutes: Int = 15, id: String = "fajr") -> String {
        """
        { "alarms": [ { "id": "\(id)", "title": "Morning Prayer", "time": "\(time)", "durationMinutes": \(durationMinutes) } ] }

        """
    }

    static let noAlarms = "{ \"alarms\": [] }\n"
}

/// A test case with its own data directory (and any extra ones it makes), all removed in tearDown.
class DataDirectoryTestCase: XCTestCase {
    private(set) var dir: TemporaryDataDirectory!
    private var extraDirectories: [TemporaryDataDirectory] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        dir = try TemporaryDataDirectory()
    }

    override func tearDown() {
        dir?.remove()
        extraDirectories.forEach { $0.remove() }
        extraDirectories = []
        super.tearDown()
    }

    /// A copy of `dir` (all its files, hidden ones included), removed in tearDown.
    func copyOfDirectory() throws -> TemporaryDataDirectory {
        let copy = try dir.copy()
        extraDirectories.append(copy)
        return copy
    }

    /// The save order of a delivering run: plan.json, the outbox append, state.json.
    static let saveOrder = ["plan.json", "outbox.jsonl", "state.json"]

    /// A new directory as a run that died after the first `steps` writes of `saveOrder` leaves it (a kill, or a
    /// full disk at the next write): those files as `after` holds them, the rest of the save order as `before`,
    /// every other file as `after`. Removed in tearDown.
    func directoryLeftByARunThatDied(after steps: Int, before: [String: TemporaryDataDirectory.Entry],
                                     after: [String: TemporaryDataDirectory.Entry]) throws -> TemporaryDataDirectory {
        let copy = try makeDirectory()
        let order = Self.saveOrder
        for (name, entry) in after where entry.content != nil {
            let source = order.prefix(steps).contains(name) || !order.contains(name) ? after : before
            guard let content = source[name]?.content else { continue }
            try FileManager.default.createDirectory(at: copy.fileURL(name).deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try content.write(to: copy.fileURL(name))
        }
        return copy
    }

    /// Another empty temporary directory, removed in tearDown.
    func makeDirectory() throws -> TemporaryDataDirectory {
        let other = try TemporaryDataDirectory()
        extraDirectories.append(other)
        return other
    }

    /// Asserts a run's exit code and the exact ids it printed with `--json`, in order.
    /// `tellsMissed`: the body of the "Missed while away" digest the run delivers after `ids` (docs/design.md,
    /// "Missed while away"), nil when it must deliver none.
    func assertRun(_ result: NudgeResult, exit status: Int32 = 0, delivers ids: [String], tellsMissed: String? = nil,
                   file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, status, result.summary, file: file, line: line)
        let lines = result.jsonLines(file: file, line: line)
        let digests = lines.filter { $0["kind"] as? String == "digest.missed" }
        XCTAssertEqual(lines.filter { $0["kind"] as? String != "digest.missed" }.map { $0["id"] as? String ?? "<no id>" },
                       ids, result.summary, file: file, line: line)
        XCTAssertEqual(digests.map { $0["body"] as? String ?? "<no body>" }, tellsMissed.map { [$0] } ?? [],
                       result.summary, file: file, line: line)
    }
}
