import Foundation
import XCTest

/// One writer (docs/design.md, "One run"): `Commit.write` is the only code that writes state.json, plan.json, the
/// outbox and the last good copies, whatever command runs. A second writer would have to keep the crash-safe
/// order on its own; this keeps one from coming back unnoticed.
final class OneWriterTests: XCTestCase {
    /// The calls that write nudge's own files, as the shell spells them.
    private let writes = ["write(.state,", "write(.plan,", "outbox.append(", "outbox.truncate(", ".saveLastGood("]

    func testOnlyCommitWritesNudgesOwnFiles() throws {
        let sources = RepositoryScript.root.appendingPathComponent("Sources")
        var writers: [String: Set<String>] = [:]
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let url as URL in files where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for call in writes where line.contains(call) {
                    writers[url.lastPathComponent, default: []].insert(call)
                }
            }
        }
        XCTAssertEqual(writers, ["Commit.swift": Set(writes)])
    }
}
