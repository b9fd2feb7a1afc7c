import Foundation
import XCTest

/// The libFuzzer harnesses in `Fuzz/` are not SwiftPM targets, so `swift build` never compiles them: without this
/// check they fall behind the core's API unnoticed, and `scripts/fuzz.sh` then fuzzes nothing.
final class FuzzHarnessTests: XCTestCase {
    func testBothHarnessesTypeCheckAgainstTheCurrentSources() throws {
        guard ExternalTool.find("swiftc") != nil
                || FileManager.default.isExecutableFile(atPath: "/opt/swift/usr/bin/swiftc") else {
            throw RealPart.missing("swiftc is not on PATH")
        }
        let result = try ExternalTool.run("/bin/sh", ["Fuzz/build.sh", "check"],
                                          workingDirectory: RepositoryScript.root, timeout: 300)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdout, "fuzz/build: json-fuzzer\nfuzz/build: pipeline-fuzzer\n", result.summary)
    }
}
