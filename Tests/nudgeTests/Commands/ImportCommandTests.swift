import Foundation
import XCTest

/// `nudge import` (docs/files.md, "streaks.json") fed as a person feeds it: the share text piped through a real shell
/// (`printf '%s' "$TEXT" | nudge import`), CRLF, emoji rows and chat around it. Refusals exit 65 and leave
/// streaks.json byte for byte.
final class ImportCommandTests: DataDirectoryTestCase {
    static let wordle = "Wordle 1,617 3/6*\r\n\r\n⬛🟨⬛⬛⬛\r\n⬛🟩🟨⬛🟨\r\n🟩🟩🟩🟩🟩\r\n"
    static let connections = "haha this one was mean\n\nConnections\nPuzzle #531\n🟨🟨🟨🟨\n🟩🟦🟩🟩\n🟩🟩🟩🟩\n"
        + "🟦🟦🟦🟦\n🟪🟪🟪🟪\n\nyour turn"
    static let mini = "I solved the Monday 11/23/2026 New York Times Mini Crossword in 0:48!\n"
        + "https://www.nytimes.com/crosswords/game/mini"
    static let strands = "Strands #263\r\n“Fork it over”\r\n💡🔵🔵🟡\r\n🔵💡🔵🔵\r\n"

    private let streaks = """
        { "games": [ { "id": "wordle", "name": "Wordle" },
                     { "id": "connections", "name": "Connections", "streak": 5 },
                     { "id": "mini", "name": "The Mini" } ],
          "plays": [ { "game": "wordle", "at": "2026-11-22T19:00:00Z" } ],
          "theme": "dark" }

        """

    override func setUpWithError() throws {
        try super.setUpWithError()
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("streaks.json", streaks)
    }

    /// `printf '%s' "$TEXT" | nudge import ARGUMENTS --data DIR --now NOW` in /bin/sh.
    private func pipe(_ text: String, _ arguments: String = "", now: String = "2026-11-23T07:00:00Z",
                      through command: String = "printf '%s' \"$TEXT\"") throws -> ExternalTool.Result {
        let binary = try NudgeProcess.executableURL().path
        return try ExternalTool.run("/bin/sh", ["-c", "\(command) | \"$NUDGE\" import \(arguments) --data \"$DIR\" --now \"$NOW\""],
                                    environment: ["TEXT": text, "NUDGE": binary, "DIR": dir.path, "NOW": now,
                                                  "TZ": "UTC", "NUDGE_DATA": ""])
    }

    private func imports() throws -> [String] {
        let entries = try dir.json("streaks.json")["imports"] as? [[String: Any]] ?? []
        return entries.map { "\($0["id"] as? String ?? "") \($0["game"] as? String ?? "") \($0["summary"] as? String ?? "") "
            + "\($0["importedAt"] as? String ?? "")" }
    }

    func testTheFourGamesShareTextsImportWithAPlayEach() throws {
        var result = try pipe(Self.wordle)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdout.components(separatedBy: "\n").first,
                       "Imported Wordle: 3/6* (wordle-1617); a play at 2026-11-23 08:00 counts for the streak.")
        XCTAssertTrue(result.stdout.contains("Result imported — Wordle: 3/6*"), "re-planned and delivered at once")
        result = try pipe(Self.connections, now: "2026-11-23T07:01:00Z")
        XCTAssertEqual(result.status, 0, result.summary)
        result = try pipe(Self.mini, now: "2026-11-23T07:02:00Z")
        XCTAssertEqual(result.status, 0, result.summary)
        try dir.write("streaks.json", try dir.text("streaks.json")
            .replacingOccurrences(of: #"{ "id": "mini""#, with: #"{ "id": "strands", "name": "Strands" }, { "id": "mini""#))
        XCTAssertEqual(try dir.nudge("play", now: "2026-11-23T07:02:30Z", "strands", "--add").status, 0)
        result = try pipe(Self.strands, now: "2026-11-23T07:03:00Z")
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(try imports(), [
            "wordle-1617 wordle 3/6* 2026-11-23T07:00:00Z",
            "connections-531 connections solved, 1 mistake 2026-11-23T07:01:00Z",
            "mini-2026-11-23 mini 0:48 2026-11-23T07:02:00Z",
            "strands-263 strands 2 hints 2026-11-23T07:03:00Z",
        ])
        let document = try dir.json("streaks.json")
        XCTAssertEqual(document["theme"] as? String, "dark")
        let plays = try XCTUnwrap(document["plays"] as? [[String: Any]])
        XCTAssertEqual(plays.compactMap { $0["game"] as? String }, ["wordle", "wordle", "connections", "mini", "strands", "strands"])
        XCTAssertEqual(plays[1]["at"] as? String, "2026-11-23T07:00:00Z", "the play at the import's instant")
        XCTAssertEqual(try dir.mode("streaks.json"), 0o644, "the mode the file had")
        let status = try dir.nudge("status", now: "2026-11-23T08:00:00Z")
        XCTAssertTrue(status.stdout.contains("Wordle 2 (derived from plays)"), "the play counts: \(status.stdout)")
    }

    func testTheSamePuzzleTwiceIsRecordedOnce() throws {
        XCTAssertEqual(try pipe(Self.wordle).status, 0)
        let before = try dir.data("streaks.json")
        let again = try pipe(Self.wordle.replacingOccurrences(of: "\r\n", with: "\n"), now: "2026-11-23T09:00:00Z")
        XCTAssertEqual(again.status, 0, again.summary)
        XCTAssertEqual(again.stdout, "Wordle: wordle-1617 already imported at 2026-11-23 08:00 (3/6*); nothing changed.\n")
        XCTAssertEqual(try dir.data("streaks.json"), before)
    }

    func testTextAsArgumentAndAnyOtherGameWithGame() throws {
        let binary = try NudgeProcess.executableURL().path
        let argument = try ExternalTool.run("/bin/sh", ["-c", "\"$NUDGE\" import \"$TEXT\" --data \"$DIR\" --now 2026-11-23T07:00:00Z"],
                                            environment: ["TEXT": Self.mini, "NUDGE": binary, "DIR": dir.path, "TZ": "UTC"])
        XCTAssertEqual(argument.status, 0, argument.summary)
        XCTAssertEqual(try dir.nudge("play", now: "2026-11-23T07:00:30Z", "chess", "--add").status, 0)
        let other = try pipe("Won with black in 34 moves ♟\r\nhttps://lichess.org/abc", "--game chess")
        XCTAssertEqual(other.status, 0, other.summary)
        XCTAssertEqual(try imports(), ["mini-2026-11-23 mini 0:48 2026-11-23T07:00:00Z",
                                       "chess-2026-11-23 chess Won with black in 34 moves ♟ 2026-11-23T07:00:00Z"])
    }

    func testTheReadmesImportExamplesRunOnTheExampleDataAsWritten() throws {
        for file in ["settings.json", "streaks.json", "laundry.json", "alarms.json", "trips.json"] {
            try dir.write(file, try String(contentsOf: RepositoryScript.root.appendingPathComponent("data/" + file),
                                           encoding: .utf8))
        }
        let readme = try String(contentsOf: RepositoryScript.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "### Import a result").dropFirst().first)
        // The lines of its first sh block that run `nudge import` with the text they give (the clipboard ones need
        // a desktop), without their comments.
        let block = try XCTUnwrap(section.components(separatedBy: "```sh\n").dropFirst().first?
            .components(separatedBy: "```").first)
        let lines = block.split(separator: "\n").map { line in
            String(line.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces)
        }.filter { $0.hasPrefix("nudge import ") }
        XCTAssertEqual(lines.count, 2, block)
        let binary = try NudgeProcess.executableURL().path
        for (index, line) in lines.enumerated() {
            let result = try ExternalTool.run("/bin/sh", ["-c", "nudge() { \"$NUDGE\" \"$@\" --data \"$DIR\" --now \"$NOW\"; }; "
                                                          + line],
                                              environment: ["NUDGE": binary, "DIR": dir.path, "TZ": "UTC",
                                                            "NOW": "2026-11-23T07:0\(index):00Z"])
            XCTAssertEqual(result.status, 0, result.summary)
            XCTAssertTrue(result.stdout.hasPrefix("Imported "), result.summary)
        }
        XCTAssertEqual(try imports().suffix(2), ["wordle-1617 wordle 3/6* 2026-11-23T07:00:00Z",
                                                 "chess-2026-11-23 chess Won with black in 34 moves 2026-11-23T07:01:00Z"])
    }

    func testTwoDifferentResultsOfOneGameOnOneDayAreTwoImportsAndTheSameTextTwiceIsOne() throws {
        XCTAssertEqual(try dir.nudge("play", now: "2026-11-23T07:00:00Z", "chess", "--add").status, 0)
        let texts = ["Won with black in 34 moves\nhttps://lichess.org/abc", "Lost on time\nhttps://lichess.org/def"]
        for (index, text) in texts.enumerated() {
            let result = try pipe(text, "--game chess", now: "2026-11-23T08:0\(index):00Z")
            XCTAssertEqual(result.status, 0, result.summary)
        }
        let again = try pipe(texts[1].replacingOccurrences(of: "\n", with: "\r\n"), "--game chess",
                             now: "2026-11-23T09:00:00Z")
        XCTAssertEqual(again.status, 0, again.summary)
        XCTAssertEqual(again.stdout, "chess: chess-2026-11-23-2 already imported at 2026-11-23 09:01 (Lost on time); "
            + "nothing changed.\n")
        XCTAssertEqual(try imports(), ["chess-2026-11-23 chess Won with black in 34 moves 2026-11-23T08:00:00Z",
                                       "chess-2026-11-23-2 chess Lost on time 2026-11-23T08:01:00Z"])
    }

    func testRefusalsExit65AndLeaveTheFileByteForByte() throws {
        let before = try dir.data("streaks.json")
        func refused(_ text: String, _ arguments: String = "", through command: String = "printf '%s' \"$TEXT\"",
                     saying expected: String, line: UInt = #line) throws {
            let result = try pipe(text, arguments, through: command)
            XCTAssertEqual(result.status, 65, result.summary, line: line)
            XCTAssertTrue(result.stderr.contains(expected), result.stderr, line: line)
            XCTAssertEqual(result.stdout, "", line: line)
            XCTAssertEqual(try dir.data("streaks.json"), before, line: line)
        }
        try refused("what a day", saying: "no game's result found in the text; nudge reads the share texts of "
            + "Wordle, Connections, The Mini, Strands")
        try refused("Вордл 1 234 3/6\n🟩🟩🟩🟩🟩", saying: "no game's result found")
        try refused("Wоrdle 1,617 3/6", saying: "no game's result found")
        try refused(Self.strands, saying: "unknown game \"strands\" (known: wordle, connections, mini); add it "
            + "with `nudge play strands --add`")
        try refused("Won", "--game chess", saying: "add it with `nudge play chess --add`")
        try refused("", through: "head -c 10485760 /dev/zero | tr '\\000' a", saying: "10485760 bytes long")
        try refused("", through: "printf 'Wordle 1,617 3/6\\377\\376'", saying: "not UTF-8 text")
    }

    func testImportWritesThroughASymbolicLinkAndKeepsTheLink() throws {
        let dotfiles = try makeDirectory()
        try dotfiles.write("streaks.json", streaks)
        try dir.remove("streaks.json")
        try FileManager.default.createSymbolicLink(atPath: dir.fileURL("streaks.json").path,
                                                   withDestinationPath: dotfiles.fileURL("streaks.json").path)
        let result = try pipe(Self.connections)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir.fileURL("streaks.json").path),
                       dotfiles.fileURL("streaks.json").path)
        XCTAssertTrue(try dotfiles.text("streaks.json").contains("\"id\": \"connections-531\""))
    }

    func testNoTextOnATerminalIsAUsageError() throws {
        let script = "script -qec \"'$NUDGE' import --data '$DIR'\" /dev/null"
        guard ExternalTool.find("script") != nil else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail("script (bsdutils) is missing") }
            throw XCTSkip("script (bsdutils) is not installed; .ci/run installs it")
        }
        let result = try ExternalTool.run("/bin/sh", ["-c", script],
                                          environment: ["NUDGE": try NudgeProcess.executableURL().path, "DIR": dir.path])
        XCTAssertTrue(result.stdout.contains("give the share text as an argument or on stdin"), result.summary)
    }
}
