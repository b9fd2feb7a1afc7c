import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What one run of the `nudge` binary produced.
struct NudgeResult {
    let arguments: [String]
    let status: Int32
    let stdout: String
    let stderr: String
    /// How long the process ran, in seconds.
    let elapsed: TimeInterval

    /// The stdout lines, without the final empty one.
    var stdoutLines: [String] { Self.lines(stdout) }
    /// The stderr lines, without the final empty one.
    var stderrLines: [String] { Self.lines(stderr) }

    /// Every stdout line parsed as a JSON object (for `--json` output); fails the test for a line that is not one.
    func jsonLines(file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        stdoutLines.compactMap { text in
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            if object == nil { XCTFail("stdout line is not a JSON object: \(text)", file: file, line: line) }
            return object
        }
    }

    /// The `id`s of the `--json` delivery lines, in order.
    func deliveredIDs(file: StaticString = #filePath, line: UInt = #line) -> [String] {
        jsonLines(file: file, line: line).map { $0["id"] as? String ?? "<no id>" }
    }

    /// A readable summary for assertion messages.
    var summary: String {
        "nudge \(arguments.joined(separator: " ")) → exit \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)"
    }

    static func lines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Runs the `nudge` executable that `swift test` built next to the test bundle, the way a user or cron would:
/// a separate process, with TZ=UTC and without NUDGE_DATA or a default data directory, capturing stdout, stderr and the exit code.
final class NudgeProcess {
    enum Failure: Error, CustomStringConvertible {
        case binaryNotFound([String])
        case timedOut([String])

        var description: String {
            switch self {
            case .binaryNotFound(let places):
                return "no executable `nudge` in any of: \(places.joined(separator: ", "))"
            case .timedOut(let arguments):
                return "nudge \(arguments.joined(separator: " ")) did not exit in time"
            }
        }
    }

    /// The built `nudge` binary. Under xctest on Linux the test bundle lives in the products directory, next to
    /// the executables; the first candidate that holds an executable `nudge` wins. `NUDGE_TEST_BINARY` names
    /// another build instead (`.ci/run` runs these tests once more on the README's static install build).
    static func executableURL() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["NUDGE_TEST_BINARY"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else { throw Failure.binaryNotFound([path]) }
            return URL(fileURLWithPath: path)
        }
        return try builtExecutableURL()
    }

    /// The `nudge` that `swift test` built next to the test bundle, whatever `NUDGE_TEST_BINARY` says.
    static func builtExecutableURL() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL,
            Bundle(for: NudgeProcess.self).bundleURL.deletingLastPathComponent(),
            Bundle(for: NudgeProcess.self).bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("nudge")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: url.path) {
                return url
            }
        }
        throw Failure.binaryNotFound(candidates.map(\.path))
    }

    /// The environment every run gets: the test's own, with TZ=UTC and without NUDGE_DATA. The default data
    /// directory and state directory point nowhere, so a test that forgets `--data` fails instead of reaching the
    /// user's own.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NUDGE_DATA"] = nil
        environment["XDG_DATA_HOME"] = "/nonexistent/nudge-tests"
        environment["XDG_STATE_HOME"] = "/nonexistent/nudge-tests-state"
        environment["TZ"] = "UTC"
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    let arguments: [String]
    private let process = Process()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let readers = DispatchGroup()
    private let lock = NSLock()
    private var stdoutData = Data()
    private var stderrData = Data()
    private var startedAt = Date()

    /// Starts `nudge ARGUMENTS` in `workingDirectory` (so a forgotten `--data` can never reach the repository's
    /// `data/`). Call `waitForExit` to collect the result.
    /// `exactEnvironment` replaces the whole environment (a cron-like run: `env -i HOME=… PATH=…`).
    /// `executable` runs another build than `executableURL()` (a clock test needs a dynamically linked one).
    init(_ arguments: [String], workingDirectory: URL? = nil, environment extra: [String: String] = [:],
         exactEnvironment: [String: String]? = nil, executable: URL? = nil) throws {
        self.arguments = arguments
        process.executableURL = try executable ?? Self.executableURL()
        process.arguments = arguments
        process.environment = exactEnvironment ?? Self.environment(extra)
        process.currentDirectoryURL = workingDirectory ?? FileManager.default.temporaryDirectory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        startedAt = Date()
        try process.run()
        // Drain both pipes while the child runs, so a large output can never fill a pipe and deadlock.
        drain(stdoutPipe.fileHandleForReading) { [unowned self] data in self.stdoutData = data }
        drain(stderrPipe.fileHandleForReading) { [unowned self] data in self.stderrData = data }
    }

    private func drain(_ handle: FileHandle, into store: @escaping (Data) -> Void) {
        readers.enter()
        DispatchQueue.global().async { [self] in
            let data = handle.readDataToEndOfFile()
            lock.lock()
            store(data)
            lock.unlock()
            readers.leave()
        }
    }

    /// Whether the process is still running.
    var isRunning: Bool { process.isRunning }

    var pid: pid_t { process.processIdentifier }

    /// Whether the process has the file at `path` open (read from /proc): a run that waits for the lock of a
    /// data directory has its `.lock` open while it tries to take it.
    func hasOpen(_ path: String) -> Bool {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let fds = "/proc/\(process.processIdentifier)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
        return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + $0)) == target }
    }

    /// Kills the process with SIGKILL, as a crash or the OOM killer would; the programs it started live on.
    /// Returns once it is gone, without waiting for its output: a program it started may still hold its pipes.
    func kill() {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the process (killing it after `timeout` seconds) and returns what it printed and its status.
    func waitForExit(timeout: TimeInterval = 30) throws -> NudgeResult {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            usleep(2_000)
        }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            _ = readers.wait(timeout: .now() + 5)
            throw Failure.timedOut(arguments)
        }
        process.waitUntilExit()
        let elapsed = Date().timeIntervalSince(startedAt)
        _ = readers.wait(timeout: .now() + 10)
        lock.lock()
        defer { lock.unlock() }
        return NudgeResult(arguments: arguments, status: process.terminationStatus,
                           stdout: String(decoding: stdoutData, as: UTF8.self),
                           stderr: String(decoding: stderrData, as: UTF8.self), elapsed: elapsed)
    }

    /// Runs `nudge ARGUMENTS` to completion.
    @discardableResult
    static func run(_ arguments: [String], workingDirectory: URL? = nil,
                    environment: [String: String] = [:]) throws -> NudgeResult {
        try NudgeProcess(arguments, workingDirectory: workingDirectory, environment: environment).waitForExit()
    }

    /// Runs `nudge ARGUMENTS` with exactly `environment` and nothing else, the way cron starts a job.
    @discardableResult
    static func run(_ arguments: [String], exactEnvironment environment: [String: String]) throws -> NudgeResult {
        try NudgeProcess(arguments, exactEnvironment: environment).waitForExit()
    }
}
