import XCTest
@testable import NudgeCore

/// The tape decoders read files from: lookups in place must answer exactly what the `JSONValue` tree answers.
final class JSONTapeTests: XCTestCase {
    /// Runs `body` on the tape of `text`.
    private func withTape<Result>(_ text: String, _ body: (JSONTape) -> Result) throws -> Result {
        try JSONParser.withTape(Array(text.utf8), body)
    }

    func testWholeNumbersReadLikeTheTree() throws {
        let literals = ["0", "-0", "7", "-45", "123456789012345678", "-123456789012345678", "9223372036854775807",
                        "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
                        "99999999999999999999", "1.0", "1.5", "1e3", "-1E-2", "0.000"]
        for literal in literals {
            let tree = try JSONParser.parse(Array(literal.utf8))
            let tape = try withTape(literal) { $0.intValue(JSONTape.root) }
            XCTAssertEqual(tape, tree.intValue, literal)
        }
        XCTAssertEqual(try withTape("9223372036854775807") { $0.intValue(JSONTape.root) }, Int.max)
        XCTAssertEqual(try withTape("-9223372036854775808") { $0.intValue(JSONTape.root) }, Int.min)
        XCTAssertNil(try withTape(#""12""#) { $0.intValue(JSONTape.root) })
    }

    func testMembersAreFoundPastNestedValuesAndByUnescapedKey() throws {
        let text = #"{"a": {"minutes": 1}, "list": [[1, {"minutes": 2}], []], "min\u0075tes": 3, "x": null}"#
        try withTape(text) { tape in
            let minutes = tape.member("minutes", of: JSONTape.root)
            XCTAssertEqual(minutes.flatMap(tape.intValue), 3)
            XCTAssertEqual(tape.members(of: JSONTape.root).map { tape.text($0.key) }, ["a", "list", "minutes", "x"])
            XCTAssertNil(tape.member("min", of: JSONTape.root))
            XCTAssertEqual(tape.member("x", of: JSONTape.root).map(tape.kind), .null)
            guard let list = tape.member("list", of: JSONTape.root) else { return XCTFail("no list") }
            XCTAssertEqual(tape.elements(of: list).map(tape.kind), [.array, .array])
            XCTAssertEqual(tape.value(list), .array([.array([.number("1"), .object([JSONMember("minutes", .number("2"))])]),
                                                     .array([])]))
        }
    }

    func testMembersOfLargeObjectsAreFoundThroughTheKeyTable() throws {
        // Past `keyTableThreshold` members lookups go through the parser's key table: every key must still be
        // found (escaped or not, long or short, near the start or the end) and nothing else.
        var members = (0..<3_000).map { #""key\#($0)": \#($0)"# }
        members.append(#""esc\u0061ped": "e""#)
        members.append(#""a long key of more than sixteen bytes": "l""#)
        members.append(#""": "empty""#)
        try withTape("{" + members.joined(separator: ",") + "}") { tape in
            XCTAssertNotNil(tape.keyTable(of: JSONTape.root))
            for index in [0, 1, 15, 16, 17, 1_234, 2_999] {
                XCTAssertEqual(tape.member("key\(index)", of: JSONTape.root).flatMap(tape.intValue), index)
            }
            XCTAssertEqual(tape.member("escaped", of: JSONTape.root).map(tape.text), "e")
            XCTAssertEqual(tape.member("a long key of more than sixteen bytes", of: JSONTape.root).map(tape.text), "l")
            XCTAssertEqual(tape.member("", of: JSONTape.root).map(tape.text), "empty")
            XCTAssertNil(tape.member("key3000", of: JSONTape.root))
            XCTAssertNil(tape.member("esc\\u0061ped", of: JSONTape.root))
            XCTAssertNil(tape.member("key", of: JSONTape.root))
        }
        XCTAssertNil(try withTape(#"{"a": 1, "b": 2}"#) { $0.keyTable(of: JSONTape.root) })
    }

    func testNestedLargeObjectsEachFindTheirOwnMembers() throws {
        func object(_ prefix: String, inner: String = "") -> String {
            "{" + (0..<40).map { #""\#(prefix)\#($0)": \#($0)"# }.joined(separator: ",") + inner + "}"
        }
        let text = "[" + object("a", inner: #", "inner": "# + object("b")) + "," + object("c") + "]"
        try withTape(text) { tape in
            let outer = tape.elements(of: JSONTape.root)
            XCTAssertEqual(outer.count, 2)
            XCTAssertEqual(tape.member("a39", of: outer[0]).flatMap(tape.intValue), 39)
            XCTAssertNil(tape.member("b39", of: outer[0]))
            guard let inner = tape.member("inner", of: outer[0]) else { return XCTFail("no inner object") }
            XCTAssertEqual(tape.member("b20", of: inner).flatMap(tape.intValue), 20)
            XCTAssertNil(tape.member("a20", of: inner))
            XCTAssertEqual(tape.member("c33", of: outer[1]).flatMap(tape.intValue), 33)
            XCTAssertNil(tape.member("a33", of: outer[1]))
        }
    }

    func testStringsKeepTheirTextWithAndWithoutEscapes() throws {
        let text = #"["plain", "tab\there", "snow \u2744 é", "", "\ud83d\ude00"]"#
        let strings = try withTape(text) { tape in tape.elements(of: JSONTape.root).map(tape.text) }
        XCTAssertEqual(strings, ["plain", "tab\there", "snow ❄ é", "", "😀"])
        let kinds = try withTape(text) { tape in tape.elements(of: JSONTape.root).map(tape.kind) }
        XCTAssertEqual(kinds, [.string, .escapedString, .escapedString, .string, .escapedString])
        XCTAssertTrue(try withTape(#"["a\u0062", "ab"]"#) { $0.textEquals(1, 2) && $0.textEquals(1, "ab") })
        XCTAssertFalse(try withTape(#"["ab", "abc"]"#) { $0.textEquals(1, 2) || $0.textEquals(1, "a") })
        XCTAssertTrue(try withTape(#"["", ""]"#) { $0.textEquals(1, 2) && $0.textEquals(1, "") && !$0.textEquals(1, "a") })
        XCTAssertEqual(try withTape(#"{"a": 1, "": 2}"#) { $0.member("", of: JSONTape.root) }, 4)
    }

    func testTextIsTheStringOfItsBytesAtEveryLengthAndScript() throws {
        let texts = ["", "a", "Alarm 0", String(repeating: "x", count: 15), String(repeating: "y", count: 16),
                     "Fajr Time with a longer title", "é", "Fajr é", "الفجر", String(repeating: "ü", count: 7),
                     "tab\there", "quote\"d and \\ slashed", "emoji 🕌"]
        for text in texts {
            let json = Array(JSONValue.string(text).compactText.utf8)
            try JSONParser.withTape(json) { tape in
                XCTAssertEqual(tape.text(JSONTape.root), text)
                XCTAssertEqual(tape.text(JSONTape.root).utf8.count, text.utf8.count)
            }
        }
        // Bytes that are not UTF-8 never reach `text`: the parser refuses them, short or long.
        for bytes: [UInt8] in [[0x61, 0xFF, 0x62], [0xC3], Array(repeating: 0x61, count: 20) + [0xE2, 0x82]] {
            XCTAssertThrowsError(try JSONParser.withTape([0x22] + bytes + [0x22], { $0.text(JSONTape.root) }),
                                 "\(bytes)")
        }
    }

    func testEveryKindIsNamedAsTheTreeNamesIt() throws {
        let text = #"[null, true, false, 1, "s", "\n", [], {}]"#
        let tree = try XCTUnwrap(JSONParser.parse(Array(text.utf8)).arrayValue)
        let names = try withTape(text) { tape in tape.elements(of: JSONTape.root).map(tape.typeDescription) }
        XCTAssertEqual(names, tree.map(\.typeDescription))
        XCTAssertEqual(try withTape(text) { $0.value(JSONTape.root) }, .array(tree))
    }

    func testANodeKeepsItsKindBesideTheLargestOffset() {
        let kinds: [JSONTape.Kind] = [.null, .false, .true, .number, .string, .escapedString, .array, .object]
        for kind in kinds {
            for start in [0, 1, 12_345, JSONTape.maximumSize - 1] {
                let node = JSONTape.Node(kind: kind, start: UInt32(start), end: UInt32.max)
                XCTAssertEqual(node.kind, kind)
                XCTAssertEqual(Int(node.start), start)
                XCTAssertEqual(node.end, UInt32.max)
            }
        }
        XCTAssertEqual(MemoryLayout<JSONTape.Node>.stride, 8)
    }
}
