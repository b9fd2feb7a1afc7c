import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs any program to its end (a shell line, systemd-analyze), capturing what it printed, with exactly the
/// environment given. For `nudge` itself use `NudgeProcess`.
enum ProgramRun {
    static func run(_ program: String, _ arguments: [String], workingDirectory: URL? = nil,
                    environment: [String: String], timeout: TimeInterval = 60) throws -> NudgeResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-run-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: output.path + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: output.path + ".out")
            try? FileManager.default.removeItem(atPath: output.path + ".err")
        }
        // Files, not pipes: a program that leaves a child holding its stdout (notify-send's waiters) must not
        // keep the reader waiting for an end of file.
        let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: output.path + ".out"))
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: output.path + ".err"))
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        let started = Date()
        try process.run()
        let deadline = started.addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw NudgeProcess.Failure.timedOut([program] + arguments)
        }
        process.waitUntilExit()
        try stdout.close()
        try stderr.close()
        let printed = { (suffix: String) in
            String(decoding: FileManager.default.contents(atPath: output.path + suffix) ?? Data(), as: UTF8.self)
        }
        return NudgeResult(arguments: [program] + arguments, status: process.terminationStatus,
                           stdout: printed(".out"), stderr: printed(".err"), elapsed: Date().timeIntervalSince(started))
    }

    /// The absolute path of `program` on the test's PATH, or nil when it is not installed.
    static func find(_ program: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
