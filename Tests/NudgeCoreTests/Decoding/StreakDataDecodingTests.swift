import XCTest
@testable import NudgeCore

/// Decoding `streaks.json` against literal JSON: the model, defaults, and every check with its key path.
final class StreakDataDecodingTests: XCTestCase {
    private func decode(_ text: String) -> (StreakData?, FileReport) {
        UserFileDecoder.streaks(Array(text.utf8))
    }

    private func messages(_ text: String) -> [String] {
        decode(text).1.problems.map(\.description)
    }

    func testSpecExampleDecodes() {
        let (data, report) = decode("""
        { "version": 1,
          "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 },
                     { "id": "connections", "name": "Connections" } ],
          "plays": [ { "game": "wordle", "at": "2026-11-20T19:42:11Z" },
                     { "game": "connections", "at": "2026-11-21T09:00:00.250+01:00" } ],
          "achievements": [ { "id": "a-100", "title": "Centurion", "description": "100 days of Wordle",
                              "unlockedAt": "2026-11-21T07:59:00Z" } ],
          "imports": [ { "id": "i-77", "game": "wordle", "importedAt": "2026-11-21T07:58:00Z", "summary": "3/6" } ] }
        """)
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(report.unknownKeys, [])
        XCTAssertEqual(data, StreakData(
            games: [Game(id: "wordle", name: "Wordle", streak: 12),
                    Game(id: "connections", name: "Connections", streak: nil)],
            plays: [Play(game: "wordle", at: Fixtures.instant("2026-11-20T19:42:11Z")),
                    Play(game: "connections", at: Fixtures.instant("2026-11-21T08:00:00.250Z"))],
            achievements: [Achievement(id: "a-100", title: "Centurion", description: "100 days of Wordle",
                                       unlockedAt: Fixtures.instant("2026-11-21T07:59:00Z"))],
            imports: [ResultImport(id: "i-77", game: "wordle", importedAt: Fixtures.instant("2026-11-21T07:58:00Z"),
                                   summary: "3/6")]))
        XCTAssertEqual(data?.game(withID: "wordle")?.name, "Wordle")
        XCTAssertNil(data?.game(withID: "chess"))
    }

    func testAGameURLMustBeOneXdgOpenCanOpen() {
        let good = decode(#"{ "games": [ { "id": "w", "name": "Wordle", "url": "https://www.nytimes.com/games/wordle" } ] }"#)
        XCTAssertEqual(good.0?.games.first?.url, "https://www.nytimes.com/games/wordle")
        XCTAssertNotNil(decode(#"{ "games": [ { "id": "w", "name": "W", "url": "steam://run/1" } ] }"#).0)
        for bad in ["--help", "/home/sam/game", "file:///etc/passwd", "javascript:alert(1)", "https://a b", "1http://x"] {
            XCTAssertEqual(messages(#"{ "games": [ { "id": "w", "name": "W", "url": "\#(bad)" } ] }"#).count, 1, bad)
        }
    }

    func testEmptyFileHasNothing() {
        let (data, report) = decode("{}")
        XCTAssertEqual(data, StreakData())
        XCTAssertTrue(report.isValid)
        XCTAssertEqual(decode(#"{"games": null, "plays": []}"#).0, StreakData())
    }

    func testDuplicateIdsNameEveryPlaceThatUsesThem() {
        XCTAssertEqual(messages("""
        { "games": [ { "id": "wordle", "name": "Wordle" }, { "id": "wordle", "name": "Wordle again" } ],
          "achievements": [ { "id": "a", "title": "A", "description": "", "unlockedAt": "2026-11-21T07:59:00Z" },
                            { "id": "b", "title": "B", "description": "", "unlockedAt": "2026-11-21T07:59:00Z" },
                            { "id": "a", "title": "C", "description": "", "unlockedAt": "2026-11-21T07:59:00Z" } ],
          "imports": [ { "id": "i", "game": "wordle", "importedAt": "2026-11-21T07:58:00Z", "summary": "3/6" },
                       { "id": "i", "game": "wordle", "importedAt": "2026-11-21T07:58:00Z", "summary": "4/6" } ] }
        """), [
            "streaks.json: games[0].id: duplicate id \"wordle\" (also used at games[1].id)",
            "streaks.json: games[1].id: duplicate id \"wordle\" (also used at games[0].id)",
            "streaks.json: achievements[0].id: duplicate id \"a\" (also used at achievements[2].id)",
            "streaks.json: achievements[2].id: duplicate id \"a\" (also used at achievements[0].id)",
            "streaks.json: imports[0].id: duplicate id \"i\" (also used at imports[1].id)",
            "streaks.json: imports[1].id: duplicate id \"i\" (also used at imports[0].id)",
        ])
    }

    func testStreakMustBeAWholeNumberUpToAMillion() {
        XCTAssertEqual(messages("""
        { "games": [ { "id": "a", "name": "A", "streak": -1 }, { "id": "b", "name": "B", "streak": 1000001 },
                     { "id": "c", "name": "C", "streak": "12" }, { "id": "d", "name": "D", "streak": 2.5 },
                     { "id": "e", "name": "E", "streak": 1000000 }, { "id": "f", "name": "F", "streak": 0 } ] }
        """), [
            "streaks.json: games[0].streak: -1 is out of range (expected a whole number from 0 to 1000000)",
            "streaks.json: games[1].streak: 1000001 is out of range (expected a whole number from 0 to 1000000)",
            "streaks.json: games[2].streak: expected a whole number from 0 to 1000000, found a string",
            "streaks.json: games[3].streak: 2.5 is out of range (expected a whole number from 0 to 1000000)",
        ])
    }

    func testAnAbsentOrNullStreakIsDerivedAndAGivenOneKeptAsGiven() {
        let (data, report) = decode("""
        { "games": [ { "id": "a", "name": "A" }, { "id": "b", "name": "B", "streak": null },
                     { "id": "c", "name": "C", "streak": 0 }, { "id": "d", "name": "D", "streak": 1000000 } ] }
        """)
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(data?.games.map(\.streak), [nil, nil, 0, 1_000_000])
    }

    func testPlaysAndImportsMustNameAKnownGame() {
        let (data, report) = decode("""
        { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 },
                     { "id": "connections", "name": "Connections" } ],
          "plays": [ { "game": "wordle", "at": "2026-11-20T19:42:11Z" },
                     { "game": "wordle", "at": "2026-11-19T19:42:11Z" },
                     { "game": "connections", "at": "2026-11-18T19:42:11Z" },
                     { "game": "chess", "at": "2026-11-17T19:42:11Z" } ],
          "imports": [ { "id": "i-1", "game": "Wordle", "importedAt": "2026-11-21T07:58:00Z", "summary": "3/6" } ] }
        """)
        // Each play and import stands alone: the two that name no game are left out, the rest is read.
        XCTAssertEqual(data?.plays.map(\.game), ["wordle", "wordle", "connections"])
        XCTAssertEqual(data?.imports, [])
        XCTAssertEqual(report.problems.map(\.description), [
            "streaks.json: plays[3].game: unknown game \"chess\" (known: wordle, connections)",
            "streaks.json: imports[0].game: unknown game \"Wordle\" (known: wordle, connections)",
        ])
        XCTAssertEqual(report.problems.first?.place, .keyPath(KeyPath.root.appending("plays").appending(index: 3)
            .appending("game")))
    }

    func testUnknownGameWithNoGamesListed() {
        XCTAssertEqual(messages(#"{ "plays": [ { "game": "wordle", "at": "2026-11-20T19:42:11Z" } ] }"#),
                       ["streaks.json: plays[0].game: unknown game \"wordle\" (known: none)"])
    }

    func testAGameInvalidForAnotherReasonIsStillKnownToPlays() {
        XCTAssertEqual(messages("""
        { "games": [ { "id": "wordle", "name": "Wordle", "streak": -3 } ],
          "plays": [ { "game": "wordle", "at": "2026-11-20T19:42:11Z" } ] }
        """), ["streaks.json: games[0].streak: -3 is out of range (expected a whole number from 0 to 1000000)"])
    }

    func testInstantsMustBeRFC3339BetweenTheYears2000And2200() {
        XCTAssertEqual(messages("""
        { "games": [ { "id": "wordle", "name": "Wordle" } ],
          "plays": [ { "game": "wordle", "at": "2026-11-20 19:42" }, { "game": "wordle", "at": "1999-12-31T23:59:59Z" },
                     { "game": "wordle" }, { "game": "wordle", "at": 1700000000 } ],
          "achievements": [ { "id": "a", "title": "A", "description": "", "unlockedAt": "2201-01-01T00:00:00Z" } ],
          "imports": [ { "id": "i", "game": "wordle", "importedAt": "yesterday", "summary": "3/6" } ] }
        """), [
            "streaks.json: plays[0].at: \"2026-11-20 19:42\" is not an RFC 3339 instant (like \"2026-11-21T08:00:00Z\")",
            "streaks.json: plays[1].at: \"1999-12-31T23:59:59Z\" is outside the years 2000 to 2200",
            "streaks.json: plays[2]: missing required key \"at\"",
            "streaks.json: plays[3].at: expected a string, found a number",
            "streaks.json: achievements[0].unlockedAt: \"2201-01-01T00:00:00Z\" is outside the years 2000 to 2200",
            "streaks.json: imports[0].importedAt: \"yesterday\" is not an RFC 3339 instant (like \"2026-11-21T08:00:00Z\")",
        ])
    }

    func testNamesTitlesAndSummariesMustNotBeEmpty() {
        XCTAssertEqual(messages("""
        { "games": [ { "id": "wordle", "name": "  " }, { "id": "mini" } ],
          "achievements": [ { "id": "a", "title": "", "description": "", "unlockedAt": "2026-11-21T07:59:00Z" },
                            { "id": "b", "title": "B", "unlockedAt": "2026-11-21T07:59:00Z" } ],
          "imports": [ { "id": "i", "game": "wordle", "importedAt": "2026-11-21T07:58:00Z", "summary": "" } ] }
        """), [
            "streaks.json: games[0].name: must not be empty (it names the game in reminders)",
            "streaks.json: games[1]: missing required key \"name\"",
            "streaks.json: achievements[0].title: must not be empty (it becomes \"Achievement unlocked: <title>\")",
            "streaks.json: achievements[1]: missing required key \"description\"",
            "streaks.json: imports[0].summary: must not be empty (it becomes \"<game>: <summary>\")",
        ])
    }

    func testIdsAndElementShapes() {
        XCTAssertEqual(messages("""
        { "games": [ { "id": "word le", "name": "Wordle" }, { "name": "No id" }, "wordle" ],
          "plays": {},
          "achievements": [ { "id": 7, "title": "A", "description": "", "unlockedAt": "2026-11-21T07:59:00Z" } ] }
        """), [
            "streaks.json: games[0].id: \"word le\" is not a valid id (use 1 to 100 letters, digits, '.', '_' or '-')",
            "streaks.json: games[1]: missing required key \"id\"",
            "streaks.json: games[2]: expected an object, found a string",
            "streaks.json: plays: expected an array, found an object",
            "streaks.json: achievements[0].id: expected a string, found a number",
        ])
    }

    func testUnknownKeysAreWarningsAndVersionIsChecked() {
        let (data, report) = decode("""
        { "players": [], "games": [ { "id": "wordle", "name": "Wordle", "colour": "green" } ],
          "plays": [ { "game": "wordle", "at": "2026-11-20T19:42:11Z", "score": 3 } ] }
        """)
        XCTAssertNotNil(data)
        XCTAssertEqual(report.warnings, ["streaks.json: players: unknown key (ignored; did you mean plays?)",
                                         "streaks.json: games[0].colour: unknown key (ignored)",
                                         "streaks.json: plays[0].score: unknown key (ignored)"])
        XCTAssertEqual(messages(#"{"version": 2}"#),
                       ["streaks.json: version: 2 is not a supported version (expected 1)"])
        XCTAssertEqual(messages("[]"), ["streaks.json: expected an object, found an array"])
    }

    func testSyntaxErrorCarriesLineAndColumn() {
        let (data, report) = decode("{\n  \"games\": [,]\n}")  // the comma is line 2, column 13
        XCTAssertNil(data)
        XCTAssertEqual(report.problems.first?.place, .position(line: 2, column: 13))
    }
}
