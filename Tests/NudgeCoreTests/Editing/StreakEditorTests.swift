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

    // MARK: - The file's own layout (docs/promises.md: an edit changes only what it changes)

    /// `recordPlay` of wordle at `at` into `text`, as text.
    private func played(_ text: String, game: String = "wordle", addGame: Bool = false) throws -> String {
        let edited = try StreakEditor.recordPlay(in: Array(text.utf8), game: game, at: at, addGame: addGame).get()
        return String(decoding: edited, as: UTF8.self)
    }

    func testACompactOneLineFileStaysOnOneLine() throws {
        let text = #"{"games":[{"id":"wordle","name":"Wordle","streak":3}],"plays":[{"game":"wordle","at":"2026-11-20T19:00:00Z"}]}"#
        XCTAssertEqual(try played(text + "\n"), #"{"games":[{"id":"wordle","name":"Wordle","streak":3}],"plays":[{"game":"wordle","at":"2026-11-20T19:00:00Z"},{"game":"wordle","at":"2026-11-21T19:42:11Z"}]}"#
            + "\n")
    }

    func testAFileIndentedByFourSpacesGetsOnlyTheNewPlayLikeItsNeighbour() throws {
        let text = """
            {
                "games": [
                    { "id": "wordle", "name": "Wordle", "streak": 3 }
                ],
                "plays": [
                    { "game": "wordle", "at": "2026-11-20T19:00:00Z" }
                ]
            }

            """
        XCTAssertEqual(try played(text), text.replacingOccurrences(of: """
                    { "game": "wordle", "at": "2026-11-20T19:00:00Z" }
            """, with: """
                    { "game": "wordle", "at": "2026-11-20T19:00:00Z" },
                    { "game": "wordle", "at": "2026-11-21T19:42:11Z" }
            """))
    }

    func testATabIndentedFileWithOnePlayALineGetsTheNewPlayIndentedByTabs() throws {
        let text = "{\n\t\"games\": [{\"id\": \"wordle\", \"name\": \"Wordle\"}],\n\t\"plays\": [\n\t\t{\n"
            + "\t\t\t\"game\": \"wordle\",\n\t\t\t\"at\": \"2026-11-20T19:00:00Z\"\n\t\t}\n\t]\n}\n"
        XCTAssertEqual(try played(text), "{\n\t\"games\": [{\"id\": \"wordle\", \"name\": \"Wordle\"}],\n\t\"plays\": [\n"
            + "\t\t{\n\t\t\t\"game\": \"wordle\",\n\t\t\t\"at\": \"2026-11-20T19:00:00Z\"\n\t\t},\n"
            + "\t\t{\n\t\t\t\"game\": \"wordle\",\n\t\t\t\"at\": \"2026-11-21T19:42:11Z\"\n\t\t}\n\t]\n}\n")
    }

    func testAnEmptyArrayGetsThePlayIndentedLikeTheFile() throws {
        let text = """
            {
                "games": [
                    { "id": "wordle", "name": "Wordle" }
                ],
                "plays": []
            }

            """
        XCTAssertEqual(try played(text), """
            {
                "games": [
                    { "id": "wordle", "name": "Wordle" }
                ],
                "plays": [
                    {
                        "game": "wordle",
                        "at": "2026-11-21T19:42:11Z"
                    }
                ]
            }

            """)
    }

    func testAMissingPlaysKeyIsAddedAfterTheLastMember() throws {
        let text = """
            {
                "games": [
                    { "id": "wordle", "name": "Wordle" }
                ]
            }
            """
        XCTAssertEqual(try played(text), """
            {
                "games": [
                    { "id": "wordle", "name": "Wordle" }
                ],
                "plays": [
                    {
                        "game": "wordle",
                        "at": "2026-11-21T19:42:11Z"
                    }
                ]
            }
            """)
    }

    func testAnArrayOnOneLineStaysOnOneLine() throws {
        let text = #"{ "games": [ { "id": "wordle", "name": "Wordle" } ], "plays": [ { "game": "wordle", "at": "2026-11-20T19:00:00Z" } ] }"#
        XCTAssertEqual(try played(text), #"{ "games": [ { "id": "wordle", "name": "Wordle" } ], "plays": [ { "game": "wordle", "at": "2026-11-20T19:00:00Z" }, { "game": "wordle", "at": "2026-11-21T19:42:11Z" } ] }"#)
    }

    func testCRLFLineEndsStayCRLF() throws {
        let text = "{\r\n  \"games\": [{\"id\": \"wordle\", \"name\": \"Wordle\"}],\r\n  \"plays\": []\r\n}\r\n"
        XCTAssertEqual(try played(text), "{\r\n  \"games\": [{\"id\": \"wordle\", \"name\": \"Wordle\"}],\r\n  \"plays\": [\r\n"
            + "    {\r\n      \"game\": \"wordle\",\r\n      \"at\": \"2026-11-21T19:42:11Z\"\r\n    }\r\n  ]\r\n}\r\n")
    }

    func testAnAddedGameFollowsTheOtherGames() throws {
        let text = """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 },
                         { "id": "connections", "name": "Connections", "streak": 5 } ],
              "plays": [ { "game": "wordle", "at": "2026-11-20T19:42:11Z" },
                         { "game": "connections", "at": "2026-11-20T20:00:00Z" } ] }

            """
        XCTAssertEqual(try played(text, game: "chess", addGame: true), """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 },
                         { "id": "connections", "name": "Connections", "streak": 5 },
                         { "id": "chess", "name": "chess" } ],
              "plays": [ { "game": "wordle", "at": "2026-11-20T19:42:11Z" },
                         { "game": "connections", "at": "2026-11-20T20:00:00Z" },
                         { "game": "chess", "at": "2026-11-21T19:42:11Z" } ] }

            """)
    }

    func testAFileNudgeCreatesIsIndentedByTwoSpaces() throws {
        let created = try StreakEditor.recordPlay(in: nil, game: "wordle", at: at, addGame: true).get()
        XCTAssertEqual(String(decoding: created, as: UTF8.self), """
            {
              "games": [
                {
                  "id": "wordle",
                  "name": "wordle"
                }
              ],
              "plays": [
                {
                  "game": "wordle",
                  "at": "2026-11-21T19:42:11Z"
                }
              ]
            }

            """)
    }
}
