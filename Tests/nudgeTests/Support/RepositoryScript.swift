import Foundation
import XCTest

/// Runs one of the repository's test scripts (`scripts/crash-test.sh`, `scripts/soak.sh`) on the nudge built for
/// these tests, and reads the `SUMMARY {json}` line it ends with.
struct RepositoryScript {
    let status: Int32
    /// Everything it printed (standard output, then standard error): the report, with the seed to replay it.
    let output: String
    let summary: [String: Any]

    func int(_ key: String) -> Int? { (summary[key] as? NSNumber)?.intValue }

    /// The repository root, from this file's place in `Tests/nudgeTests/Support/`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `bash scripts/NAME ARGUMENTS… <nudge>`, with the tests' environment plus `extra`; skipped (failed under
    /// CI) when the script or python3 is missing.
    static func run(_ name: String, _ arguments: [String], environment extra: [String: String],
                    timeout: TimeInterval = 600) throws -> RepositoryScript {
        let script = root.appendingPathComponent("scripts/" + name)
        guard FileManager.default.fileExists(atPath: script.path) else { throw RealPart.missing("no \(script.path)") }
        _ = try ExternalTool.require("python3")
        var environment = NudgeProcess.environment(extra)
        environment["CRASH_KEEP"] = nil   // a kept directory would outlive the test
        environment["SOAK_KEEP"] = nil
        let result = try ExternalTool.run("/bin/bash", [script.path] + arguments
                                              + [try NudgeProcess.executableURL().path],
                                          exactEnvironment: environment, timeout: timeout)
        let output = result.stdout + result.stderr
        let line = try XCTUnwrap(output.components(separatedBy: "\n").last { $0.hasPrefix("SUMMARY ") },
                                 "\(name) printed no SUMMARY line:\n\(output)")
        let summary = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(line.dropFirst("SUMMARY ".count).utf8)) as? [String: Any])
        return RepositoryScript(status: result.status, output: output, summary: summary)
    }
}
