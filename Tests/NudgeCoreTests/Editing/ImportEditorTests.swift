import XCTest
@testable import NudgeCore

/// `nudge import` into streaks.json (docs/files.md): an import and a play at the same instant, every other key
/// kept, the same puzzle once; refusals change nothing.
final class ImportEditorTests: XCTestCase {
    private let utc = WallClock(zone: Fixtures.utc)
    private let now = Fixtures.instant("2026-11-23T07:00:00Z")
    private let file = Array("""
        { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 },
                     { "id": "nyt-mini", "name": "The Mini" },
                     { "id": "chess", "name": "Chess" } ],
          "plays": [], "theme": "dark" }
        """.utf8)

    private func run(_ text: String, game: String? = nil, in data: [UInt8]? = nil) -> Result<ImportEditor.Outcome, ImportEditor.Failure> {
        ImportEditor.importResult(Array(text.utf8), game: game, in: data ?? file, now: now, clock: utc)
    }

    func testWordleAddsAnImportAndAPlayAtTheSameInstant() throws {
        guard case let .imported(content, entry, gameName) = try run(ShareTextTests.wordle).get() else {
            return XCTFail("not imported")
        }
        XCTAssertEqual(entry, ResultImport(id: "wordle-1617", game: "wordle", importedAt: now, summary: "3/6*"))
        XCTAssertEqual(gameName, "Wordle")
        let data = try XCTUnwrap(UserFileDecoder.streaks(content).0)
        XCTAssertEqual(data.imports, [entry])
        XCTAssertEqual(data.plays, [Play(game: "wordle", at: now)])
        XCTAssertEqual(data.games.first?.streak, 12)
        // The file as it was but for the play and the import, written in its own style.
        XCTAssertEqual(String(decoding: content, as: UTF8.self), """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 },
                         { "id": "nyt-mini", "name": "The Mini" },
                         { "id": "chess", "name": "Chess" } ],
              "plays": [ { "game": "wordle", "at": "2026-11-23T07:00:00Z" } ], "theme": "dark", "imports": [ { "id": "wordle-1617", "game": "wordle", "importedAt": "2026-11-23T07:00:00Z", "summary": "3/6*" } ] }
            """)

        guard case let .alreadyImported(earlier, _) = try run(ShareTextTests.wordle, in: content).get() else {
            return XCTFail("imported twice")
        }
        XCTAssertEqual(earlier.id, "wordle-1617")
    }

    func testTheMiniMatchesByNameAndIsNamedByTheLocalDate() throws {
        guard case let .imported(_, entry, _) = try run(ShareTextTests.mini).get() else { return XCTFail() }
        XCTAssertEqual(entry.id, "nyt-mini-2026-11-23")
        XCTAssertEqual(entry.summary, "0:48")
    }

    func testGameOptionTakesTheFirstLineAsSummary() throws {
        guard case let .imported(_, entry, _) = try run("\n  Won with black in 34 moves \nrated game", game: "CHESS")
            .get() else { return XCTFail() }
        XCTAssertEqual(entry, ResultImport(id: "chess-2026-11-23", game: "chess", importedAt: now,
                                           summary: "Won with black in 34 moves"))
    }

    func testTwoDifferentResultsOfOneGameOnOneDayAreTwoImportsAndTheSameTextTwiceIsOne() throws {
        guard case let .imported(once, first, _) = try run("Won with black in 34 moves", game: "chess").get() else {
            return XCTFail("not imported")
        }
        XCTAssertEqual(first.id, "chess-2026-11-23")
        let later = now.addingTimeInterval(3_600)
        func again(_ text: String, in data: [UInt8]) -> Result<ImportEditor.Outcome, ImportEditor.Failure> {
            ImportEditor.importResult(Array(text.utf8), game: "chess", in: data, now: later, clock: utc)
        }
        guard case let .imported(twice, second, _) = try again("Lost on time\nrated blitz", in: once).get() else {
            return XCTFail("a second, different result of the same day was not imported")
        }
        XCTAssertEqual(second, ResultImport(id: "chess-2026-11-23-2", game: "chess", importedAt: later,
                                            summary: "Lost on time"))
        XCTAssertEqual(try again("Won with black in 34 moves", in: twice).get(), .alreadyImported(first, gameName: "Chess"))
        XCTAssertEqual(try again("Lost on time\r\nrated blitz", in: twice).get(),
                       .alreadyImported(second, gameName: "Chess"))
        let data = try XCTUnwrap(UserFileDecoder.streaks(twice).0)
        XCTAssertEqual(data.imports.map(\.id), ["chess-2026-11-23", "chess-2026-11-23-2"])
        XCTAssertEqual(data.plays.count, 2)
        // The next day starts again without a number.
        guard case let .imported(_, tomorrow, _) = try ImportEditor.importResult(
            Array("Lost on time".utf8), game: "chess", in: twice, now: now.addingTimeInterval(86_400), clock: utc)
            .get() else { return XCTFail("not imported the next day") }
        XCTAssertEqual(tomorrow.id, "chess-2026-11-24")
    }

    func testRefusals() {
        XCTAssertEqual(run("hello there"), .failure(.unrecognised))
        XCTAssertEqual(run("Вордл 1 234 3/6"), .failure(.unrecognised))
        XCTAssertEqual(run(ShareTextTests.strands),
                       .failure(.unknownGame("strands", known: ["wordle", "nyt-mini", "chess"])))
        XCTAssertEqual(run("anything", game: "go"), .failure(.unknownGame("go", known: ["wordle", "nyt-mini", "chess"])))
        XCTAssertTrue(ImportEditor.Failure.unknownGame("go", known: []).description.contains("nudge play go --add"))
        XCTAssertEqual(run(String(repeating: "a", count: 64 * 1024 + 1)), .failure(.tooLong(bytes: 65_537)))
        XCTAssertEqual(run("   \n\r\n"), .failure(.empty))
        XCTAssertEqual(ImportEditor.importResult([0x57, 0xFF, 0xFE], game: "chess", in: file, now: now, clock: utc),
                       .failure(.notText))
        XCTAssertEqual(run("Wordle 1,617 3/6\u{1B}[2J"), .failure(.notText))
        XCTAssertTrue(ImportEditor.Failure.unrecognised.description.contains("Wordle, Connections, The Mini, Strands"))
    }
}
