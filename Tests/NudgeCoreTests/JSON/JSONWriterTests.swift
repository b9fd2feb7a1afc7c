import Foundation
import XCTest
@testable import NudgeCore

/// Writing `JSONValue` back out, plus the value accessors and edits used when rewriting a file.
final class JSONWriterTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    private let sample: JSONValue = .object([
        JSONMember("a", .number("1")),
        JSONMember("b", .array([.bool(true), .null])),
    ])

    // MARK: - Compact text

    func testCompactTextHasNoSpaces() {
        XCTAssertEqual(sample.compactText, #"{"a":1,"b":[true,null]}"#)
    }

    func testCompactTextOfScalarsAndEmptyContainers() {
        XCTAssertEqual(JSONValue.null.compactText, "null")
        XCTAssertEqual(JSONValue.bool(false).compactText, "false")
        XCTAssertEqual(JSONValue.string("x").compactText, #""x""#)
        XCTAssertEqual(JSONValue.array([]).compactText, "[]")
        XCTAssertEqual(JSONValue.object([]).compactText, "{}")
        XCTAssertEqual(JSONValue.array([.array([]), .object([])]).compactText, "[[],{}]")
    }

    func testNumbersAreWrittenAsTheirStoredText() throws {
        XCTAssertEqual(try parse("[1E+2, -0, 1.50, 1e400]").compactText, "[1E+2,-0,1.50,1e400]")
    }

    // MARK: - Pretty text

    func testPrettyTextIndentsByTwoSpacesWithoutTrailingNewline() {
        let value: JSONValue = .object([
            JSONMember("name", .string("n")),
            JSONMember("list", .array([.number("1"), .object([JSONMember("x", .null)])])),
            JSONMember("empty", .array([])),
            JSONMember("none", .object([])),
        ])
        let expected = """
        {
          "name": "n",
          "list": [
            1,
            {
              "x": null
            }
          ],
          "empty": [],
          "none": {}
        }
        """
        XCTAssertEqual(value.prettyText, expected)
    }

    func testPrettyTextOfScalarsAndEmptyContainersIsOneLine() {
        XCTAssertEqual(JSONValue.number("-1.5e3").prettyText, "-1.5e3")
        XCTAssertEqual(JSONValue.array([]).prettyText, "[]")
        XCTAssertEqual(JSONValue.object([]).prettyText, "{}")
        XCTAssertEqual(JSONValue.array([.bool(true)]).prettyText, "[\n  true\n]")
    }

    // MARK: - String escaping

    func testQuoteBackslashAndNamedControlCharactersAreEscaped() {
        let value = JSONValue.string("\"\\\u{08}\u{0C}\n\r\t")
        XCTAssertEqual(value.compactText, #""\"\\\b\f\n\r\t""#)
    }

    func testOtherControlCharactersUseLowercaseUnicodeEscapes() {
        XCTAssertEqual(JSONValue.string("\u{0}\u{1}\u{1F}\u{1b}").compactText, #""\u0000\u0001\u001f\u001b""#)
    }

    func testSlashAndNonASCIIAreNotEscaped() {
        XCTAssertEqual(JSONValue.string("a/b é 中 😀 \u{7F}").compactText, "\"a/b é 中 😀 \u{7F}\"")
    }

    /// The writer looks for bytes to escape eight at a time: each escaped byte, and the bytes that differ from
    /// one only in a bit (0x20, 0x7F, 0xA2, 0xDC, UTF-8 continuation bytes), at every position of strings of
    /// every length around a word must come out as a byte-by-byte escape writes them.
    func testEscapesAreFoundAtEveryPositionOfAWord() {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\u{08}": out += "\\b"
                case "\u{0C}": out += "\\f"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{00}"..."\u{1F}":
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let specials: [Unicode.Scalar] = ["\"", "\\", "\u{0}", "\u{1F}", "\n", " ", "!", "#", "[", "]", "\u{7F}",
                                          "\u{A2}", "\u{DC}", "\u{9F}", "é"]
        for length in 0...17 {
            for position in 0..<max(length, 1) {
                for special in specials {
                    var scalars = Array(repeating: Unicode.Scalar("a"), count: length)
                    if length > 0 { scalars[position] = special }
                    let text = String(String.UnicodeScalarView(scalars))
                    XCTAssertEqual(JSONValue.string(text).compactText, reference(text), "\(scalars)")
                }
            }
        }
    }

    func testObjectKeysAreEscaped() {
        let value: JSONValue = .object([JSONMember("k\"\n", .null)])
        XCTAssertEqual(value.compactText, #"{"k\"\n":null}"#)
        XCTAssertEqual(value.prettyText, "{\n  \"k\\\"\\n\": null\n}")
    }

    // MARK: - Round trips

    private let roundTripDocument = """
    {"zeta": [1, -2.5e-3, 0, true, false, null, "", "tab\\there", "\\u0001", "\\uD83D\\uDE00 😀"],
     "alpha": {"nested": {"deep": [[], {}, [{}]]}, "ключ": "значение"},
     "slash": "\\/path/to", "big": 123456789012345678901234567890}
    """

    func testParseCompactParseRoundTripIsLossless() throws {
        let value = try parse(roundTripDocument)
        XCTAssertEqual(try parse(value.compactText), value)
    }

    func testParsePrettyParseRoundTripIsLossless() throws {
        let value = try parse(roundTripDocument)
        XCTAssertEqual(try parse(value.prettyText), value)
        XCTAssertEqual(try parse(value.prettyText).prettyText, value.prettyText)
    }

    func testRoundTripKeepsKeyOrderAndEscapesMinimally() throws {
        let value = try parse(#"{"b": "\/\u00e9", "a": "\ud83d\ude00", "c": 1.0}"#)
        XCTAssertEqual(value.compactText, #"{"b":"/é","a":"😀","c":1.0}"#)
    }

    func testWritingIsDeterministic() throws {
        let value = try parse(roundTripDocument)
        XCTAssertEqual(value.compactText, #"{"zeta":[1,-2.5e-3,0,true,false,null,"","tab\there","\u0001","😀 😀"],"#
            + #""alpha":{"nested":{"deep":[[],{},[{}]]},"ключ":"значение"},"slash":"/path/to","#
            + #""big":123456789012345678901234567890}"#)
        XCTAssertEqual(try parse(roundTripDocument).compactText, value.compactText)
        XCTAssertEqual(try parse(roundTripDocument).prettyText, value.prettyText)
    }

    // MARK: - Editing keeps order and unknown keys

    func testSettingExistingKeyReplacesItInPlace() throws {
        let value = try parse(#"{"x": 1, "time": "08:00", "unknown": {"keep": true}}"#)
        let edited = value.setting("time", to: .string("09:30"))
        XCTAssertEqual(edited.compactText, #"{"x":1,"time":"09:30","unknown":{"keep":true}}"#)
    }

    func testSettingNewKeyAppendsIt() throws {
        let edited = try parse(#"{"b": 1, "a": 2}"#).setting("c", to: .null)
        XCTAssertEqual(edited.objectValue?.map(\.key), ["b", "a", "c"])
    }

    func testRemovingKeyKeepsTheOthersInOrder() throws {
        let value = try parse(#"{"c": 1, "b": 2, "a": 3}"#)
        XCTAssertEqual(value.removing("b").compactText, #"{"c":1,"a":3}"#)
        XCTAssertEqual(value.removing("missing"), value)
    }

    func testSettingAndRemovingOnNonObjectsReturnTheValueUnchanged() {
        let array: JSONValue = .array([.number("1")])
        XCTAssertEqual(array.setting("a", to: .null), array)
        XCTAssertEqual(JSONValue.string("s").removing("a"), .string("s"))
    }

    // MARK: - Value access

    func testIntValueAcceptsOnlyPlainIntegersThatFit() {
        XCTAssertEqual(JSONValue.number("45").intValue, 45)
        XCTAssertEqual(JSONValue.number("-0").intValue, 0)
        XCTAssertEqual(JSONValue.number("9223372036854775807").intValue, Int.max)
        XCTAssertEqual(JSONValue.number("-9223372036854775808").intValue, Int.min)
        XCTAssertNil(JSONValue.number("9223372036854775808").intValue)
        XCTAssertNil(JSONValue.number("-9223372036854775809").intValue)
        XCTAssertNil(JSONValue.number("1e400").intValue)
        XCTAssertNil(JSONValue.number("1e2").intValue)
        XCTAssertNil(JSONValue.number("1.0").intValue)
        XCTAssertNil(JSONValue.number("1.5").intValue)
        XCTAssertNil(JSONValue.string("45").intValue)
    }

    func testDoubleValueIsFiniteOrNil() {
        XCTAssertEqual(JSONValue.number("-1.5e3").doubleValue, -1500)
        XCTAssertEqual(JSONValue.number("45").doubleValue, 45)
        XCTAssertEqual(JSONValue.number("0.1").doubleValue, 0.1)
        XCTAssertNil(JSONValue.number("1e400").doubleValue)
        XCTAssertNil(JSONValue.bool(true).doubleValue)
    }

    func testTypedAccessorsReturnNilForOtherTypes() throws {
        let value = try parse(#"{"s": "x", "b": false, "a": [null], "o": {}, "n": null}"#)
        XCTAssertEqual(value["s"]?.stringValue, "x")
        XCTAssertEqual(value["b"]?.boolValue, false)
        XCTAssertEqual(value["a"]?.arrayValue, [.null])
        XCTAssertEqual(value["o"]?.objectValue, [])
        XCTAssertEqual(value["n"]?.isNull, true)
        XCTAssertNil(value["missing"])
        XCTAssertNil(value["s"]?.boolValue)
        XCTAssertNil(value["b"]?.stringValue)
        XCTAssertNil(value["o"]?.arrayValue)
        XCTAssertNil(value["a"]?.objectValue)
        XCTAssertEqual(value["s"]?.isNull, false)
        XCTAssertNil(JSONValue.array([])["s"])
    }

    func testTypeDescriptionsReadAsNouns() {
        let values: [JSONValue] = [.null, .bool(true), .number("1"), .string(""), .array([]), .object([])]
        XCTAssertEqual(values.map(\.typeDescription),
                       ["null", "a boolean", "a number", "a string", "an array", "an object"])
    }
}

/// The byte writers that the file writers share: quoted strings and instants.
final class ByteWritingTests: XCTestCase {
    func testQuotedStringsAndInstantsAreWrittenAsJSONText() {
        var array: [UInt8] = []
        for text in ["plain", "quote \" and \\ and \n and \u{1}", "Zoë ❄️"] {
            JSONValue.appendQuoted(text, to: &array)
        }
        RFC3339.append(Date(timeIntervalSince1970: 1_795_248_000.25), to: &array)
        XCTAssertEqual(String(decoding: array, as: UTF8.self),
                       #""plain""quote \" and \\ and \n and \u0001""Zoë ❄️"2026-11-21T08:00:00.250Z"#)
    }
}
