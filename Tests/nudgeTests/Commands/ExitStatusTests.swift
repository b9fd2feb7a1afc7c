import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import nudge

/// One exit code per condition, in every command (docs/files.md; the manual's EXIT STATUS is the table, made from
/// `ExitCode`): each row is a condition, the commands it can reach and the code each must give.
final class ExitStatusTests: DataDirectoryTestCase {
    /// The commands that read the data directory, as a person would type them.
    private static let dataCommands: [[String]] = [
        ["run"], ["plan"], ["status"], ["check"], ["test"], ["snooze", "last"], ["act", "last", "SNOOZE"], ["ack"],
        ["laundry", "start", "snowy", "wash"], ["play", "wordle"], ["trip", "depart", "office"], ["times"],
    ]

    /// `nudge ARGUMENTS --data PATH`, as `user` when given (through setpriv(1)).
    private func status(_ arguments: [String], data: String, asUser user: String? = nil) throws -> NudgeResult {
        let full = arguments + ["--data", data]
        guard let user else { return try NudgeProcess.run(full, workingDirectory: dir.url) }
        let asUser = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", try NudgeProcess.executableURL().path]
        return try NudgeProcess(asUser + full, workingDirectory: dir.url,
                                executable: URL(fileURLWithPath: "/usr/bin/setpriv")).waitForExit()
    }

    /// Each code the table uses is documented in the manual's EXIT STATUS (made from `ExitCode`) with the words of
    /// its condition.
    private func assertDocumented(_ code: Int32, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(ExitCode(rawValue: code)?.meaning.contains(words) ?? false,
                      "EXIT STATUS says \"\(words)\" for \(code)", file: file, line: line)
    }

    func testAMissingDataDirectoryOrAFileInItsPlaceIsExit1Everywhere() throws {
        assertDocumented(1, "missing data directory")
        try dir.write("plain-file", "x\n")
        for path in [dir.fileURL("nowhere").path, dir.fileURL("plain-file").path] {
            for command in Self.dataCommands {
                let result = try status(command, data: path)
                XCTAssertEqual(result.status, 1, result.summary)
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.summary)
            }
        }
    }

    /// Unreadable (mode 000, as a user other than root): every command says so alike, exit 1.
    func testAnUnreadableDataDirectoryIsExit1Everywhere() throws {
        guard getuid() == 0, getpwnam("nudge-desktop") != nil else {
            // Under .ci/run a missing real part fails, it never skips.
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                return XCTFail("CI runs as root with the user nudge-desktop (.ci/run creates it)")
            }
            throw XCTSkip("needs root and the user nudge-desktop to read as someone else")
        }
        try dir.write("settings.json", Fixture.settings())
        XCTAssertEqual(chown(dir.path, getpwnam("nudge-desktop").pointee.pw_uid, getpwnam("nudge-desktop").pointee.pw_gid),
                       0)
        XCTAssertEqual(chmod(dir.path, 0), 0)
        defer { chmod(dir.path, 0o700) }
        for command in Self.dataCommands {
            let result = try status(command, data: dir.path, asUser: "nudge-desktop")
            XCTAssertEqual(result.status, 1, result.summary)
            XCTAssertTrue(result.stderr.contains("cannot read the data directory"), result.summary)
        }
    }

    /// Wrong usage is 64 in every command: an unknown option, and an unknown action word of `act`, `laundry`,
    /// `trip`; an id or a pet the files do not know is bad data, 65.
    func testWrongUsageIs64AndWhatTheFilesDoNotKnowIs65() throws {
        assertDocumented(64, "an unknown command, option or action")
        assertDocumented(65, "an unknown pet, game or delivery id")
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        XCTAssertEqual(try dir.run(at: "2026-11-21T08:00:00Z").status, 0)
        for command in Self.dataCommands {
            let result = try status(command + ["--bogus"], data: dir.path)
            XCTAssertEqual(result.status, 64, result.summary)
        }
        for command in [["act", "last", "BOGUS"], ["laundry", "dance", "snowy"], ["trip", "fly", "office"]] {
            let result = try status(command, data: dir.path)
            XCTAssertEqual(result.status, 64, result.summary)
        }
        for command in [["act", "nosuchid", "SNOOZE"], ["snooze", "nosuchid"], ["laundry", "start", "nopet", "wash"],
                        ["play", "nogame"]] {
            let result = try status(command, data: dir.path)
            XCTAssertEqual(result.status, 65, result.summary)
        }
    }
}
