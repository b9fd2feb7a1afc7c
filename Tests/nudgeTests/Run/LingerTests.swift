import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `nudge run --linger S` (docs/design.md, lingering): delivery at the due second between cron runs, without holding
/// the lock while sleeping and without a second delivery beside the next cron run. `--now` advances in real time from
/// the start of the run, so these tests use a fixed start and real seconds.
final class LingerTests: DataDirectoryTestCase {
    /// A one-minute wash started at 08:00:00, so it is done at 08:01:00.
    private func writeWash() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", """
            { "pets": [ { "id": "snowy", "name": "Snowy", "washMinutes": 1,
                          "cycle": { "id": "c-1", "stage": "wash", "startedAt": "2026-11-21T08:00:00Z" } } ] }
            """)
    }

    func testLingeringRunDeliversAtTheDueSecondAndLeavesEarly() throws {
        try writeWash()
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])
        let result = try dir.run(at: "2026-11-21T08:00:58Z", "--linger", "20")
        assertRun(result, delivers: ["laundry.washComplete:snowy:c-1"])
        let delivery = try XCTUnwrap(result.jsonLines().first)
        XCTAssertEqual(delivery["deliveredAt"] as? String, "2026-11-21T08:01:00Z")
        XCTAssertEqual(delivery["lateSeconds"] as? Int, 0)
        // Woke once after about 2 s and left before the 20 s were up: nothing else falls due within them.
        XCTAssertGreaterThan(result.elapsed, 1.5, result.summary)
        XCTAssertLessThan(result.elapsed, 20, result.summary)
        XCTAssertEqual(try dir.outboxIDs(), ["laundry.washComplete:snowy:c-1"])
    }

    func testLingerReturnsAtOnceWhenNothingFallsDueWithinIt() throws {
        try writeWash()
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])
        let result = try dir.run(at: "2026-11-21T08:00:10Z", "--linger", "5")  // due 50 s later
        assertRun(result, delivers: [])
        XCTAssertLessThan(result.elapsed, 5, "it stayed for the --linger 5 with nothing to deliver: " + result.summary)
    }

    func testLingeringRunReleasesTheLockAndNeverDeliversTwiceBesideTheNextRun() throws {
        try writeWash()
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])
        let lingering = try NudgeProcess(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:57Z",
                                          "--linger", "30"], workingDirectory: dir.url)
        // Once the first one has planned and sleeps, the next cron run takes the lock at once.
        try Waiting.until("the lingering run to plan and release the lock") {
            (try? dir.json("plan.json")["generatedAt"] as? String) == "2026-11-21T08:00:57Z" && lockIsFree()
        }
        XCTAssertTrue(lingering.isRunning, "the lingering run left before the due second")
        let cron = try dir.run(at: "2026-11-21T08:00:58Z")
        assertRun(cron, delivers: [])
        let lingered = try lingering.waitForExit(timeout: 40)
        XCTAssertEqual(lingered.status, 0, lingered.summary)
        XCTAssertEqual(lingered.deliveredIDs(), ["laundry.washComplete:snowy:c-1"])
        // The cron run after the due second finds it delivered.
        assertRun(try dir.run(at: "2026-11-21T08:01:05Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), ["laundry.washComplete:snowy:c-1"])
    }

    /// Whether nobody holds the lock of the data directory.
    private func lockIsFree() -> Bool {
        let probe = open(dir.fileURL(".lock").path, O_RDWR | O_CLOEXEC)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        guard flock(probe, LOCK_EX | LOCK_NB) == 0 else { return false }
        flock(probe, LOCK_UN)
        return true
    }

    func testLingerMustBeSecondsWithinAnHour() throws {
        try dir.write("settings.json", Fixture.settings())
        for bad in ["-1", "3601", "soon"] {
            let result = try dir.run(at: "2026-11-21T08:00:00Z", "--linger", bad)
            XCTAssertEqual(result.status, 64, result.summary)
        }
    }
}
