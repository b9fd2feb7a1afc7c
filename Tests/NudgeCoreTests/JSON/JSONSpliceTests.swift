import XCTest
@testable import NudgeCore

/// Edits that change only the bytes of what they change (docs/promises.md), on literal files.
final class JSONSpliceTests: XCTestCase {
    /// `text` parsed, changed by `edit`, and spliced back into `text`.
    private func splice(_ text: String, _ edit: (JSONValue) -> JSONValue) throws -> String {
        let bytes = Array(text.utf8)
        let edited = edit(try JSONParser.parse(bytes))
        return String(decoding: JSONSplice.content(edited, replacing: bytes), as: UTF8.self)
    }

    private let play = JSONValue.object([JSONMember("game", .string("wordle")),
                                         JSONMember("at", .string("2026-11-21T19:42:11Z"))])

    private func appendingPlay(_ document: JSONValue) -> JSONValue {
        document.setting("plays", to: .array((document["plays"]?.arrayValue ?? []) + [play]))
    }

    func testNothingChangedIsTheSameBytes() throws {
        let text = "{ \"a\" : [1,2 ,3],\n\t\"b\": {}\n}\n\n"
        XCTAssertEqual(try splice(text) { $0 }, text)
    }

    func testStringsHoldingBracketsQuotesAndCommasAreSkippedWhole() throws {
        let text = #"{"note": "a } ] , \" [ {", "plays": [{"game": "w\"x]", "at": "2026-11-20T19:00:00Z"}], "z": "}"}"#
        XCTAssertEqual(try splice(text, appendingPlay), #"{"note": "a } ] , \" [ {", "plays": [{"game": "w\"x]", "#
            + #""at": "2026-11-20T19:00:00Z"}, {"game": "wordle", "at": "2026-11-21T19:42:11Z"}], "z": "}"}"#)
    }

    func testAByteOrderMarkAndTheEndOfTheFileStay() throws {
        let text = "\u{FEFF}  {\"plays\": [1]}  \n\n"
        XCTAssertEqual(try splice(text, appendingPlay),
                       "\u{FEFF}  {\"plays\": [1, {\"game\": \"wordle\", \"at\": \"2026-11-21T19:42:11Z\"}]}  \n\n")
    }

    func testANestedValueIsReplacedWhereItLies() throws {
        let text = """
            {
                "pets": [
                    { "id": "snowy", "cycle": { "stage": "wash",   "startedAt": "2026-11-21T07:30:00Z" } }
                ]
            }
            """
        let edited = try splice(text) { document in
            let pet = document["pets"]?.arrayValue?[0] ?? .null
            let cycle = (pet["cycle"] ?? .null).setting("stage", to: .string("dry"))
            return document.setting("pets", to: .array([pet.setting("cycle", to: cycle)]))
        }
        XCTAssertEqual(edited, text.replacingOccurrences(of: #""stage": "wash""#, with: #""stage": "dry""#))
    }

    func testRemovingTheFirstMemberTakesTheCommaAfterIt() throws {
        XCTAssertEqual(try splice("{ \"cycle\": {\"a\": 1},\n  \"id\": \"rex\" }") { $0.removing("cycle") },
                       "{ \"id\": \"rex\" }")
    }

    func testRemovingAMemberInTheMiddleTakesTheCommaBeforeIt() throws {
        let text = "{\r\n  \"a\": 1,\r\n  \"b\": 2,\r\n  \"c\": 3,\r\n  \"d\": 4\r\n}\r\n"
        XCTAssertEqual(try splice(text) { $0.removing("b").removing("c") }, "{\r\n  \"a\": 1,\r\n  \"d\": 4\r\n}\r\n")
        XCTAssertEqual(try splice(text) { $0.removing("d") }, "{\r\n  \"a\": 1,\r\n  \"b\": 2,\r\n  \"c\": 3\r\n}\r\n")
    }

    func testReplacingEveryMemberWritesTheObjectInItsOwnStyle() throws {
        XCTAssertEqual(try splice(#"{"x": {"a": 1, "b": 2}}"#) { $0.setting("x", to: .object([JSONMember("c", .null)])) },
                       #"{"x": {"c": null}}"#)
    }

    func testAnElementChangedInPlaceLeavesItsSiblings() throws {
        let text = "[\n    {\"id\": \"a\"},\n    {\"id\": \"b\"}\n]"
        let edited = try splice(text) { document in
            var elements = document.arrayValue ?? []
            elements[1] = elements[1].setting("n", to: .number("2"))
            return .array(elements)
        }
        XCTAssertEqual(edited, "[\n    {\"id\": \"a\"},\n    {\"id\": \"b\", \"n\": 2}\n]")
    }

    func testAKeyAddedToAnObjectOnOneLineUsesItsSpacing() throws {
        XCTAssertEqual(try splice(#"{"id" : "rex"}"#) { $0.setting("name", to: .string("Rex")) },
                       #"{"id" : "rex", "name" : "Rex"}"#, "its colon; a space after the comma, as nudge writes")
        XCTAssertEqual(try splice(#"{ "a": 1, "b": 2 }"#) { $0.setting("c", to: .array([.number("3")])) },
                       #"{ "a": 1, "b": 2, "c": [ 3 ] }"#)
    }

    func testAnEmptyRootGetsNudgesOwnLayout() throws {
        XCTAssertEqual(try splice("{}\n", appendingPlay), """
            {
              "plays": [
                {
                  "game": "wordle",
                  "at": "2026-11-21T19:42:11Z"
                }
              ]
            }

            """)
    }

    func testAnEscapedKeyIsTheKeyItSpells() throws {
        XCTAssertEqual(try splice(#"{"\u0070lays": []}"#, appendingPlay),
                       #"{"\u0070lays": [{"game": "wordle", "at": "2026-11-21T19:42:11Z"}]}"#)
    }

    func testNoFileIsWrittenInNudgesOwnLayout() {
        XCTAssertEqual(String(decoding: JSONSplice.content(.object([JSONMember("a", .array([]))]), replacing: nil),
                              as: UTF8.self), "{\n  \"a\": []\n}\n")
    }
}
