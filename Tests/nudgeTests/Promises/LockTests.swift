import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// One run at a time per data directory (docs/design.md, "The lock"): `DIR/.lock`, exit 75, `--wait SECONDS`.
final class LockTests: DataDirectoryTestCase {
    /// An exclusive flock on `<dir>/.lock` held by the test process, as another nudge would hold it.
    private final class HeldLock {
        private var descriptor: Int32

        init(_ path: String) throws {
            descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                throw POSIXError(.init(rawValue: errno) ?? .EIO)
            }
        }

        func release() {
            guard descriptor >= 0 else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }

        deinit { release() }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
    }

    func testHeldLockMakesRunExit75AtOnceWithAOneLineMessage() throws {
        let lock = try HeldLock(dir.fileURL(".lock").path)
        defer { lock.release() }

        let result = try dir.run(at: "2026-11-21T08:00:00Z")
        XCTAssertEqual(result.status, 75, result.summary)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderrLines.count, 1, result.summary)
        XCTAssertTrue(result.stderr.contains(dir.path), result.summary)
        // It exited while the lock was still held: it did not wait for it.
        // It touched nothing: no plan, no state, nothing delivered.
        XCTAssertFalse(dir.exists("state.json"))
        XCTAssertFalse(dir.exists("plan.json"))
        XCTAssertFalse(dir.exists("outbox.jsonl"))
    }

    func testWaitOneSecondOnAHeldLockExits75AfterAboutASecond() throws {
        let lock = try HeldLock(dir.fileURL(".lock").path)
        defer { lock.release() }

        let result = try dir.run(at: "2026-11-21T08:00:00Z", "--wait", "1")
        XCTAssertEqual(result.status, 75, result.summary)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderrLines.count, 1, result.summary)
        XCTAssertGreaterThanOrEqual(result.elapsed, 0.9, "gave up before waiting a second")
        XCTAssertFalse(dir.exists("state.json"))
    }

    func testWaitSucceedsOnceTheLockIsReleased() throws {
        let lock = try HeldLock(dir.fileURL(".lock").path)
        let process = try NudgeProcess(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:00Z",
                                        "--wait", "10"], workingDirectory: dir.url)
        try Waiting.until("the run to open the lock") { process.hasOpen(dir.fileURL(".lock").path) || !process.isRunning }
        XCTAssertTrue(process.isRunning, "the run did not wait for the held lock")
        XCTAssertFalse(dir.exists("state.json"), "the run went ahead without the lock")
        lock.release()
        let result = try process.waitForExit()

        assertRun(result, delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(try dir.outboxIDs(), ["alarm.prayer:fajr:2026-11-21"])
    }

    func testLockHeldByAnotherProgramWithFlockGives75AndTheNextRunSucceeds() throws {
        let flockTool = try ExternalTool.require("flock", package: "util-linux")
        // flock(1) holds the lock while its command reads standard input: until the test closes the pipe.
        let release = Pipe()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: flockTool)
        holder.arguments = [dir.fileURL(".lock").path, "cat"]
        holder.standardInput = release
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        var released = false
        func releaseTheLock() {
            guard !released else { return }
            released = true
            try? release.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        defer { releaseTheLock() }
        try Waiting.until("flock(1) to take the lock") {
            let probe = open(dir.fileURL(".lock").path, O_RDWR | O_CLOEXEC)
            guard probe >= 0 else { return false }
            defer { close(probe) }
            if flock(probe, LOCK_EX | LOCK_NB) == 0 {
                flock(probe, LOCK_UN)
                return false
            }
            return true
        }

        let locked = try dir.run(at: "2026-11-21T08:00:00Z")
        XCTAssertEqual(locked.status, 75, locked.summary)

        releaseTheLock()
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: ["alarm.prayer:fajr:2026-11-21"])
    }
}
