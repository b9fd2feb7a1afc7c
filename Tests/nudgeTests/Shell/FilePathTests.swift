import XCTest
import Foundation
@testable import nudge

/// The shell's path helpers (`FilePath`) and its reading of the environment (`ProcessEnvironment`), which stand in
/// for Foundation's URL and ProcessInfo.
final class FilePathTests: XCTestCase {
    func testAbsolutePathsAreMadeAgainstTheWorkingDirectoryWithoutTrailingSlashes() {
        let cwd = FileManager.default.currentDirectoryPath
        XCTAssertEqual(FilePath.absolute("/var/lib/nudge/"), "/var/lib/nudge")
        XCTAssertEqual(FilePath.absolute("/"), "/")
        XCTAssertEqual(FilePath.absolute("data"), cwd + "/data")
        XCTAssertEqual(FilePath.absolute("data//"), cwd + "/data")
        XCTAssertEqual(FilePath.absolute("."), cwd)
        XCTAssertEqual(FilePath.absolute(""), cwd)
        XCTAssertEqual(FilePath.workingDirectory(), cwd)
    }

    func testParentAndLastComponent() {
        XCTAssertEqual(FilePath.parent(of: "/a/b/c.json"), "/a/b")
        XCTAssertEqual(FilePath.parent(of: "/a/b/"), "/a")
        XCTAssertEqual(FilePath.parent(of: "/c.json"), "/")
        XCTAssertEqual(FilePath.parent(of: "c.json"), "")
        XCTAssertEqual(FilePath.lastComponent(of: "/a/b/c.json"), "c.json")
        XCTAssertEqual(FilePath.lastComponent(of: "/a/b/"), "b")
        XCTAssertEqual(FilePath.lastComponent(of: "c.json"), "c.json")
    }

    func testNameContainsComparesBytes() {
        XCTAssertTrue(FilePath.name(".plan.json.tmp-123", contains: ".tmp-"))
        XCTAssertTrue(FilePath.name(".tmp-", contains: ".tmp-"))
        XCTAssertFalse(FilePath.name(".plan.json", contains: ".tmp-"))
        XCTAssertFalse(FilePath.name(".tmp", contains: ".tmp-"))
        XCTAssertFalse(FilePath.name("é.tmp", contains: "e.tmp"), "no Unicode folding in file names")
    }

    func testTheEnvironmentReadsAsProcessInfoReadsIt() {
        XCTAssertEqual(ProcessEnvironment.all(), ProcessInfo.processInfo.environment)
    }
}
