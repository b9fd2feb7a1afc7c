import Foundation
import XCTest
@testable import nudge

/// A quiet journal (docs/promises.md): when stderr is the journal, each line nudge writes there starts with its
/// sd-daemon priority, so the journal files a broken file as an error; anywhere else the lines are plain.
final class JournalPriorityTests: XCTestCase {
    func testEachLineOfAMessageGetsThePrefixOnlyForTheJournal() {
        XCTAssertEqual(Console.prefixed("a\nb", .error, journal: true), "<3>a\n<3>b")
        XCTAssertEqual(Console.prefixed("zone", .warning, journal: true), "<4>zone")
        XCTAssertEqual(Console.prefixed("a\nb", .error, journal: false), "a\nb")
    }

    /// The run's stderr is a file whose device and inode JOURNAL_STREAM names, as systemd sets it: the broken
    /// file's line is an error (`<3>`); the same run with JOURNAL_STREAM naming another file, or unset (a
    /// terminal, cron's mail), writes it plain.
    func testARunWhoseStderrIsTheJournalPrefixesItsLines() throws {
        let data = try TemporaryDataDirectory()
        try data.write("settings.json", #"{ "timeZone": "Europe/Berlin" }"#)
        try data.write("alarms.json", #"{ "alarms": [ { "id": "fajr", "label": "Fajr", "time": "5:3O" } ] }"#)
        let folder = data.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let journal = folder.appendingPathComponent("journal")
        let other = folder.appendingPathComponent("other")
        for file in [journal, other] { XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: nil)) }

        func stream(_ file: URL) throws -> String {
            var info = stat()
            XCTAssertEqual(stat(file.path, &info), 0)
            return "\(info.st_dev):\(info.st_ino)"
        }
        func run(journalStream: String?, into file: URL) throws -> String {
            var environment = ["PATH": "/usr/bin:/bin", "HOME": data.url.path]
            environment["JOURNAL_STREAM"] = journalStream
            let nudge = try NudgeProcess.executableURL().path
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "exec \"$0\" run --data \"$1\" --now 2026-11-21T04:00:00Z 2>>\"$2\"",
                               nudge, data.url.path, file.path]
            shell.environment = environment
            shell.standardOutput = FileHandle.nullDevice
            try shell.run()
            shell.waitUntilExit()
            return try String(contentsOf: file, encoding: .utf8)
        }

        let prefixed = try run(journalStream: try stream(journal), into: journal)
        let lines = prefixed.split(separator: "\n")
        XCTAssertFalse(lines.isEmpty, "the broken alarms.json is reported")
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("<3>") }, prefixed)
        XCTAssertTrue(prefixed.contains("alarms.json"), prefixed)

        let elsewhere = try run(journalStream: try stream(journal), into: other)
        XCTAssertFalse(elsewhere.isEmpty)
        XCTAssertFalse(elsewhere.contains("<3>"), "stderr is not the stream JOURNAL_STREAM names: \(elsewhere)")
        try FileManager.default.removeItem(at: other)
        XCTAssertTrue(FileManager.default.createFile(atPath: other.path, contents: nil))
        let plain = try run(journalStream: nil, into: other)
        XCTAssertEqual(plain, String(prefixed.split(separator: "\n").map { $0.dropFirst(3) }.joined(separator: "\n")) + "\n")
    }
}
