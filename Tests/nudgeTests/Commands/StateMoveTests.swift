import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The default data directory's own files in `$XDG_STATE_HOME/nudge` (docs/files.md, "Where nudge keeps its own
/// files"): moved once, by the first run that finds them beside the person's files, and a kill at any step of the
/// move loses nothing and delivers nothing twice.
final class StateMoveTests: DataDirectoryTestCase {
    private static let alarms = """
        {"alarms": [
          {"id": "a8", "title": "Eight", "time": "08:00", "durationMinutes": 5},
          {"id": "a9", "title": "Nine", "time": "09:00", "durationMinutes": 5},
          {"id": "a10", "title": "Ten", "time": "10:00", "durationMinutes": 5}
        ]}
        """
    private static let ownNames = ["plan.json", "state.json", "outbox.jsonl", ".last-good"]

    /// A home whose default data directory holds its own files as before the move: two runs made with `--data`
    /// while the directory was not the default one (another HOME), so they kept everything in it.
    private func homeBeforeTheMove() throws -> TemporaryDataDirectory {
        let home = try makeDirectory()
        let data = home.path + "/.local/share/nudge"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Self.alarms.write(toFile: data + "/alarms.json", atomically: true, encoding: .utf8)
        try #"{"notifications": {"enabled": true}}"#.write(toFile: data + "/settings.json", atomically: true,
                                                           encoding: .utf8)
        for (now, delivered) in [("2026-11-21T07:59:00Z", 0), ("2026-11-21T08:00:10Z", 1), ("2026-11-21T09:00:10Z", 1)] {
            let run = try NudgeProcess.run(["run", "--json", "--data", data, "--now", now], workingDirectory: home.url)
            XCTAssertEqual(run.status, 0, run.summary)
            XCTAssertEqual(run.deliveredIDs().count, delivered, run.summary)
        }
        for name in Self.ownNames { XCTAssertTrue(home.exists(".local/share/nudge/" + name), name) }
        return home
    }

    /// A login's environment for `home`: its HOME, no XDG_DATA_HOME or XDG_STATE_HOME, no NUDGE_DATA.
    private func login(_ home: TemporaryDataDirectory, _ extra: [String: String] = [:]) -> [String: String] {
        ["HOME": home.path, "XDG_DATA_HOME": "", "XDG_STATE_HOME": ""].merging(extra) { $1 }
    }

    private func run(_ home: TemporaryDataDirectory, at now: String, _ extra: [String: String] = [:],
                     _ options: [String] = []) throws -> NudgeResult {
        try NudgeProcess.run(["run", "--json", "--now", now] + options, workingDirectory: home.url,
                             environment: login(home, extra))
    }

    /// Every file below `path` by relative path with its bytes, but the lock (empty, and recreated at will).
    private func tree(_ path: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let names = FileManager.default.subpaths(atPath: path) else { return files }
        for name in names where !name.hasSuffix(".lock") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory),
                  !isDirectory.boolValue else { continue }
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
        }
        return files
    }

    func testTheFirstRunMovesTheOwnFilesAndTheDataDirectoryKeepsOnlyThePersonsFiles() throws {
        let home = try homeBeforeTheMove()
        let before = try tree(home.path + "/.local/share/nudge")
        let status = try NudgeProcess.run(["status"], workingDirectory: home.url, environment: login(home))
        XCTAssertTrue(status.stdoutLines.last?.hasSuffix("nudge's own move to \(home.path)/.local/state/nudge at "
                                                         + "the next run") ?? false, status.summary)

        let moving = try run(home, at: "2026-11-21T10:00:10Z")
        XCTAssertEqual(moving.status, 0, moving.summary)
        XCTAssertEqual(moving.deliveredIDs(), ["alarm.prayer:a10:2026-11-21"], moving.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home.path + "/.local/share/nudge").sorted(),
                       ["alarms.json", "settings.json"])
        let state = home.path + "/.local/state/nudge"
        let moved = try tree(state)
        // The outbox as it was, and the line of this run after it.
        let outboxBefore = try XCTUnwrap(before["outbox.jsonl"])
        XCTAssertEqual(moved["outbox.jsonl"]?.prefix(outboxBefore.count), outboxBefore)
        XCTAssertEqual(moved[".last-good/alarms.json"], before[".last-good/alarms.json"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: state + "/.moved-from"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path + "/.local/state/.nudge-moving"))
        let attributes = try FileManager.default.attributesOfItem(atPath: state)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)

        let after = try NudgeProcess.run(["status"], workingDirectory: home.url, environment: login(home))
        XCTAssertEqual(after.stdoutLines.last, "Files: yours in \(home.path)/.local/share/nudge, nudge's own (plan, "
                       + "state, outbox) in \(state)", after.summary)
        let plan = try NudgeProcess.run(["plan", "--now", "2026-11-21T10:01:00Z"], workingDirectory: home.url,
                                        environment: login(home))
        XCTAssertTrue(plan.stdout.contains("Files: yours in"), plan.summary)
        // `--data` naming the default directory is the default directory: one state, never two.
        let named = try NudgeProcess.run(["run", "--json", "--data", home.path + "/.local/share/nudge", "--now",
                                          "2026-11-21T10:02:00Z"], workingDirectory: home.url, environment: login(home))
        XCTAssertEqual(named.status, 0, named.summary)
        XCTAssertEqual(named.deliveredIDs(), [], named.summary)
        XCTAssertFalse(home.exists(".local/share/nudge/state.json"))
    }

    /// The kill sweep: the move killed (SIGKILL) at each of its steps in turn, then a run as cron makes it; the
    /// result is byte for byte that of a move nobody killed.
    func testAMoveKilledAtAnyStepLosesNothingAndTheNextRunDeliversExactlyOnce() throws {
        let template = try homeBeforeTheMove()
        let reference = try template.copy()
        defer { reference.remove() }
        let expected = try run(reference, at: "2026-11-21T10:00:10Z")
        XCTAssertEqual(expected.deliveredIDs(), ["alarm.prayer:a10:2026-11-21"], expected.summary)
        let expectedState = try tree(reference.path + "/.local/state/nudge")
        let expectedData = try tree(reference.path + "/.local/share/nudge")

        var step = 1
        while true {
            let home = try template.copy()
            defer { home.remove() }
            let killed = try run(home, at: "2026-11-21T10:00:10Z", ["NUDGE_TEST_KILL_MOVE_AT": String(step)])
            guard killed.status == SIGKILL else {
                // The step counter ran past the last step: this run moved unharmed.
                XCTAssertEqual(killed.status, 0, killed.summary)
                break
            }
            XCTAssertEqual(killed.stdout, "", "step \(step): \(killed.summary)")
            let next = try run(home, at: "2026-11-21T10:00:10Z")
            XCTAssertEqual(next.status, 0, "step \(step): \(next.summary)")
            XCTAssertEqual(next.stdout, expected.stdout, "step \(step): \(next.summary)")
            XCTAssertEqual(try tree(home.path + "/.local/state/nudge"), expectedState, "step \(step)")
            XCTAssertEqual(try tree(home.path + "/.local/share/nudge"), expectedData, "step \(step)")
            XCTAssertFalse(home.exists(".local/state/.nudge-moving"), "step \(step)")
            step += 1
        }
        // The staging directory, the marker, four files, the folder of last good copies and its two files, the
        // commit, the removals: a sweep that covered fewer steps did not cover the move.
        XCTAssertGreaterThan(step, 10)
    }

    func testTheMoveWaitsWhileAClickWaiterLivesAndHappensOnceItIsGone() throws {
        let home = try homeBeforeTheMove()
        let waiters = home.path + "/.local/share/nudge/.waiters"
        try FileManager.default.createDirectory(atPath: waiters, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: waiters + "/held"))
        // The waiter's lock on its file, as `WaiterHold` takes it (another open file description: another process
        // to flock).
        let descriptor = open(waiters + "/held", O_RDONLY)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(flock(descriptor, LOCK_EX), 0)

        let waiting = try run(home, at: "2026-11-21T10:00:10Z")
        XCTAssertEqual(waiting.status, 0, waiting.summary)
        XCTAssertEqual(waiting.deliveredIDs(), ["alarm.prayer:a10:2026-11-21"], waiting.summary)
        XCTAssertFalse(home.exists(".local/state/nudge"))
        XCTAssertTrue(home.exists(".local/share/nudge/state.json"))

        close(descriptor)
        let moving = try run(home, at: "2026-11-21T10:01:10Z")
        XCTAssertEqual(moving.status, 0, moving.summary)
        XCTAssertEqual(moving.deliveredIDs(), [], moving.summary)
        XCTAssertTrue(home.exists(".local/state/nudge/state.json"))
        XCTAssertFalse(home.exists(".local/share/nudge/.waiters"))
        // The gone waiter's file moved with the rest, and that run handled it as any run does.
        XCTAssertFalse(home.exists(".local/state/nudge/.waiters/held"), moving.summary)
    }

    func testADirectoryNamedWithDataOrNUDGE_DATAKeepsEverythingInIt() throws {
        let home = try makeDirectory()
        try dir.write("alarms.json", Self.alarms)
        for environment in [[:], ["NUDGE_DATA": dir.path]] {
            let options = environment.isEmpty ? ["--data", dir.path] : []
            let ran = try run(home, at: "2026-11-21T08:00:10Z", environment, options)
            XCTAssertEqual(ran.status, 0, ran.summary)
            XCTAssertTrue(dir.exists("state.json"))
            XCTAssertFalse(home.exists(".local/state"), "\(environment)")
        }
        let status = try NudgeProcess.run(["status", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(status.stdoutLines.last, "Files: yours and nudge's own in \(dir.path)", status.summary)
    }

    func testInitOfTheDefaultDirectoryPutsNothingOfNudgesBesideThePersonsFiles() throws {
        let home = try makeDirectory()
        let made = try NudgeProcess.run(["init"], workingDirectory: home.url, environment: login(home))
        XCTAssertEqual(made.status, 0, made.summary)
        XCTAssertTrue(made.stdout.contains("nudge's own files (plan, state, outbox) are kept in \(home.path)/.local/"
                                           + "state/nudge"), made.summary)
        let ran = try run(home, at: "2026-11-21T08:00:10Z")
        XCTAssertEqual(ran.status, 0, ran.summary)
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path + "/.local/share/nudge")
        XCTAssertEqual(Set(names), ["alarms.json", "laundry.json", "settings.json"], ran.summary)
        XCTAssertTrue(home.exists(".local/state/nudge/state.json"))
    }

    func testAMoveThatCannotBeMadeIsSaidAndTheRunGoesOnWhereTheFilesAre() throws {
        let home = try homeBeforeTheMove()
        let blocker = home.path + "/not-a-directory"
        try Data().write(to: URL(fileURLWithPath: blocker))
        let ran = try run(home, at: "2026-11-21T10:00:10Z", ["XDG_STATE_HOME": blocker + "/state"])
        XCTAssertEqual(ran.status, 0, ran.summary)
        XCTAssertEqual(ran.deliveredIDs(), ["alarm.prayer:a10:2026-11-21"], ran.summary)
        XCTAssertEqual(ran.stderrLines.filter { $0.contains("cannot move nudge's own files") }.count, 1, ran.summary)
        XCTAssertTrue(home.exists(".local/share/nudge/state.json"))
    }
}
