import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `nudge laundry start|fold|stop` (docs/files.md, "laundry.json"): edits laundry.json under the lock, atomically,
/// keeping the user's other keys.
final class LaundryCommandTests: DataDirectoryTestCase {
    /// A user's laundry.json with keys nudge does not know at every level.
    private let userLaundry = """
    { "version": 1, "note": "kept",
      "pets": [
        { "id": "snowy", "name": "Snowy", "colour": "white", "washMinutes": 45, "dryMinutes": 60,
          "lastCompletedAt": "2026-11-14T18:00:00Z",
          "cycle": { "id": "c-1042", "machine": "left", "stage": "wash", "startedAt": "2026-11-21T07:30:00Z" } },
        { "id": "rex", "name": "Rex", "tags": ["dark", { "deep": true }] }
      ] }

    """

    override func setUpWithError() throws {
        try super.setUpWithError()
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
    }

    // MARK: - Helpers

    /// `nudge laundry ARGUMENTS… --data DIR --now NOW`.
    @discardableResult
    private func laundry(_ arguments: String..., now: String) throws -> NudgeResult {
        try NudgeProcess.run(["laundry"] + arguments + ["--data", dir.path, "--now", now], workingDirectory: dir.url)
    }

    /// laundry.json parsed, as a dictionary that can be compared as a whole.
    private func laundryJSON() throws -> NSDictionary {
        try dir.json("laundry.json") as NSDictionary
    }

    /// The parsed user file with `change` applied to pet `index`: what an edit must leave.
    private func expected(pet index: Int, _ change: (inout [String: Any]) -> Void) throws -> NSDictionary {
        var root = try JSONSerialization.jsonObject(with: Data(userLaundry.utf8)) as? [String: Any] ?? [:]
        var pets = root["pets"] as? [[String: Any]] ?? []
        change(&pets[index])
        root["pets"] = pets
        return root as NSDictionary
    }

    /// Asserts the keys appear in this order in the file's text (key order of the user's file is kept).
    private func assertKeyOrder(_ keys: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let text = try dir.text("laundry.json")
        let positions = keys.map { text.range(of: "\"\($0)\":")?.lowerBound }
        XCTAssertFalse(positions.contains(nil), "a key is missing:\n\(text)", file: file, line: line)
        let found = positions.compactMap { $0 }
        XCTAssertEqual(found, found.sorted(), "keys out of order:\n\(text)", file: file, line: line)
    }

    private func assertSucceeded(_ result: NudgeResult, printing lines: String...,
                                 file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        XCTAssertEqual(result.status, 0, result.summary, file: file, line: lineNumber)
        XCTAssertEqual(result.stdoutLines, lines, result.summary, file: file, line: lineNumber)
        XCTAssertEqual(result.stderr, "", result.summary, file: file, line: lineNumber)
        XCTAssertEqual(try dir.mode("laundry.json"), 0o644, "the mode the file had", file: file, line: lineNumber)
        XCTAssertEqual(try dir.text("laundry.json").last, "\n", file: file, line: lineNumber)
    }

    // MARK: - Each command keeps everything it does not mean to change

    func testStartDryKeepsTheCycleIDAndEveryOtherKey() throws {
        try dir.write("laundry.json", userLaundry)
        let result = try laundry("start", "snowy", "dry", now: "2026-11-21T08:20:00Z")
        try assertSucceeded(result, printing: "Snowy: dry started at 2026-11-21 09:20 (done at 10:20, cycle c-1042).")
        XCTAssertEqual(try laundryJSON(), try expected(pet: 0) { pet in
            pet["cycle"] = ["id": "c-1042", "machine": "left", "stage": "dry", "startedAt": "2026-11-21T08:20:00Z"]
        })
        try assertKeyOrder(["version", "note", "pets", "id", "name", "colour", "washMinutes", "dryMinutes",
                            "lastCompletedAt", "cycle", "machine", "stage", "startedAt", "tags", "deep"])
    }

    func testStartWashReplacesTheCycleWithANewOneNamedAfterNow() throws {
        try dir.write("laundry.json", userLaundry)
        let result = try laundry("start", "snowy", "wash", now: "2026-11-21T08:20:00Z")
        try assertSucceeded(result, printing:
            "Snowy: wash started at 2026-11-21 09:20 (done at 10:05, cycle c-20261121T082000Z).",
            "Snowy's wash, finished 5 min ago, replaced by a new one.")
        XCTAssertEqual(try laundryJSON(), try expected(pet: 0) { pet in
            pet["cycle"] = ["id": "c-20261121T082000Z", "stage": "wash", "startedAt": "2026-11-21T08:20:00Z"]
        })
        try assertKeyOrder(["version", "note", "pets", "colour", "lastCompletedAt", "cycle", "stage", "tags"])
    }

    func testStartDuringAnUnfinishedCycleSaysWhatItReplaces() throws {
        try dir.write("laundry.json", userLaundry.replacingOccurrences(
            of: #"{ "id": "rex", "name": "Rex","#,
            with: #"{ "id": "rex", "name": "Rex", "cycle": { "id": "c-7", "stage": "wash", "startedAt": "2026-11-21T08:08:00Z" },"#))
        let result = try laundry("start", "rex", "wash", now: "2026-11-21T08:20:00Z")
        try assertSucceeded(result, printing:
            "Rex: wash started at 2026-11-21 09:20 (done at 10:05, cycle c-20261121T082000Z).",
            "Rex's wash, started 12 min ago, replaced by a new one.")
        let fold = try laundry("fold", "rex", now: "2026-11-21T08:30:00Z")
        try assertSucceeded(fold, printing: "Rex: laundry folded at 2026-11-21 09:30; no cycle under way.",
                            "Rex's wash, started 10 min ago, cleared before it finished.")
    }

    func testStartOnAPetWithoutACycleUsesItsOwnDurationsAndName() throws {
        try dir.write("laundry.json", userLaundry)
        let result = try laundry("start", "rex", "dry", now: "2026-11-21T22:30:00Z")
        // Rex dries for the default 60 minutes, past local midnight: the date is shown.
        try assertSucceeded(result, printing:
            "Rex: dry started at 2026-11-21 23:30 (done at 2026-11-22 00:30, cycle c-20261121T223000Z).")
        XCTAssertEqual(try laundryJSON(), try expected(pet: 1) { pet in
            pet["cycle"] = ["id": "c-20261121T223000Z", "stage": "dry", "startedAt": "2026-11-21T22:30:00Z"]
        })
    }

    func testEditsOfTheExampleLaundryChangeOnlyWhatTheyChange() throws {
        let original = try String(contentsOf: RepositoryScript.root.appendingPathComponent("data/laundry.json"),
                                  encoding: .utf8)
        try dir.write("laundry.json", original)
        XCTAssertEqual(try laundry("start", "mochi", "wash", now: "2026-11-21T08:20:00Z").status, 0)
        let started = original.replacingOccurrences(
            of: #""lastCompletedAt": "2026-11-12T08:00:00Z" }"#,
            with: #""lastCompletedAt": "2026-11-12T08:00:00Z","# + "\n      "
                + #""cycle": { "id": "c-20261121T082000Z", "stage": "wash", "startedAt": "2026-11-21T08:20:00Z" } }"#)
        XCTAssertEqual(try dir.text("laundry.json"), started, "Mochi's cycle written like Snowy's")
        XCTAssertEqual(try laundry("fold", "snowy", now: "2026-11-21T12:00:00Z").status, 0)
        XCTAssertEqual(try dir.text("laundry.json"), started.replacingOccurrences(
            of: #""lastCompletedAt": "2026-11-14T18:00:00Z","# + "\n      "
                + #""cycle": { "id": "c-1042", "stage": "wash", "startedAt": "2026-11-21T10:30:00Z" } },"#,
            with: #""lastCompletedAt": "2026-11-21T12:00:00Z" },"#))
    }

    func testFoldSetsLastCompletedAtAndClearsTheCycle() throws {
        try dir.write("laundry.json", userLaundry)
        let result = try laundry("fold", "snowy", now: "2026-11-21T10:00:00Z")
        try assertSucceeded(result, printing: "Snowy: laundry folded at 2026-11-21 11:00; no cycle under way.")
        XCTAssertEqual(try laundryJSON(), try expected(pet: 0) { pet in
            pet["lastCompletedAt"] = "2026-11-21T10:00:00Z"
            pet["cycle"] = nil
        })
        try assertKeyOrder(["version", "note", "pets", "colour", "dryMinutes", "lastCompletedAt", "tags"])
    }

    func testStopRemovesOnlyTheCycle() throws {
        try dir.write("laundry.json", userLaundry)
        let result = try laundry("stop", "snowy", now: "2026-11-21T08:10:00Z")
        try assertSucceeded(result, printing:
            "Snowy: cycle stopped at 2026-11-21 09:10; its notifications will not be delivered.")
        XCTAssertEqual(try laundryJSON(), try expected(pet: 0) { pet in pet["cycle"] = nil })
        try assertKeyOrder(["version", "note", "pets", "colour", "lastCompletedAt", "tags"])
    }

    func testStopWithoutACycleLeavesTheFileAlone() throws {
        try dir.write("laundry.json", userLaundry)
        let before = try dir.snapshot()
        let result = try laundry("stop", "rex", now: "2026-11-21T08:10:00Z")
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdoutLines, ["Rex: no cycle under way; nothing to stop."], result.summary)
        XCTAssertEqual(try dir.snapshot()["laundry.json"], before["laundry.json"])
    }

    // MARK: - Errors

    func testWrongWordsExit64WithUsageAndTouchNothing() throws {
        try dir.write("laundry.json", userLaundry)
        let before = try dir.data("laundry.json")
        let cases: [(arguments: [String], stderrContains: String)] = [
            (["laundry"], "wrong number of arguments; usage: nudge laundry start PET wash|dry"),
            (["laundry", "start"], "wrong number of arguments"),
            (["laundry", "start", "snowy"], "start needs a pet and a stage (wash or dry); usage: nudge laundry"),
            (["laundry", "start", "snowy", "rinse"], "\"rinse\" is not a stage (expected wash or dry)"),
            (["laundry", "fold", "snowy", "wash"], "fold takes only a pet"),
            (["laundry", "stop", "snowy", "dry"], "stop takes only a pet"),
            (["laundry", "wash", "snowy"], "unknown action \"wash\" (expected start, fold or stop)"),
            (["laundry", "start", "snowy", "wash", "extra"], "wrong number of arguments"),
            (["laundry", "fold", "snowy", "--at", "2026-11-21T08:00:00Z"], "unknown option '--at'"),
            (["laundry", "fold", "snowy", "--now", "soon"], "--now expects a time such as 19:30"),
        ]
        for (arguments, expected) in cases {
            let result = try NudgeProcess.run(arguments + ["--data", dir.path], workingDirectory: dir.url)
            XCTAssertEqual(result.status, 64, result.summary)
            XCTAssertEqual(result.stdout, "", result.summary)
            XCTAssertTrue(result.stderr.contains(expected), "stderr lacks \"\(expected)\"\n" + result.summary)
        }
        XCTAssertEqual(try dir.data("laundry.json"), before)
        XCTAssertFalse(dir.exists(".lock"), "a usage error must not even take the lock")
    }

    func testUnknownPetExits65NamingThePetAndTheKnownOnes() throws {
        try dir.write("laundry.json", userLaundry)
        let before = try dir.data("laundry.json")
        let result = try laundry("fold", "fluffy", now: "2026-11-21T10:00:00Z")
        XCTAssertEqual(result.status, 65, result.summary)
        XCTAssertEqual(result.stdout, "", result.summary)
        XCTAssertEqual(result.stderrLines, ["\(dir.path)/laundry.json: unknown pet \"fluffy\" (known: snowy, rex)"])
        XCTAssertEqual(try dir.data("laundry.json"), before)
    }

    func testMissingLaundryFileExits65AndCreatesNothing() throws {
        let result = try laundry("start", "snowy", "wash", now: "2026-11-21T08:00:00Z")
        XCTAssertEqual(result.status, 65, result.summary)
        XCTAssertEqual(result.stdout, "", result.summary)
        XCTAssertEqual(result.stderrLines, ["\(dir.path)/laundry.json: no such file, so there are no pets; "
            + "add {\"pets\": [{\"id\": \"snowy\"}]} to it first"])
        XCTAssertFalse(dir.exists("laundry.json"))
    }

    func testBrokenLaundryFileExits65WithLineAndColumnAndStaysUntouched() throws {
        let broken = "{ \"pets\": [\n  { \"id\": \"snowy\", }\n] }\n"
        try dir.write("laundry.json", broken)
        let result = try laundry("start", "snowy", "wash", now: "2026-11-21T08:00:00Z")
        XCTAssertEqual(result.status, 65, result.summary)
        XCTAssertEqual(result.stdout, "", result.summary)
        XCTAssertEqual(result.stderrLines,
                       ["\(dir.path)/laundry.json:2:18: trailing comma before '}': JSON allows no comma after the last member (remove it)"])
        XCTAssertEqual(try dir.text("laundry.json"), broken)
    }

    func testInvalidValueExits65WithItsKeyPathAndStaysUntouched() throws {
        let invalid = "{ \"pets\": [ { \"id\": \"rex\" }, { \"id\": \"snowy\", \"dryMinutes\": 2000 } ] }\n"
        try dir.write("laundry.json", invalid)
        let result = try laundry("start", "snowy", "dry", now: "2026-11-21T08:00:00Z")
        XCTAssertEqual(result.status, 65, result.summary)
        XCTAssertTrue(result.stderr.hasPrefix("\(dir.path)/laundry.json: pets[1].dryMinutes: "), result.summary)
        XCTAssertEqual(try dir.text("laundry.json"), invalid)
    }

    // MARK: - The lock

    /// Takes an exclusive flock on `<dir>/.lock`, as a running `nudge run` would; returns its release.
    private func holdLock() throws -> @Sendable () -> Void {
        let descriptor = open(dir.fileURL(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        return {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    func testEditWaitsForARunToReleaseTheLock() throws {
        try dir.write("laundry.json", userLaundry)
        let before = try dir.data("laundry.json")
        let release = try holdLock()
        let edit = try NudgeProcess(["laundry", "stop", "snowy", "--data", dir.path, "--now", "2026-11-21T08:10:00Z"],
                                    workingDirectory: dir.url)
        try Waiting.until("the edit to open the lock") { edit.hasOpen(dir.fileURL(".lock").path) || !edit.isRunning }
        XCTAssertTrue(edit.isRunning, "the edit did not wait for the held lock")
        XCTAssertEqual(try dir.data("laundry.json"), before, "edited while the lock was held")
        release()
        let result = try edit.waitForExit()
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(try laundryJSON(), try expected(pet: 0) { pet in pet["cycle"] = nil })
    }

    func testEditGivesUpAfterTenSecondsWithExit75() throws {
        try dir.write("laundry.json", userLaundry)
        let before = try dir.data("laundry.json")
        let release = try holdLock()
        defer { release() }
        let result = try laundry("fold", "snowy", now: "2026-11-21T10:00:00Z")
        XCTAssertEqual(result.status, 75, result.summary)
        XCTAssertEqual(result.stdout, "", result.summary)
        XCTAssertEqual(result.stderrLines.count, 1, result.summary)
        XCTAssertTrue(result.stderr.hasPrefix("nudge: another nudge is working on \(dir.path) after waiting 10 s"),
                      result.summary)
        XCTAssertGreaterThanOrEqual(result.elapsed, 9.5, result.summary)
        XCTAssertEqual(try dir.data("laundry.json"), before)
    }

    // MARK: - With `nudge run`

    func testWashDryFoldFlowDeliversEachStageOnceAndNoFoldReminder() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", """
        { "note": "kept", "pets": [ { "id": "snowy", "name": "Snowy", "colour": "white" } ] }

        """)
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])

        let id = "c-20261121T080000Z"
        try assertSucceeded(try laundry("start", "snowy", "wash", now: "2026-11-21T08:00:00Z"),
                            printing: "Snowy: wash started at 2026-11-21 08:00 (done at 08:45, cycle \(id)).")
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["laundry.washComplete:snowy:\(id)"])
        assertRun(try dir.run(at: "2026-11-21T08:46:00Z"), delivers: ["laundry.washComplete:snowy:\(id)"])

        try assertSucceeded(try laundry("start", "snowy", "dry", now: "2026-11-21T08:50:00Z"),
                            printing: "Snowy: dry started at 2026-11-21 08:50 (done at 09:50, cycle \(id)).")
        assertRun(try dir.run(at: "2026-11-21T08:51:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["laundry.dryComplete:snowy:\(id)"])
        assertRun(try dir.run(at: "2026-11-21T09:51:00Z"), delivers: ["laundry.dryComplete:snowy:\(id)"])
        XCTAssertEqual(try dir.plannedIDs(), ["laundry.foldReminder:snowy:\(id)"])

        try assertSucceeded(try laundry("fold", "snowy", now: "2026-11-21T10:00:00Z"),
                            printing: "Snowy: laundry folded at 2026-11-21 10:00; no cycle under way.")
        assertRun(try dir.run(at: "2026-11-21T10:21:00Z"), delivers: [])
        // Only the health warning a week after folding is left.
        XCTAssertEqual(try dir.plannedIDs(), ["laundry.health:snowy:2026-11-21T10:00:00Z"])
        XCTAssertEqual(try dir.outboxIDs(), ["laundry.washComplete:snowy:\(id)", "laundry.dryComplete:snowy:\(id)"])
        XCTAssertEqual(try dir.json("laundry.json") as NSDictionary, [
            "note": "kept",
            "pets": [["id": "snowy", "name": "Snowy", "colour": "white", "lastCompletedAt": "2026-11-21T10:00:00Z"]],
        ] as NSDictionary)
    }

    func testStoppedCycleIsNeverDelivered() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        XCTAssertEqual(try laundry("start", "snowy", "wash", now: "2026-11-21T08:00:00Z").status, 0)
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["laundry.washComplete:snowy:c-20261121T080000Z"])
        XCTAssertEqual(try laundry("stop", "snowy", now: "2026-11-21T08:30:00Z").status, 0)
        assertRun(try dir.run(at: "2026-11-21T08:46:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [])
        XCTAssertEqual(try dir.outboxIDs(), [])
    }
}
