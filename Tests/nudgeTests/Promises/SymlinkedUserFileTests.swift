import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// User files kept elsewhere and linked into the data directory, as dotfiles managers do (docs/files.md): they are
/// read through the link, an editing command replaces the link's final target atomically and leaves every link
/// in place, and a link that points nowhere is an error of that file, not a missing file.
final class SymlinkedUserFileTests: DataDirectoryTestCase {
    private var dotfiles: TemporaryDataDirectory!

    override func setUpWithError() throws {
        try super.setUpWithError()
        dotfiles = try makeDirectory()
        try dir.write("settings.json", Fixture.settings())
    }

    private let streaks = """
        { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 } ],
          "plays": [ { "game": "wordle", "at": "2026-11-19T19:42:11Z" } ] }

        """

    // MARK: - Helpers

    private func link(_ name: String, to target: String, in folder: TemporaryDataDirectory? = nil) throws {
        try FileManager.default.createSymbolicLink(atPath: (folder ?? dir).fileURL(name).path,
                                                   withDestinationPath: target)
    }

    /// The link's text, or nil when `path` is not a symbolic link.
    private func linkText(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        return try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    private func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o7777)
    }

    /// Hidden temporary files an atomic write would leave behind had it not renamed them.
    private func temporaryFiles(in folder: TemporaryDataDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
    }

    private func playedGames(_ path: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        let plays = (object as? [String: Any])?["plays"] as? [[String: Any]] ?? []
        return plays.map { "\($0["game"] as? String ?? "?") \($0["at"] as? String ?? "?")" }
    }

    // MARK: - Edited through the link

    func testPlayWritesTheTargetInAnotherDirectoryAndKeepsTheLink() throws {
        try dotfiles.write("streaks.json", streaks)
        chmod(dotfiles.fileURL("streaks.json").path, 0o644)
        let target = dotfiles.fileURL("streaks.json").path
        try link("streaks.json", to: target)

        let result = try dir.nudge("play", now: "2026-11-20T07:30:00Z", "wordle")
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdoutLines, ["Recorded a play of wordle at 2026-11-20 07:30."])

        XCTAssertEqual(linkText(dir.fileURL("streaks.json").path), target, "the link was replaced")
        XCTAssertEqual(try playedGames(target), ["wordle 2026-11-19T19:42:11Z", "wordle 2026-11-20T07:30:00Z"])
        XCTAssertEqual(mode(target), 0o644, "the file keeps the mode its owner gave it (docs/promises.md)")
        XCTAssertEqual(try temporaryFiles(in: dotfiles), [])
        XCTAssertEqual(try temporaryFiles(in: dir), [])

        // Later edits to the target are what nudge reads.
        try dotfiles.write("streaks.json", streaks.replacingOccurrences(of: "Wordle", with: "Wordle Daily"))
        let status = try dir.nudge("status", now: "2026-11-20T07:31:00Z")
        XCTAssertTrue(status.stdout.contains("Wordle Daily 12"), status.summary)
    }

    /// An edit keeps the permission bits the person gave the file; a file nudge creates is 0600.
    func testEditsKeepTheFilesOwnModeAndNudgesOwnFilesAre0600() throws {
        try dir.write("streaks.json", streaks)
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        chmod(dir.fileURL("streaks.json").path, 0o644)
        chmod(dir.fileURL("laundry.json").path, 0o640)
        XCTAssertEqual(try dir.nudge("play", now: "2026-11-20T07:30:00Z", "wordle").status, 0)
        XCTAssertEqual(try dir.nudge("laundry", now: "2026-11-21T08:00:00Z", "start", "snowy", "wash").status, 0)
        XCTAssertEqual(try dir.mode("streaks.json"), 0o644)
        XCTAssertEqual(try dir.mode("laundry.json"), 0o640)
        XCTAssertTrue(try dir.text("streaks.json").contains("2026-11-20T07:30:00Z"))
        // The files nudge creates (state.json here; `init`'s in CommandLineTests) are 0600.
        XCTAssertEqual(try dir.mode("state.json"), 0o600)
    }

    func testLaundryWritesTheTargetOfARelativeLink() throws {
        try dotfiles.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        let relative = "../" + dotfiles.url.lastPathComponent + "/laundry.json"
        try link("laundry.json", to: relative)

        let result = try dir.nudge("laundry", now: "2026-11-21T08:00:00Z", "start", "snowy", "wash")
        XCTAssertEqual(result.status, 0, result.summary)

        XCTAssertEqual(linkText(dir.fileURL("laundry.json").path), relative)
        let pets = try dotfiles.json("laundry.json")["pets"] as? [[String: Any]]
        let cycle = pets?.first?["cycle"] as? [String: Any]
        XCTAssertEqual(cycle?["startedAt"] as? String, "2026-11-21T08:00:00Z")
        XCTAssertEqual(try dir.plannedIDs(), ["laundry.washComplete:snowy:c-20261121T080000Z"])
        XCTAssertEqual(try temporaryFiles(in: dotfiles), [])
    }

    func testAChainOfTwoLinksWritesTheFinalTargetAndKeepsBothLinks() throws {
        let real = try makeDirectory()
        try real.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        chmod(real.fileURL("laundry.json").path, 0o640)
        // data/laundry.json → dotfiles/laundry.json (absolute) → ../real/laundry.json (relative to dotfiles).
        let second = "../" + real.url.lastPathComponent + "/laundry.json"
        try link("laundry.json", to: second, in: dotfiles)
        try link("laundry.json", to: dotfiles.fileURL("laundry.json").path)

        let result = try dir.nudge("laundry", now: "2026-11-21T08:00:00Z", "start", "snowy", "wash")
        XCTAssertEqual(result.status, 0, result.summary)

        XCTAssertEqual(linkText(dir.fileURL("laundry.json").path), dotfiles.fileURL("laundry.json").path)
        XCTAssertEqual(linkText(dotfiles.fileURL("laundry.json").path), second)
        let written = try real.text("laundry.json")
        XCTAssertTrue(written.contains("\"startedAt\": \"2026-11-21T08:00:00Z\""), written)
        XCTAssertEqual(mode(real.fileURL("laundry.json").path), 0o640)
        XCTAssertEqual(try temporaryFiles(in: real), [])
        XCTAssertEqual(try temporaryFiles(in: dotfiles), [])

        // `stop` through the same chain, then `run` reads the stopped cycle through it.
        XCTAssertEqual(try dir.nudge("laundry", now: "2026-11-21T08:10:00Z", "stop", "snowy").status, 0)
        XCTAssertFalse(try real.text("laundry.json").contains("cycle"))
        assertRun(try dir.run(at: "2026-11-21T08:45:00Z"), delivers: [])
    }

    func testActMarkPlayedWritesThroughTheLink() throws {
        try dotfiles.write("streaks.json", streaks)
        let target = dotfiles.fileURL("streaks.json").path
        try link("streaks.json", to: target)
        assertRun(try dir.run(at: "2026-11-21T18:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T19:00:00Z"), delivers: ["streak.reminder:streaks:2026-11-21"])

        let act = try dir.nudge("act", now: "2026-11-21T19:01:00Z", "last", "MARK_PLAYED")
        XCTAssertEqual(act.status, 0, act.summary)
        XCTAssertEqual(linkText(dir.fileURL("streaks.json").path), target)
        XCTAssertEqual(try playedGames(target), ["wordle 2026-11-19T19:42:11Z", "wordle 2026-11-21T19:01:00Z"])
    }

    // MARK: - A link that points nowhere

    func testDanglingLinkIsAnErrorOfItsFileThatKeepsTheLastGoodVersion() throws {
        let mounted = try makeDirectory()
        try mounted.write("alarms.json", Fixture.alarm(time: "08:00"))
        let target = mounted.fileURL("alarms.json").path
        try link("alarms.json", to: target)
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-21"])

        // The dotfiles directory is unmounted.
        mounted.remove()
        let problem = "\(dir.path)/alarms.json: a symbolic link to \(target), which does not exist"

        let check = try NudgeProcess.run(["check", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(check.status, 65, check.summary)
        XCTAssertEqual(check.stderrLines, [problem])
        XCTAssertEqual(check.stdoutLines.first, "1 problem in \(dir.path)")

        let run = try dir.run(at: "2026-11-21T07:30:00Z")
        assertRun(run, exit: 65, delivers: [])
        XCTAssertEqual(run.stderrLines,
                       [problem, "nudge: using the last good version of alarms.json until it is fixed"])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-21"])
        // Its alarm still rings.
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), exit: 65, delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(try dir.status()["fileErrors"] as? [String],
                       ["alarms.json: a symbolic link to \(target), which does not exist"])
        XCTAssertEqual(linkText(dir.fileURL("alarms.json").path), target)
    }

    func testDanglingLinkWithoutAnEarlierGoodVersionIsStillReported() throws {
        try link("alarms.json", to: "../nowhere/alarms.json")
        let check = try NudgeProcess.run(["check", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(check.status, 65, check.summary)
        let parent = URL(fileURLWithPath: dir.path).resolvingSymlinksInPath().deletingLastPathComponent().path
        XCTAssertEqual(check.stderrLines, ["\(dir.path)/alarms.json: a symbolic link to \(parent)/nowhere/alarms.json, "
                                            + "which does not exist"])
        let run = try dir.run(at: "2026-11-21T07:30:00Z")
        assertRun(run, exit: 65, delivers: [])
        XCTAssertEqual(run.stderrLines.last,
                       "nudge: alarms.json has no earlier valid version: nothing from it is planned until it is fixed")
    }

    func testEditingThroughADanglingLinkExits65AndCreatesNothing() throws {
        let target = dotfiles.fileURL("unmounted/streaks.json").path
        try link("streaks.json", to: target)
        try link("laundry.json", to: dotfiles.fileURL("unmounted/laundry.json").path)

        let play = try dir.nudge("play", now: "2026-11-20T07:30:00Z", "wordle", "--add")
        XCTAssertEqual(play.status, 65, play.summary)
        XCTAssertEqual(play.stderrLines,
                       ["\(dir.path)/streaks.json: a symbolic link to \(target), which does not exist"])
        XCTAssertEqual(linkText(dir.fileURL("streaks.json").path), target)

        let laundry = try dir.nudge("laundry", now: "2026-11-20T07:30:00Z", "start", "snowy", "wash")
        XCTAssertEqual(laundry.status, 65, laundry.summary)
        XCTAssertTrue(laundry.stderr.contains("laundry.json: a symbolic link to "), laundry.summary)
        XCTAssertNotNil(linkText(dir.fileURL("laundry.json").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dotfiles.fileURL("unmounted").path))
    }

    func testInitKeepsADanglingLink() throws {
        try dir.remove("settings.json")
        let target = dotfiles.fileURL("unmounted/settings.json").path
        try link("settings.json", to: target)
        let result = try NudgeProcess.run(["init", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.stdout.contains("kept     \(dir.path)/settings.json (a symbolic link to \(target), "
                                                + "which does not exist)"), result.summary)
        XCTAssertEqual(linkText(dir.fileURL("settings.json").path), target)
    }
}
