import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Deadlines inside nudge are measured on the monotonic clock (docs/design.md, "Deadlines"): the wall clock of a
/// running nudge stepped a day forward or an hour back (`SteppedClock`) neither stops a channel program early nor
/// makes the wait for the lock, for the bus or for the end of `--linger` longer. How long a wait took is measured
/// here on the test's own monotonic clock. Each test fails on the code before, whose deadlines were wall-clock
/// instants: the program was stopped at once, and the waits went on for the hour.
final class ClockStepDeadlineTests: DataDirectoryTestCase {
    private let fajr = "alarm.prayer:fajr:2026-11-21"
    private var clock: SteppedClock!

    override func setUpWithError() throws {
        try super.setUpWithError()
        clock = try SteppedClock()
    }

    override func tearDown() {
        clock?.remove()
        super.tearDown()
    }

    // MARK: - Helpers

    /// settings.json in UTC with `deliver` as given.
    private func writeSettings(deliver: [String: Any]) throws {
        let settings: [String: Any] = ["timeZone": "UTC", "notifications": ["enabled": true], "deliver": deliver]
        try JSONSerialization.data(withJSONObject: settings, options: [.sortedKeys])
            .write(to: dir.fileURL("settings.json"))
    }

    /// An executable `/bin/sh` script in the data directory; its absolute path.
    private func script(_ name: String, _ body: String) throws -> String {
        let url = dir.fileURL(name)
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    /// Seconds on the test's own monotonic clock, which no step of nudge's clock moves.
    private func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private func lines(_ name: String) -> [String] {
        NudgeResult.lines((try? dir.text(name)) ?? "")
    }

    // MARK: - A program

    /// The command's 10 s are counted on the monotonic clock: a day added to the wall clock while it runs does not
    /// stop it. The program says what its own clock read before and after the step, which it took from nudge's
    /// environment.
    func testACommandRunningWhileTheClockJumpsADayAheadFinishesAndIsRecordedOnce() throws {
        let command = try script("slow.sh", """
            cd '\(dir.path)'
            echo "$NUDGE_ID" >> calls
            date +%s > before.tmp && mv before.tmp before
            n=0
            while [ ! -e stepped ] && [ $n -lt 600 ]; do n=$((n + 1)); sleep 0.05; done
            date +%s > after
            sleep 3
            echo "$NUDGE_ID" >> finished
            """)
        try writeSettings(deliver: ["command": [command]])
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])

        let run = try clock.start(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                  workingDirectory: dir.url)
        try Waiting.until("the command to start") { dir.exists("before") || !run.isRunning }
        try clock.requireLoaded(in: run)
        try clock.step(to: 86_400)
        try dir.write("stepped", "")
        let result = try run.waitForExit(timeout: 60)

        assertRun(result, delivers: [fajr])
        XCTAssertFalse(result.stderr.contains("desktop command failed"), result.summary)
        XCTAssertEqual(lines("finished"), [fajr], "the command was stopped before it finished: " + result.summary)
        XCTAssertEqual(lines("calls"), [fajr], "the command ran more than once")
        let before = try XCTUnwrap(Int(lines("before").first ?? ""), "the command's clock before the step")
        let after = try XCTUnwrap(Int(lines("after").first ?? ""), "the command's clock after the step")
        XCTAssertGreaterThanOrEqual(after - before, 86_400, "the clock did not move a day ahead")
        XCTAssertEqual(try dir.outboxIDs(), [fajr])
        XCTAssertEqual(try dir.status()["commandRetries"] as? Int, 0, "the delivery is queued to be retried")
    }

    // MARK: - The lock

    /// `--wait 3` gives up after about 3 s, though the wall clock went an hour back while it waited.
    func testTheWaitForTheLockEndsOnTimeThoughTheClockWentAnHourBack() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        let lockPath = dir.fileURL(".lock").path
        let held = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard held >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(held) }
        guard flock(held, LOCK_EX | LOCK_NB) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }

        let startedAt = monotonicSeconds()
        let run = try clock.start(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:00Z",
                                   "--wait", "3"], workingDirectory: dir.url)
        try Waiting.until("the run to wait for the lock") { run.hasOpen(lockPath) || !run.isRunning }
        try clock.requireLoaded(in: run)
        try clock.step(to: -3_600)
        let result = try run.waitForExit(timeout: 60)
        let waited = monotonicSeconds() - startedAt

        XCTAssertEqual(result.status, 75, result.summary)
        XCTAssertTrue(result.stderr.contains("after waiting 3 s"), result.summary)
        XCTAssertGreaterThanOrEqual(waited, 3, "it gave up before its 3 s")
        XCTAssertFalse(dir.exists("state.json"), "the run went ahead without the lock")
    }

    // MARK: - The bus

    /// A session bus that takes the connection and never answers: the run gives up on the notification after its
    /// 10 s, though the wall clock went an hour back meanwhile, and retries it on the next run.
    func testTheWaitForAHangingBusEndsOnTimeThoughTheClockWentAnHourBack() throws {
        try writeSettings(deliver: ["desktop": true])
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        let bus = try SilentBus(path: FileManager.default.temporaryDirectory
            .appendingPathComponent("nudge-bus-\(UUID().uuidString)").path)
        let environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(bus.path)"]
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])

        let startedAt = monotonicSeconds()
        let run = try clock.start(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                  workingDirectory: dir.url, environment: environment)
        var waiter: pid_t?
        defer { if let waiter { bus.stopGroup(of: waiter) } }
        try Waiting.until("the click waiter to connect to the bus") {
            waiter = bus.acceptedPeer()
            return waiter != nil || !run.isRunning
        }
        try clock.requireLoaded(in: run)
        try clock.step(to: -3_600)
        let result = try run.waitForExit(timeout: 60)
        let waited = monotonicSeconds() - startedAt

        assertRun(result, delivers: [fajr])
        let report = result.stderrLines.first { $0.hasPrefix("nudge: desktop notification failed for \(fajr): ") }
        XCTAssertNotNil(report, result.summary)
        XCTAssertGreaterThanOrEqual(waited, 10, "it gave up before its 10 s")
        XCTAssertEqual(try dir.outboxIDs(), [fajr])
    }

    // MARK: - Lingering

    /// `--linger 20` stays about 20 s though the wall clock went an hour back while it slept: the wash it waited
    /// for is then an hour ahead, and a later run delivers it. Its passes after the step planned at the clock
    /// set back, which shows that the step reached the lingering process.
    func testALingerEndsOnTimeThoughTheClockWentAnHourBack() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", """
            { "pets": [ { "id": "snowy", "name": "Snowy", "washMinutes": 1,
                          "cycle": { "id": "c-1", "stage": "wash", "startedAt": "2026-11-21T08:00:00Z" } } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])

        let startedAt = monotonicSeconds()
        let run = try clock.start(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:50Z",
                                   "--linger", "20"], workingDirectory: dir.url)
        try Waiting.until("the lingering run to plan") {
            (try? dir.json("plan.json")["generatedAt"] as? String) == "2026-11-21T08:00:50Z" || !run.isRunning
        }
        try clock.requireLoaded(in: run)
        try clock.step(to: -3_600)
        let result = try run.waitForExit(timeout: 60)
        let waited = monotonicSeconds() - startedAt

        assertRun(result, delivers: [])
        let planned = try XCTUnwrap(try dir.json("plan.json")["generatedAt"] as? String)
        XCTAssertTrue(planned.hasPrefix("2026-11-21T07:01:"), "the last pass did not plan at the clock set back: "
            + planned)
        XCTAssertGreaterThanOrEqual(waited, 20, "it left before its 20 s")
        XCTAssertEqual(try dir.outboxIDs(), [])
    }

    /// A unix socket where the session bus would be, that takes every connection and never says a word: a bus that
    /// hangs. It keeps what it took open until it goes.
    private final class SilentBus {
        let path: String
        private let listening: Int32
        private var taken: [Int32] = []

        init(path: String) throws {
            self.path = path
            listening = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var place = sockaddr_un()
            place.sun_family = sa_family_t(AF_UNIX)
            let name = Array(path.utf8)
            guard listening >= 0, name.count < MemoryLayout.size(ofValue: place.sun_path) else {
                throw POSIXError(.EINVAL)
            }
            withUnsafeMutableBytes(of: &place.sun_path) { $0.copyBytes(from: name) }
            let bound = withUnsafePointer(to: &place) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listening, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0, listen(listening, 8) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        }

        /// Takes a waiting connection, if there is one, and returns the pid of the process that made it.
        func acceptedPeer() -> pid_t? {
            var poller = pollfd(fd: listening, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0 else { return nil }
            let connection = accept(listening, nil, nil)
            guard connection >= 0 else { return nil }
            taken.append(connection)
            // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
            var credentials: [Int32] = [0, 0, 0]
            var length = socklen_t(MemoryLayout<Int32>.size * credentials.count)
            guard getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
            return credentials[0]
        }

        /// Stops the process group of the click waiter `pid` (with the `nudge channel-exec` that leads it), if that
        /// waiter is still there.
        func stopGroup(of pid: pid_t) {
            let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            guard String(decoding: commandLine, as: UTF8.self).contains("desktop-wait") else { return }
            let group = getpgid(pid)
            if group > 1 { kill(-group, SIGKILL) }
        }

        deinit {
            taken.forEach { close($0) }
            close(listening)
            unlink(path)
        }
    }
}
