import Foundation
import XCTest

/// A crash at any instant loses and repeats nothing (docs/promises.md, exactly once; docs/design.md, "Writing files").
///
/// The bounded variant of `scripts/crash-test.sh`: about 40 simulated cron runs, 40 % of them killed with SIGKILL
/// at a random instant (half of the kills aimed at the measured write phase), then every file must parse and
/// every occurrence that a completed run reached must be in `outbox.jsonl` exactly once. The full run is
/// `scripts/crash-test.sh 300`.
final class CrashTests: DataDirectoryTestCase {
    func testFortyCronRunsWithRandomKillsDeliverEveryDueOccurrenceExactlyOnce() throws {
        // 40 runs 15 simulated minutes apart: 10 hours holding about 60 occurrences.
        let run = try RepositoryScript.run("crash-test.sh", ["40"],
                                           environment: ["CRASH_STEP_MINUTES": "15", "CRASH_KILL_SHARE": "0.4"])
        let report = run.output   // has the seed, to replay a failure with CRASH_SEED=…
        print(report)

        XCTAssertEqual(run.int("duplicates"), 0, report)
        XCTAssertEqual(run.int("lost"), 0, report)
        XCTAssertEqual(run.int("unparsable"), 0, report)
        XCTAssertEqual(run.int("unexpected"), 0, report)
        XCTAssertEqual(run.int("outsideWindow"), 0, report)
        XCTAssertEqual(run.int("unkilledFailures"), 0, report)
        // The channel after the outbox and the badge: every delivery once, also across kills.
        XCTAssertEqual(run.int("commandLost"), 0, report)
        XCTAssertEqual(run.int("commandDuplicates"), 0, report)
        XCTAssertGreaterThan(run.int("commandCalls") ?? 0, 40, report)
        XCTAssertEqual(run.int("badge"), run.int("badgeExpected"), report)
        // Every run removes what a killed one left (README: "none is left"); the test below stages such files.
        XCTAssertEqual((run.summary["leftoverTemporaryFiles"] as? [Any])?.count, 0, report)
        XCTAssertEqual(run.int("violations"), 0, report)
        XCTAssertEqual(run.status, 0, report)
        // The test really tested something.
        XCTAssertGreaterThan(run.int("killsLanded") ?? 0, 0, report)
        XCTAssertGreaterThan(run.int("deliveries") ?? 0, 40, report)
        // Every expected occurrence is delivered; a run killed after its outbox append may deliver a few more.
        XCTAssertGreaterThanOrEqual(run.int("deliveries") ?? 0, run.int("expected") ?? .max, report)
    }

    /// A run killed between creating its temporary file and renaming it leaves `.<name>.tmp-<pid>` behind. The
    /// next run holds the lock, so no other nudge can be writing: it must remove them (the next run
    /// finishes the job), or every crash leaves a copy of personal data in the directory for good.
    func testTemporaryFilesOfAKilledRunAreRemovedByTheNextRun() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", durationMinutes: 30))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        try FileManager.default.createDirectory(at: dir.fileURL(".last-good"), withIntermediateDirectories: true)
        // What a run with pid 4194301 killed inside AtomicFile.write leaves behind (it does not run any more).
        let leftovers = [".plan.json.tmp-4194301", ".state.json.tmp-4194301", ".last-good/.alarms.json.tmp-4194301"]
        for name in leftovers {
            try dir.write(name, "{ \"half\": ")
        }

        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: ["alarm.prayer:fajr:2026-11-21"])
        for name in leftovers {
            XCTAssertFalse(dir.exists(name), "\(name) of a killed run is still there after the next run")
        }
    }

    /// A run killed at any of the points between its writes: simulated by restoring the files as they were at
    /// that point, which `RecoveryTests` does for the outbox; here for every step of the save order.
    func testEveryIntermediateStateOfTheSaveOrderIsFinishedByTheNextRun() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", durationMinutes: 30))
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:15:00Z"))  // due 08:00
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let before = try dir.snapshot()
        let due = ["alarm.prayer:fajr:2026-11-21", "laundry.washComplete:snowy:c-1"]
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: due)
        let after = try dir.snapshot()

        // Save order: plan.json, outbox.jsonl (appended), state.json. A kill after step k leaves the first k new.
        for steps in 0...DataDirectoryTestCase.saveOrder.count {
            let copy = try directoryLeftByARunThatDied(after: steps, before: before, after: after)
            let next = try copy.run(at: "2026-11-21T08:01:00Z")
            let expected = steps >= 2 ? [] : due   // once the outbox holds them, they count as delivered
            assertRun(next, delivers: expected)
            XCTAssertEqual(try copy.outboxIDs().sorted(), due.sorted(), "killed after \(steps) of the writes")
            assertRun(try copy.run(at: "2026-11-21T08:02:00Z"), delivers: [])
        }
    }
}
