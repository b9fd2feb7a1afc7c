import Foundation
import XCTest

/// Exactly once through every channel (docs/promises.md): after a run that died or met a full disk before saving its
/// state, after the outbox was rotated, and whatever the clock did (issue 16, points 1, 2, 5, 6, 7).
final class ExactlyOnceTests: DataDirectoryTestCase {
    private let alarm = "alarm.prayer:fajr:2026-11-21"

    /// A desktop command that appends `NUDGE_ID NUDGE_BADGE` to `calls.log` in its own directory.
    private func settingsWithCommand(in directory: TemporaryDataDirectory) throws -> String {
        let script = directory.fileURL("record.sh")
        try Data("#!/bin/sh\nprintf '%s %s\\n' \"$NUDGE_ID\" \"$NUDGE_BADGE\" >> '\(directory.path)/calls.log'\n".utf8)
            .write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return #"{ "timeZone": "UTC", "deliver": { "command": ["\#(script.path)"] } }"#
    }

    private func calls(_ directory: TemporaryDataDirectory) -> [String] {
        ((try? directory.text("calls.log")) ?? "").split(separator: "\n").map(String.init)
    }

    // MARK: - 1. A run that died after its outbox line

    /// Every prefix of the save order (plan.json, outbox.jsonl, state.json) as a kill or a full disk leaves it:
    /// the next run must hand each delivery to the command exactly once and count it for the badge once.
    func testEveryChannelAndTheBadgeGetADeliveryOnceAfterAKillOrAFullDiskAtEachWrite() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", durationMinutes: 30))
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:15:00Z"))  // due 08:00
        try dir.write("settings.json", Fixture.settings())
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let before = try dir.snapshot()
        let due = [alarm, "laundry.washComplete:snowy:c-1"]
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: due)
        let after = try dir.snapshot()

        for steps in 0..<DataDirectoryTestCase.saveOrder.count {
            let copy = try directoryLeftByARunThatDied(after: steps, before: before, after: after)
            // The died run never reached its channels; the command is set up now to watch the next runs.
            try copy.write("settings.json", try settingsWithCommand(in: copy))
            _ = try copy.run(at: "2026-11-21T08:01:00Z")
            _ = try copy.run(at: "2026-11-21T08:02:00Z")
            XCTAssertEqual(try copy.outboxIDs().sorted(), due.sorted(), "died after \(steps) write(s)")
            XCTAssertEqual(calls(copy).map { String($0.split(separator: " ")[0]) }.sorted(), due.sorted(),
                           "died after \(steps) write(s): the command gets each delivery once")
            XCTAssertEqual(calls(copy).map { String($0.split(separator: " ")[1]) }.sorted(), ["1", "2"],
                           "NUDGE_BADGE counts each delivery")
            XCTAssertEqual(try copy.status()["badge"] as? Int, 2, "died after \(steps) write(s)")
        }
    }

    // MARK: - 2. A rotated outbox

    /// Each way a person or logrotate rotates a log, then a delivering run that dies before its state save:
    /// the run after it must not deliver those lines again, however long the new file has grown.
    func testEveryWayOfRotatingTheOutboxThenAKilledRunDeliversNothingTwice() throws {
        let rotations: [(String, (TemporaryDataDirectory) throws -> Void)] = [
            ("moved away", { try FileManager.default.moveItem(at: $0.fileURL("outbox.jsonl"),
                                                             to: $0.fileURL("outbox.jsonl.1")) }),
            ("deleted", { try $0.remove("outbox.jsonl") }),
            ("truncated in place", { try Data().write(to: $0.fileURL("outbox.jsonl")) }),
            ("copied and truncated (logrotate copytruncate)", { directory in
                try FileManager.default.copyItem(at: directory.fileURL("outbox.jsonl"),
                                                 to: directory.fileURL("outbox.jsonl.1"))
                let handle = try FileHandle(forWritingTo: directory.fileURL("outbox.jsonl"))
                try handle.truncate(atOffset: 0)
                try handle.close()
            }),
        ]
        for (way, rotate) in rotations {
            let copy = try makeDirectory()
            try copy.write("settings.json", Fixture.settings())
            // Two alarms a day: the first day fills the outbox with two lines, the second day's two lines in
            // the new file are as long as the old file was.
            try copy.write("alarms.json", """
                { "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": "08:00", "durationMinutes": 60 },
                              { "id": "dhuhr", "title": "Noon Prayer", "time": "08:00", "durationMinutes": 60 } ] }
                """)
            assertRun(try copy.run(at: "2026-11-21T07:59:00Z"), delivers: [])
            XCTAssertEqual(try copy.run(at: "2026-11-21T08:00:00Z").deliveredIDs().count, 2, way)
            assertRun(try copy.run(at: "2026-11-22T07:59:00Z"), delivers: [])
            try rotate(copy)
            let stateBefore = try copy.data("state.json")
            XCTAssertEqual(try copy.run(at: "2026-11-22T08:00:00Z").deliveredIDs().count, 2, way)
            try stateBefore.write(to: copy.fileURL("state.json"))  // killed before its state save
            assertRun(try copy.run(at: "2026-11-22T08:01:00Z"), delivers: [])
            assertRun(try copy.run(at: "2026-11-22T08:02:00Z"), delivers: [])
            XCTAssertEqual(try copy.outboxIDs(), ["alarm.prayer:dhuhr:2026-11-22", "alarm.prayer:fajr:2026-11-22"]
                .sorted(), way)
        }
    }

    // MARK: - 5, 6, 7. The clock set back

    func testAStepBackOfOneSecondReplaysNothingThatWasSeenOrSuppressed() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("streaks.json", """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 3 } ],
              "achievements": [ { "id": "a-1", "title": "Centurion", "description": "100 days",
                                  "unlockedAt": "2026-11-19T08:00:00Z" } ] }
            """)
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T06:00:00Z"))  // done 06:45
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])  // first run: both seen
        assertRun(try dir.run(at: "2026-11-21T06:59:59Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T07:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [])

        // An alarm suppressed while notifications were off stays silent once they are on again.
        try dir.write("alarms.json", Fixture.alarm(time: "07:30", durationMinutes: 60))
        try dir.write("settings.json", #"{ "timeZone": "UTC", "notifications": { "enabled": false } }"#)
        assertRun(try dir.run(at: "2026-11-21T07:30:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T07:40:00Z"), delivers: [])
        try dir.write("settings.json", Fixture.settings())
        assertRun(try dir.run(at: "2026-11-21T07:39:59Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T07:41:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [])
    }

    func testWhatWasMissedUnderAClockThatRanAheadRingsAndLeavesTheMissedList() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "09:30", durationMinutes: 15))
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        // The clock jumps a day ahead: today's 09:30 looks long expired and is recorded as missed, and told.
        assertRun(try dir.run(at: "2026-11-22T09:00:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (Sat 21 Nov 09:30)")
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 1)
        // Corrected: the alarm rings at its true time and is no longer missed.
        assertRun(try dir.run(at: "2026-11-21T09:01:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T09:30:00Z"), delivers: [alarm])
        let status = try dir.status()
        XCTAssertEqual(status["missedTotal"] as? Int, 0)
        XCTAssertEqual((status["recentMissed"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, [])
    }

    func testAClockSetBackMoreThanTwoDaysNeverDeliversTwice() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "09:30", durationMinutes: 60))  // expires 10:30
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T10:00:00Z"), delivers: [alarm])
        // Days of runs prune the ledger entry of the 21st (with the machine off in between: missed, and told)…
        assertRun(try dir.run(at: "2026-11-24T09:00:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (Sun 22 Nov 09:30), Morning Prayer Time (Mon 23 Nov 09:30)")
        assertRun(try dir.run(at: "2026-11-26T09:00:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (Tue 24 Nov 09:30), Morning Prayer Time (Wed 25 Nov 09:30)")
        XCTAssertNil((try dir.json("state.json")["ledger"] as? [String: Any])?[alarm], "pruned")
        // …then the clock is set back five days, to before the 21st's alarm, which its 09:30 passes again.
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T09:30:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T09:45:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-22T09:30:00Z"), delivers: ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(try dir.outboxIDs().filter { $0 == alarm }, [alarm])
    }

    func testAClockSetBackFarAfterARotationNeverDeliversTwice() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "09:30", durationMinutes: 60))
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T10:00:00Z"), delivers: [alarm])
        assertRun(try dir.run(at: "2026-11-26T09:00:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (Sun 22 Nov 09:30), Morning Prayer Time (Mon 23 Nov 09:30), "
                      + "Morning Prayer Time (Tue 24 Nov 09:30), Morning Prayer Time (Wed 25 Nov 09:30)")
        // logrotate (delaycompress) or `mv`: the 21st's line is only in outbox.jsonl.1 now.
        try FileManager.default.moveItem(at: dir.fileURL("outbox.jsonl"), to: dir.fileURL("outbox.jsonl.1"))
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T09:30:00Z"), delivers: [])
        XCTAssertFalse(dir.exists("outbox.jsonl"), "nothing was delivered again")
    }

    func testARotatedCopyEndingInATornLineDoesNotHideTheFirstLineOfTheOutbox() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "09:30", durationMinutes: 60))
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T10:00:00Z"), delivers: [alarm])
        assertRun(try dir.run(at: "2026-11-26T09:00:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (Sun 22 Nov 09:30), Morning Prayer Time (Mon 23 Nov 09:30), "
                      + "Morning Prayer Time (Tue 24 Nov 09:30), Morning Prayer Time (Wed 25 Nov 09:30)")
        // An older rotated copy whose last line was cut short, beside the outbox that holds the 21st's line.
        try dir.write("outbox.jsonl.1", #"{"id":"alarm.prayer:fajr:2026-11-01","kind":"al"#)
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T09:30:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDsButDigests(), [alarm])
    }

    // MARK: - A run killed while its channel program runs

    /// Sets up an 08:00 alarm whose desktop command is the shell script `body`, runs nudge at 08:00 and kills
    /// that run with SIGKILL as soon as the command's start is noted. Returns the killed run.
    private func killTheRunOnceItsCommandStarted(script body: String) throws -> NudgeProcess {
        let script = dir.fileURL("command.sh")
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try dir.write("settings.json", #"{ "timeZone": "UTC", "deliver": { "command": ["\#(script.path)"] } }"#)
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", durationMinutes: 60))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let run = try NudgeProcess(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                   workingDirectory: dir.url)
        let notes = dir.fileURL(".channel-starts").path
        let noted = { !((try? FileManager.default.contentsOfDirectory(atPath: notes)) ?? []).isEmpty }
        let deadline = Date().addingTimeInterval(10)
        while !noted() && Date() < deadline { usleep(2_000) }
        XCTAssertTrue(noted(), "the command's start was noted")
        run.kill()
        return run
    }

    /// Waits until the command of a killed run has ended: `nudge channel-exec` notes its outcome.
    private func waitForTheCommandToEnd() throws {
        let notes = dir.fileURL(".channel-starts")
        try Waiting.until("the command to end") {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: notes.path)) ?? []
            return names.contains { name in
                let text = (try? String(contentsOf: notes.appendingPathComponent(name), encoding: .utf8)) ?? ""
                return text.contains("\"outcome\"")
            }
        }
    }

    func testARunKilledWhileTheCommandRunsLeavesItRunningAndTheNextRunsNeverStartItAgain() throws {
        let log = dir.fileURL("calls.log").path
        let gate = try CommandGate(in: dir)
        // The command runs until the test opens the gate.
        let run = try killTheRunOnceItsCommandStarted(script: gate.shell + "\n"
            + "printf '%s\\n' \"$NUDGE_ID\" >> '\(log)'")
        let notes = dir.fileURL(".channel-starts").path

        // The command is still running on its own: the next run leaves it alone…
        assertRun(try dir.run(at: "2026-11-21T08:00:30Z"), delivers: [])
        XCTAssertEqual((try dir.json("state.json")["commandQueue"] as? [Any])?.count, 1, "still owed to the command")
        XCTAssertFalse(dir.exists("calls.log"), "the command was started again")
        try gate.release()
        try waitForTheCommandToEnd()
        // …and once it has finished, counts it as delivered instead of starting it again.
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:02:00Z"), delivers: [])
        XCTAssertEqual(try dir.text("calls.log"), alarm + "\n")
        XCTAssertEqual((try dir.json("state.json")["commandQueue"] as? [Any])?.count, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: notes), [], "notes settled")
        XCTAssertEqual(try run.waitForExit().status, SIGKILL, "killed")
    }

    func testACommandThatFailedWhileItsRunWasDeadIsRetriedNotCountedAsDelivered() throws {
        let log = dir.fileURL("calls.log").path
        let flag = dir.fileURL("failed-once").path
        let gate = try CommandGate(in: dir)
        // Fails on its first call, once the test opens the gate after the kill; succeeds afterwards.
        let run = try killTheRunOnceItsCommandStarted(script: gate.shell + "\n"
            + "printf '%s\\n' \"$NUDGE_ID\" >> '\(log)'\nif [ ! -e '\(flag)' ]; then touch '\(flag)'; exit 1; fi")
        try gate.release()
        try waitForTheCommandToEnd()   // the first call ends, with its failure noted

        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        let failures = try dir.json("state.json")["commandFailures"] as? [String] ?? []
        XCTAssertTrue(failures.last?.contains("exited with status 1 (the run that started it had stopped)") ?? false,
                      "\(failures)")
        assertRun(try dir.run(at: "2026-11-21T08:02:00Z"), delivers: [])   // the retry, which succeeds
        XCTAssertEqual(try dir.text("calls.log"), alarm + "\n" + alarm + "\n")
        XCTAssertEqual((try dir.json("state.json")["commandQueue"] as? [Any])?.count, 0)
        assertRun(try dir.run(at: "2026-11-21T08:03:00Z"), delivers: [])
        XCTAssertEqual(try dir.text("calls.log"), alarm + "\n" + alarm + "\n", "no third call")
        XCTAssertEqual(try run.waitForExit().status, SIGKILL)
    }

    /// The first run ever delivers two alarms and is killed while the command shows the first: state.json, saved
    /// before any channel program starts, tells the next run that the second is still owed to the command. From
    /// the outbox alone it would be history (no state.json yet), and the command would never get it.
    func testAFirstRunKilledWhileTheCommandRunsLeavesTheRestOfItsDeliveriesOwed() throws {
        let log = dir.fileURL("calls.log").path
        let gate = try CommandGate(in: dir)
        let script = dir.fileURL("command.sh")
        try Data(("#!/bin/sh\n" + gate.shell + "\n"
            + "printf '%s %s\\n' \"$NUDGE_ID\" \"$NUDGE_BADGE\" >> '\(log)'\n").utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try dir.write("settings.json", #"{ "timeZone": "UTC", "deliver": { "command": ["\#(script.path)"] } }"#)
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": "08:00", "durationMinutes": 60 },
                          { "id": "dhuhr", "title": "Noon Prayer", "time": "08:00", "durationMinutes": 60 } ] }
            """)
        let both = ["alarm.prayer:dhuhr:2026-11-21", alarm]
        let run = try NudgeProcess(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                   workingDirectory: dir.url)
        let notes = dir.fileURL(".channel-starts").path
        try Waiting.until("the command's start to be noted") {
            !((try? FileManager.default.contentsOfDirectory(atPath: notes)) ?? []).isEmpty
        }
        run.kill()
        XCTAssertEqual(try run.waitForExit().status, SIGKILL, "killed")
        XCTAssertEqual(try dir.outboxIDs().sorted(), both, "the first run delivered both")
        try gate.release()
        try waitForTheCommandToEnd()

        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:02:00Z"), delivers: [])
        XCTAssertEqual(calls(dir).map { String($0.split(separator: " ")[0]) }.sorted(), both,
                       "the command gets each delivery once")
        XCTAssertEqual(try dir.status()["badge"] as? Int, 2)
    }

    func testARunThatDiedJustBeforeARotationIsFinishedFromTheRotatedCopy() throws {
        try dir.write("settings.json", try settingsWithCommand(in: dir))
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", durationMinutes: 60))
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        try Data().write(to: dir.fileURL("calls.log"))
        let stateBefore = try dir.data("state.json")
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [alarm])
        // That run died after its outbox line and before its state and channels (simulated), then logrotate ran.
        try stateBefore.write(to: dir.fileURL("state.json"))
        try Data().write(to: dir.fileURL("calls.log"))
        try FileManager.default.moveItem(at: dir.fileURL("outbox.jsonl"), to: dir.fileURL("outbox.jsonl.1"))
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:02:00Z"), delivers: [])
        XCTAssertEqual(calls(dir).map { String($0.split(separator: " ")[0]) }, [alarm], "the command got it once")
        XCTAssertEqual(try dir.status()["badge"] as? Int, 1)
    }
}

/// Where a test's command waits until the test lets it go on, without polling: a FIFO that `read` blocks on. Once
/// released it is a plain file, which later calls of the command read at once.
private struct CommandGate {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    let path: String

    init(in dir: TemporaryDataDirectory) throws {
        path = dir.fileURL("gate").path
        guard mkfifo(path, 0o600) == 0 else { throw Problem(description: "mkfifo \(path): errno \(errno)") }
    }

    /// The line of the command's script that waits at the gate.
    var shell: String { "read _ < '\(path)'" }

    /// Lets the waiting command go on once it waits at the gate (its start is noted before its script reaches
    /// the `read`); fails, rather than hangs, when no command comes to wait there.
    func release() throws {
        var writer: Int32 = -1
        try Waiting.until("a command to wait at the gate") {
            writer = open(path, O_WRONLY | O_NONBLOCK)   // ENXIO while nothing has the FIFO open to read
            guard writer < 0, errno == ENXIO else { return true }
            return false
        }
        guard writer >= 0 else { throw Problem(description: "opening the gate: errno \(errno)") }
        let written = write(writer, "go\n", 3)
        close(writer)
        guard written == 3 else { throw Problem(description: "writing to the gate: errno \(errno)") }
        try FileManager.default.removeItem(atPath: path)
        try Data("go\n".utf8).write(to: URL(fileURLWithPath: path))
    }
}
