import XCTest
@testable import NudgeCore

final class StreakEditorTests: XCTestCase {
    private let at = Fixtures.instant("2026-11-21T19:42:11Z")

    func testPlayIsAppendedAndEveryOtherKeyKept() throws {
        let original = Array("""
        {"note": "mine", "games": [{"id": "wordle", "name": "Wordle", "streak": 12, "colour": "green"}],
         "plays": [{"game": "wordle", "at": "2026-11-20T19:00:00Z"}], "achievements": []}
        """.utf8)
        let edited = try StreakEditor.recordPlay(in: original, game: "wordle", at: at, addGame: false).get()
        let json = try JSONParser.parse(edited)
        XCTAssertEqual(json.objectValue?.map(\.key), ["note", "games", "plays", "achievements"])
        XCTAssertEqual(json["note"], .string("mine"))
        XCTAssertEqual(json["games"], try JSONParser.parse(original)["games"])
        XCTAssertEqual(json["plays"]?.arrayValue?.last,
                       .object([JSONMember("game", .string("wordle")), JSONMember("at", .string("2026-11-21T19:42:11Z"))]))
        XCTAssertEqual(json["plays"]?.arrayValue?.count, 2)
    }

    func testUnknownGameIsRefusedUnlessAdded() throws {
        let original = Array(#"{"games": [{"id": "wordle", "name": "Wordle", "streak": 1}]}"#.utf8)
        XCTAssertEqual(StreakEditor.recordPlay(in: original, game: "chess", at: at, addGame: false),
                       .failure(.unknownGame("chess", known: ["wordle"])))
        let added = try JSONParser.parse(StreakEditor.recordPlay(in: original, game: "chess", at: at, addGame: true).get())
        XCTAssertEqual(added["games"]?.arrayValue?.last, .object([
            JSONMember("id", .string("chess")), JSONMember("name", .string("chess")),
        ]), "no streak: it is derived from the plays")
    }

    func testMissingFileIsCreatedOnlyWithAdd() throws {
        XCTAssertEqual(StreakEditor.recordPlay(in: nil, game: "wordle", at: at, addGame: false),
                       .failure(.unknownGame("wordle", known: [])))
        let created = try JSONParser.parse(StreakEditor.recordPlay(in: nil, game: "wordle", at: at, addGame: true).get())
        XCTAssertEqual(created.objectValue?.map(\.key), ["games", "plays"])
        XCTAssertEqual(created["games"]?.arrayValue?.first?.objectValue?.map(\.key), ["id", "name"])
        let decoded = UserFileDecoder.streaks(try StreakEditor.recordPlay(in: nil, game: "wordle", at: at,
                                                                          addGame: true).get()).0
        XCTAssertEqual(decoded?.games, [Game(id: "wordle", name: "wordle", streak: nil)])
    }

    func testBrokenFileIsNotEdited() {
        guard case .failure(.invalidFile(let problems)) = StreakEditor.recordPlay(
            in: Array("{\"games\": [".utf8), game: "wordle", at: at, addGame: true) else {
            return XCTFail("a broken streaks.json must not be rewritten")
        }
        XCTAssertEqual(problems.first?.file, "streaks.json")
        XCTAssertEqual(problems.count, 1)
    }
}
