import Foundation
import XCTest

/// Runs a program other than nudge (a shell, groff, man) the way the end-to-end tests run nudge: a separate
/// process, its output captured through files (so neither stream can fill a pipe), with a time limit.
enum ExternalTool {
    /// What one run printed and how it ended.
    struct Result {
        let arguments: [String]
        let status: Int32
        let stdout: String
        let stderr: String

        var summary: String {
            "\(arguments.joined(separator: " ")) → exit \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)"
        }
    }

    /// The path of `name` on the test's PATH, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The path of `name` on PATH; when it is missing, skips the test (fails it under CI) with the package
    /// that provides it.
    static func require(_ name: String, package: String? = nil) throws -> String {
        guard let found = find(name) else {
            throw RealPart.missing("\(name) is not installed (Debian: apt install \(package ?? name)); .ci/run installs it")
        }
        return found
    }

    /// Runs `executable ARGUMENTS` with the test's environment plus `environment` (or exactly
    /// `exactEnvironment`), in `workingDirectory` (else a fresh empty one), and waits up to `timeout` seconds.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    exactEnvironment: [String: String]? = nil, workingDirectory: URL? = nil,
                    timeout: TimeInterval = 60) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nudge-tool-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = exactEnvironment ?? ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = workingDirectory ?? directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(arguments: [executable] + arguments, status: process.terminationStatus,
                      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
