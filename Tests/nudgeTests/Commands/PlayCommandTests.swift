import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `nudge play GAME [--at T] [--add]` (docs/design.md, "The lock"): appends a play to streaks.json under the lock,
/// atomically with mode 0600, keeping every other key of the user's file; an unknown game or a broken file
/// exits 65 and leaves the file as it was.
final class PlayCommandTests: DataDirectoryTestCase {
    /// `nudge play ARGUMENTS… --data DIR --now NOW`.
    @discardableResult
    private func play(_ arguments: String..., now: String = "2026-11-20T07:30:00Z") throws -> NudgeResult {
        try NudgeProcess.run(["play"] + arguments + ["--data", dir.path, "--now", now], workingDirectory: dir.url)
    }

    /// The `plays` of streaks.json as (game, at) pairs.
    private func plays(file: StaticString = #filePath, line: UInt = #line) throws -> [[String]] {
        let plays = try XCTUnwrap(try dir.json("streaks.json")["plays"] as? [[String: Any]], file: file, line: line)
        return plays.map { [$0["game"] as? String ?? "<none>", $0["at"] as? String ?? "<none>"] }
    }

    private let simple = """
        { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 } ],
          "plays": [ { "game": "wordle", "at": "2026-11-19T19:42:11Z" } ] }

        """

    // MARK: - Round trip

    func testPlayKeepsEveryOtherKeyInOrderAndAppendsThePlayWithoutChangingTheStreak() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("streaks.json", """
            {
                "version": 1,
                "theme": "dark",
                "games": [
                    { "id": "wordle", "name": "Wordle", "color": "green", "streak": 12, "tags": ["daily", "words"] },
                    { "id": "mini", "name": "Mini ✓", "streak": 3, "best": { "seconds": 41, "ratio": 0.75 } }
                ],
                "plays": [ { "game": "wordle", "at": "2026-11-19T19:42:11Z", "score": "4/6" } ],
                "notes": "keep \\"this\\" line",
                "achievements": [],
                "zebra": null
            }

            """)

        let result = try play("mini", now: "2026-11-20T07:30:00Z")
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdoutLines, ["Recorded a play of mini at 2026-11-20 08:30."])

        // Values, unknown keys included, are all still there.
        let document = try dir.json("streaks.json")
        XCTAssertEqual(document["version"] as? Int, 1)
        XCTAssertEqual(document["theme"] as? String, "dark")
        XCTAssertEqual(document["notes"] as? String, "keep \"this\" line")
        XCTAssertTrue(document["zebra"] is NSNull)
        XCTAssertEqual((document["achievements"] as? [Any])?.count, 0)
        let games = try XCTUnwrap(document["games"] as? [[String: Any]])
        XCTAssertEqual(games.count, 2)
        XCTAssertEqual(games[0]["color"] as? String, "green")
        XCTAssertEqual(games[0]["tags"] as? [String], ["daily", "words"])
        XCTAssertEqual(games[0]["streak"] as? Int, 12)
        XCTAssertEqual(games[1]["name"] as? String, "Mini ✓")
        XCTAssertEqual(games[1]["streak"] as? Int, 3)
        let best = try XCTUnwrap(games[1]["best"] as? [String: Any])
        XCTAssertEqual(best["seconds"] as? Int, 41)
        XCTAssertEqual(best["ratio"] as? Double, 0.75)
        let plays = try XCTUnwrap(document["plays"] as? [[String: Any]])
        XCTAssertEqual(plays.count, 2)
        XCTAssertEqual(plays[0]["score"] as? String, "4/6")
        XCTAssertEqual(try self.plays(), [["wordle", "2026-11-19T19:42:11Z"], ["mini", "2026-11-20T07:30:00Z"]])

        // Only the new play is new: every other byte is as the person wrote it (docs/promises.md).
        XCTAssertEqual(try dir.text("streaks.json"), """
            {
                "version": 1,
                "theme": "dark",
                "games": [
                    { "id": "wordle", "name": "Wordle", "color": "green", "streak": 12, "tags": ["daily", "words"] },
                    { "id": "mini", "name": "Mini ✓", "streak": 3, "best": { "seconds": 41, "ratio": 0.75 } }
                ],
                "plays": [ { "game": "wordle", "at": "2026-11-19T19:42:11Z", "score": "4/6" }, { "game": "mini", "at": "2026-11-20T07:30:00Z" } ],
                "notes": "keep \\"this\\" line",
                "achievements": [],
                "zebra": null
            }

            """)

        // A second play is appended after the first, the streaks still untouched.
        XCTAssertEqual(try play("wordle", now: "2026-11-20T19:00:00Z").status, 0)
        XCTAssertEqual(try self.plays(), [["wordle", "2026-11-19T19:42:11Z"], ["mini", "2026-11-20T07:30:00Z"],
                                          ["wordle", "2026-11-20T19:00:00Z"]])
        let after = try XCTUnwrap(try dir.json("streaks.json")["games"] as? [[String: Any]])
        XCTAssertEqual(after.map { $0["streak"] as? Int }, [12, 3])
    }

    func testPlayOnTheExampleStreaksChangesOnlyTheLinesOfTheNewPlay() throws {
        let original = try String(contentsOf: RepositoryScript.root.appendingPathComponent("data/streaks.json"),
                                  encoding: .utf8)
        try dir.write("streaks.json", original)
        let result = try play("wordle", now: "2026-11-21T18:30:00Z")
        XCTAssertEqual(result.status, 0, result.summary)
        let last = #"    { "game": "connections", "at": "2026-11-20T19:00:00Z" }"#
        XCTAssertEqual(try dir.text("streaks.json"), original.replacingOccurrences(
            of: last + "\n", with: last + ",\n" + #"    { "game": "wordle", "at": "2026-11-21T18:30:00Z" }"# + "\n"))
    }

    func testPlayWithoutPlaysKeyAddsIt() throws {
        try dir.write("streaks.json", #"{ "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 } ] }"#)
        XCTAssertEqual(try play("wordle", now: "2026-11-20T07:30:00Z").status, 0)
        XCTAssertEqual(try plays(), [["wordle", "2026-11-20T07:30:00Z"]])
        let games = try XCTUnwrap(try dir.json("streaks.json")["games"] as? [[String: Any]])
        XCTAssertEqual(games.map { $0["streak"] as? Int }, [12])
    }

    // MARK: - Games

    func testUnknownGameExits65AndLeavesTheFileByteForByte() throws {
        try dir.write("streaks.json", simple)
        let before = try dir.data("streaks.json")

        let result = try play("chess")
        XCTAssertEqual(result.status, 65, result.summary)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderrLines,
                       ["\(dir.path)/streaks.json: unknown game \"chess\" (known: wordle); pass --add to add it"])
        XCTAssertEqual(try dir.data("streaks.json"), before)
        XCTAssertFalse(dir.exists("plan.json"))
    }

    func testUnknownGameWithoutStreaksFileExits65AndCreatesNoFile() throws {
        let result = try play("chess")
        XCTAssertEqual(result.status, 65, result.summary)
        XCTAssertFalse(dir.exists("streaks.json"))
    }

    func testAddAddsTheGameWithoutAStreakAndRecordsThePlay() throws {
        try dir.write("streaks.json", simple)

        let result = try play("chess", "--add", now: "2026-11-20T07:30:00Z")
        XCTAssertEqual(result.status, 0, result.summary)
        let games = try XCTUnwrap(try dir.json("streaks.json")["games"] as? [[String: Any]])
        XCTAssertEqual(games.map { $0["id"] as? String }, ["wordle", "chess"])
        XCTAssertEqual(games.map { $0["name"] as? String }, ["Wordle", "chess"])
        XCTAssertEqual(games.map { $0["streak"] as? Int }, [12, nil])
        XCTAssertEqual(Set(games[1].keys), ["id", "name"], "no streak: it is derived from the plays")
        XCTAssertEqual(try plays(), [["wordle", "2026-11-19T19:42:11Z"], ["chess", "2026-11-20T07:30:00Z"]])

        // --add for a game that is already there adds nothing but the play.
        XCTAssertEqual(try play("chess", "--add", now: "2026-11-21T07:30:00Z").status, 0)
        let again = try XCTUnwrap(try dir.json("streaks.json")["games"] as? [[String: Any]])
        XCTAssertEqual(again.map { $0["id"] as? String }, ["wordle", "chess"])
        XCTAssertEqual(try plays().count, 3)
    }

    func testAddWithoutStreaksFileCreatesIt() throws {
        let result = try play("wordle", "--add", now: "2026-11-20T07:30:00Z")
        XCTAssertEqual(result.status, 0, result.summary)
        let games = try XCTUnwrap(try dir.json("streaks.json")["games"] as? [[String: Any]])
        XCTAssertEqual(games.map { $0["id"] as? String }, ["wordle"])
        XCTAssertEqual(games.map { Set($0.keys) }, [["id", "name"]])
        XCTAssertEqual(try plays(), [["wordle", "2026-11-20T07:30:00Z"]])
        XCTAssertEqual(try dir.mode("streaks.json"), 0o600, "a file nudge creates holds personal data")
    }

    // MARK: - --at

    func testAtRecordsThatInstantInUTC() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("streaks.json", simple)

        let result = try play("wordle", "--at", "2026-11-20T21:42:11+01:00", now: "2026-11-21T09:00:00Z")
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdoutLines, ["Recorded a play of wordle at 2026-11-20 21:42."])
        XCTAssertEqual(try plays(), [["wordle", "2026-11-19T19:42:11Z"], ["wordle", "2026-11-20T20:42:11Z"]])

        // Without --at the play is at --now.
        XCTAssertEqual(try play("wordle", now: "2026-11-21T09:00:00Z").status, 0)
        XCTAssertEqual(try plays().last, ["wordle", "2026-11-21T09:00:00Z"])
    }

    func testMalformedAtIsAUsageErrorAndChangesNothing() throws {
        try dir.write("streaks.json", simple)
        let before = try dir.data("streaks.json")
        let result = try play("wordle", "--at", "yesterday evening")
        XCTAssertEqual(result.status, 64, result.summary)
        XCTAssertEqual(try dir.data("streaks.json"), before)
    }

    func testAtOutsideTheAcceptedYearsIsAUsageErrorNamingAt() throws {
        try dir.write("streaks.json", simple)
        let before = try dir.data("streaks.json")
        let result = try play("wordle", "--at", "1999-01-01T00:00:00Z")
        XCTAssertEqual(result.status, 64, result.summary)
        XCTAssertTrue(result.stderr.contains("--at expects a time such as 19:30 (today)")
                      && result.stderr.contains("between the years 2000 and 2200"),
                      result.summary)
        XCTAssertEqual(try dir.data("streaks.json"), before)
    }

    // MARK: - Broken file

    func testBrokenStreaksFileExits65WithLineAndColumnAndIsLeftUntouched() throws {
        // Line 2 misses the comma before "at" (column 33), where column 32 is.
        let broken = """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 } ],
              "plays": [ { "game": "wordle" "at": "2026-11-19T19:42:11Z" } ] }

            """
        try dir.write("streaks.json", broken)
        let before = try dir.snapshot()

        let result = try play("wordle", "--add")
        XCTAssertEqual(result.status, 65, result.summary)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderrLines.contains { $0 == "\(dir.path)/streaks.json:2:32: missing ',' between object members (the next one starts at 2:33)" }, result.summary)
        XCTAssertEqual(try dir.data("streaks.json"), Data(broken.utf8))
        XCTAssertEqual(try dir.snapshot()["streaks.json"], before["streaks.json"])
    }

    func testInvalidValueInStreaksFileExits65WithItsKeyPathAndIsLeftUntouched() throws {
        let invalid = """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 } ],
              "plays": [ { "game": "wordle", "at": "last tuesday" } ] }

            """
        try dir.write("streaks.json", invalid)

        let result = try play("wordle")
        XCTAssertEqual(result.status, 65, result.summary)
        XCTAssertTrue(result.stderrLines.contains { $0.hasPrefix("\(dir.path)/streaks.json: plays[0].at: ") },
                      result.summary)
        XCTAssertEqual(try dir.data("streaks.json"), Data(invalid.utf8))
    }

    // MARK: - Files and the lock

    /// The person's 0644 stays 0644 (docs/promises.md; it was made 0600 before); nudge's own files
    /// are 0600.
    func testAnEditKeepsTheFilesModeNudgesOwnFilesAre0600AndNoTemporaryFileRemains() throws {
        try dir.write("streaks.json", simple)
        try FileManager.default.setAttributes([.posixPermissions: 0o644],
                                              ofItemAtPath: dir.fileURL("streaks.json").path)

        XCTAssertEqual(try play("wordle").status, 0)
        // The play re-plans under the same lock, so nudge's own files are written beside it (docs/design.md,
        // "The lock").
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(names, [".last-good", ".lock", "plan.json", "state.json", "streaks.json"])
        XCTAssertEqual(try dir.mode("streaks.json"), 0o644)
        for name in ["plan.json", "state.json"] {
            XCTAssertEqual(try dir.mode(name), 0o600, name)
        }
    }

    func testConcurrentPlaysAreAllRecorded() throws {
        try dir.write("streaks.json", simple)
        let instants = (0..<6).map { "2026-11-20T1\($0):00:00Z" }
        let processes = try instants.map { at in
            try NudgeProcess(["play", "wordle", "--at", at, "--data", dir.path, "--now", "2026-11-20T20:00:00Z"],
                             workingDirectory: dir.url)
        }
        for process in processes {
            let result = try process.waitForExit()
            XCTAssertEqual(result.status, 0, result.summary)
        }
        let recorded = try plays().map { $0[1] }
        XCTAssertEqual(recorded.count, 7, "a play was lost: \(recorded)")
        XCTAssertEqual(Set(recorded), Set(["2026-11-19T19:42:11Z"] + instants))
        XCTAssertEqual(recorded.first, "2026-11-19T19:42:11Z")
    }

    func testPlayWaitsAboutTenSecondsForAHeldLockThenExits75() throws {
        try dir.write("streaks.json", simple)
        let before = try dir.data("streaks.json")
        let lockPath = dir.fileURL(".lock").path

        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [lockPath, "sleep", "12"]
        holder.standardInput = FileHandle.nullDevice
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer { holder.waitUntilExit() }
        try waitUntilLocked(lockPath)

        let result = try play("wordle")
        XCTAssertEqual(result.status, 75, result.summary)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderrLines.count, 1, result.summary)
        XCTAssertTrue(result.stderr.contains(dir.path), result.summary)
        XCTAssertGreaterThanOrEqual(result.elapsed, 9.5, "gave up before waiting 10 s")
        XCTAssertLessThan(result.elapsed, 11.5, "waited far longer than 10 s")
        XCTAssertEqual(try dir.data("streaks.json"), before)
    }

    /// Waits (up to 5 s) until another process holds an exclusive flock on `path`.
    private func waitUntilLocked(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                let free = flock(descriptor, LOCK_EX | LOCK_NB) == 0
                if free { flock(descriptor, LOCK_UN) }
                close(descriptor)
                if !free { return }
            }
            usleep(20_000)
        }
        XCTFail("flock never took \(path)", file: file, line: line)
    }
}
