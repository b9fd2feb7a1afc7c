import Foundation
import XCTest

/// Exactly once through crashes, concurrent runs and unwritable files (docs/promises.md, exactly once).
final class RecoveryTests: DataDirectoryTestCase {
    private let alarm = "alarm.prayer:fajr:2026-11-21"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", durationMinutes: 60))
    }

    func testRunKilledAfterAppendingTheOutboxIsFinishedByTheNextRunWithoutRedelivery() throws {
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let stateBefore = try dir.data("state.json")
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [alarm])

        // As if that run died after the outbox append, before state.json was replaced.
        try stateBefore.write(to: dir.fileURL("state.json"))
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:02:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [alarm])
        XCTAssertEqual(try dir.status()["deliveredTotal"] as? Int, 1)
    }

    func testTornOutboxLineIsCutAndTheNotificationDeliveredOnce() throws {
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let stateBefore = try dir.data("state.json")
        let delivered = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(delivered, delivers: [alarm])

        // As if that run died in the middle of writing its outbox line.
        try stateBefore.write(to: dir.fileURL("state.json"))
        try dir.data("outbox.jsonl").prefix(100).write(to: dir.fileURL("outbox.jsonl"))
        let retry = try dir.run(at: "2026-11-21T08:01:00Z")
        assertRun(retry, delivers: [alarm])
        XCTAssertEqual(retry.jsonLines().first?["lateSeconds"] as? Int, 60)
        XCTAssertEqual(try dir.outboxIDs(), [alarm])
        XCTAssertEqual(try dir.text("outbox.jsonl"), retry.stdout)
        assertRun(try dir.run(at: "2026-11-21T08:02:00Z"), delivers: [])
    }

    func testDeletedStateDoesNotReplayWhatTheOutboxRecords() throws {
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [alarm])
        try dir.remove("state.json")
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:05:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [alarm])
    }

    func testConcurrentRunsDeliverExactlyOnce() throws {
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let processes = try (0..<6).map { _ in
            try NudgeProcess(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:00Z", "--wait", "10"],
                             workingDirectory: dir.url)
        }
        let results = try processes.map { try $0.waitForExit() }
        for result in results {
            XCTAssertEqual(result.status, 0, result.summary)
        }
        XCTAssertEqual(results.flatMap { $0.deliveredIDs() }, [alarm])
        XCTAssertEqual(try dir.outboxIDs(), [alarm])
    }

    func testConcurrentRunsWithoutWaitEitherExit75OrDeliverOnce() throws {
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let processes = try (0..<6).map { _ in
            try NudgeProcess(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                             workingDirectory: dir.url)
        }
        let results = try processes.map { try $0.waitForExit() }
        for result in results {
            XCTAssertTrue([0, 75].contains(result.status), result.summary)
        }
        XCTAssertEqual(results.flatMap { $0.deliveredIDs() }, [alarm])
        XCTAssertEqual(try dir.outboxIDs(), [alarm])
    }

    func testUnwritablePlanExits73AndDeliversNothingUntilFixed() throws {
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        // Root ignores permissions, so make the rename fail instead: plan.json is a directory.
        try dir.remove("plan.json")
        try FileManager.default.createDirectory(at: dir.fileURL("plan.json"), withIntermediateDirectories: false)
        let stateBefore = try dir.data("state.json")

        let failed = try dir.run(at: "2026-11-21T08:00:00Z")
        XCTAssertEqual(failed.status, 73, failed.summary)
        XCTAssertEqual(failed.stdout, "")
        XCTAssertTrue(failed.stderr.contains("\(dir.path)/plan.json"), failed.summary)
        XCTAssertFalse(dir.exists("outbox.jsonl"))
        XCTAssertEqual(try dir.data("state.json"), stateBefore)

        // Fixed: the alarm, not delivered by the failed run, is delivered now, once.
        try dir.remove("plan.json")
        let fixed = try dir.run(at: "2026-11-21T08:01:00Z")
        assertRun(fixed, delivers: [alarm])
        XCTAssertEqual(fixed.jsonLines().first?["lateSeconds"] as? Int, 60)
        XCTAssertEqual(try dir.outboxIDs(), [alarm])
    }

    func testDamagedStateJSONExits65AndTouchesNothing() throws {
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        try dir.write("state.json", "{ \"lastRunAt\": 5 ")
        let before = try dir.snapshot()

        let result = try dir.run(at: "2026-11-21T08:00:00Z")
        XCTAssertEqual(result.status, 65, result.summary)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderrLines.first?.hasPrefix("\(dir.path)/state.json:") == true, result.summary)
        let after = try dir.snapshot()
        XCTAssertEqual(after.keys.sorted(), before.keys.sorted())
        for name in ["state.json", "plan.json", "alarms.json", "settings.json"] {
            XCTAssertEqual(after[name]?.content, before[name]?.content, "\(name) changed")
        }
        XCTAssertFalse(dir.exists("outbox.jsonl"))
    }

    func testManyDeliveriesInOneRunAreAllPrintedAndRecorded() throws {
        let alarms = (0..<200).map { index in
            "{ \"id\": \"a\(index)\", \"title\": \"Alarm \(index)\", \"time\": \"08:00\" }"
        }
        try dir.write("alarms.json", "{ \"alarms\": [\n" + alarms.joined(separator: ",\n") + "\n] }\n")
        let result = try dir.run(at: "2026-11-21T08:00:00Z")
        XCTAssertEqual(result.status, 0, result.summary)
        let ids = result.deliveredIDs()
        XCTAssertEqual(ids.count, 200)
        XCTAssertEqual(ids, (0..<200).map { "alarm.prayer:a\($0):2026-11-21" }.sorted())
        XCTAssertEqual(try dir.outboxLines(), result.stdoutLines)
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
    }
}
