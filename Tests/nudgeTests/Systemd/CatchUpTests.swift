import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A run under systemd passes again when a user file was written while it planned (docs/systemd.md): the manager
/// folds the `.path` unit's start into the service that is running, so without the second pass the edit would
/// wait for the next wake, up to an hour.
final class CatchUpTests: DataDirectoryTestCase {
    /// Bytes the process has read so far (`rchar` of /proc/PID/io).
    private func bytesRead(_ pid: pid_t) -> Int {
        let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
        let line = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }
        return line.flatMap { Int($0.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    func testAWashWrittenWhileARunUnderSystemdPlansIsPlannedByThatRun() throws {
        try dir.write("settings.json", Fixture.settings())
        // 20,000 alarms: the run plans for a while after it has read its files.
        let alarms = (0..<20_000).map {
            #"{ "id": "a\#($0)", "title": "A", "time": "\#(String(format: "%02d:%02d", ($0 / 60) % 24, $0 % 60))" }"#
        }
        try dir.write("alarms.json", #"{ "alarms": [ "# + alarms.joined(separator: ", ") + " ] }\n")
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        let files = ["settings.json", "alarms.json", "laundry.json"]
        let size = try files.map { try dir.data($0).count }.reduce(0, +)

        // No user manager answers here: the run warns that it cannot arm the wake, and plans all the same.
        let run = try NudgeProcess(["run", "--quiet", "--systemd", "--data", dir.path], workingDirectory: dir.url,
                                   environment: ["XDG_RUNTIME_DIR": dir.path])
        try Waiting.until("the run to have read the user files") { bytesRead(run.pid) >= size || !run.isRunning }
        XCTAssertEqual(kill(run.pid, SIGSTOP), 0, "the run ended before the test could edit")
        XCTAssertFalse(dir.exists("plan.json"), "the run had planned before the test could edit: nothing shown")
        let started = ISO8601DateFormatter().string(from: Date())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: started))
        XCTAssertEqual(kill(run.pid, SIGCONT), 0)
        let result = try run.waitForExit()
        XCTAssertEqual(result.status, 0, result.summary)
        // The 64 pending records are alarms; the wash is among the deferred ones.
        let plan = try dir.text("plan.json")
        XCTAssertTrue(plan.contains("\"laundry."), "the wash is planned by this run: \(result.stderr)")
    }
}
