import Foundation
import XCTest
@testable import NudgeCore

final class JSONParserTests: XCTestCase {
    // MARK: - Helpers

    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    /// Asserts that parsing `bytes` fails with exactly this line, column and message.
    private func assertSyntaxError(
        _ bytes: [UInt8], _ line: Int, _ column: Int, _ message: String,
        file: StaticString = #filePath, line testLine: UInt = #line
    ) {
        do {
            let value = try JSONParser.parse(bytes)
            XCTFail("expected a syntax error, parsed \(value)", file: file, line: testLine)
        } catch let error as JSONSyntaxError {
            XCTAssertEqual(error, JSONSyntaxError(line: line, column: column, message: message),
                           file: file, line: testLine)
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: testLine)
        }
    }

    private func assertSyntaxError(
        _ text: String, _ line: Int, _ column: Int, _ message: String,
        file: StaticString = #filePath, line testLine: UInt = #line
    ) {
        assertSyntaxError(Array(text.utf8), line, column, message, file: file, line: testLine)
    }

    private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    // MARK: - Valid documents

    func testScalarsParseAtTopLevel() throws {
        XCTAssertEqual(try parse("null"), .null)
        XCTAssertEqual(try parse("true"), .bool(true))
        XCTAssertEqual(try parse("false"), .bool(false))
        XCTAssertEqual(try parse("\"hi\""), .string("hi"))
        XCTAssertEqual(try parse("\"\""), .string(""))
        XCTAssertEqual(try parse("0"), .number("0"))
    }

    func testNumbersKeepTheirLiteralText() throws {
        for literal in ["45", "-0", "-1.5e3", "1E+2", "0.000", "2e-7", "123456789012345678901234567890"] {
            XCTAssertEqual(try parse(literal), .number(literal), literal)
        }
        XCTAssertEqual(try parse("[1.50, 1e400]"), .array([.number("1.50"), .number("1e400")]))
    }

    func testObjectMembersKeepFileOrder() throws {
        let value = try parse(#"{"zeta": 1, "alpha": 2, "mid": 3}"#)
        XCTAssertEqual(value.objectValue?.map(\.key), ["zeta", "alpha", "mid"])
    }

    func testNestedStructuresParse() throws {
        let value = try parse(#"{"a": [1, {"b": null}, []], "c": {}, "d": [[true]]}"#)
        XCTAssertEqual(value, .object([
            JSONMember("a", .array([.number("1"), .object([JSONMember("b", .null)]), .array([])])),
            JSONMember("c", .object([])),
            JSONMember("d", .array([.array([.bool(true)])])),
        ]))
    }

    func testWhitespaceAroundTokensIsAllowed() throws {
        let value = try parse(" \t\r\n{ \"a\" \r\n: [ 1 ,\t2 ] }\n\n")
        XCTAssertEqual(value, .object([JSONMember("a", .array([.number("1"), .number("2")]))]))
    }

    func testByteOrderMarkAtStartIsSkipped() throws {
        XCTAssertEqual(try JSONParser.parse(bom + Array("[1]".utf8)), .array([.number("1")]))
    }

    func testTheByteArrayEntryPointParsesAndReportsPositions() throws {
        XCTAssertEqual(try JSONParser.parse(Array(#"{"k": ["v", 2.5]}"#.utf8)),
                       .object([JSONMember("k", .array([.string("v"), .number("2.5")]))]))
        XCTAssertEqual(try JSONParser.parse(Array(Array("xx[true]".utf8).dropFirst(2))), .array([.bool(true)]))
        XCTAssertThrowsError(try JSONParser.parse(Array("[1 2]".utf8))) { error in
            XCTAssertEqual(error as? JSONSyntaxError, JSONSyntaxError(
                line: 1, column: 3, message: "missing ',' between array elements (the next one starts at 1:4)"))
        }
    }

    /// The slips of a person editing by hand are named with their cause, at the cause (docs/promises.md).
    func testHandEditingSlipsAreNamedAtTheirCause() {
        assertSyntaxError("{\n  \"alarms\": [\n    1,\n  ]\n}", 3, 6,
                          "trailing comma before ']': JSON allows no comma after the last element (remove it)")
        assertSyntaxError("{\n  \"a\": 1\n  \"b\": 2\n}", 2, 9,
                          "missing ',' between object members (the next one starts at 3:3)")
        assertSyntaxError("// settings.json\n{}", 1, 1,
                          "a comment (//) is not JSON: remove it (JSON files have no comments)")
        assertSyntaxError("{ \"a\": 1 /* why */ }", 1, 10,
                          "a comment (/* */) is not JSON: remove it (JSON files have no comments)")
        assertSyntaxError("{ “alarms”: [] }", 1, 3,
                          "typographic quote U+201C where JSON needs a straight double quote \" (an editor or a web page replaced it: retype it)")
        assertSyntaxError("{ \"a\": ‘x’ }", 1, 8,
                          "typographic quote U+2018 where JSON needs a straight double quote \" (an editor or a web page replaced it: retype it)")
    }

    func testSimpleEscapesAreDecoded() throws {
        let value = try parse(#""q\" b\\ s\/ \b\f\n\r\t""#)
        XCTAssertEqual(value, .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t"))
    }

    func testUnicodeEscapesAreDecoded() throws {
        XCTAssertEqual(try parse(#""\u0041\u00e9\u00E9\u4E2D\u0000""#), .string("Aéé中\u{0}"))
    }

    func testSurrogatePairEscapesDecodeToOneScalar() throws {
        XCTAssertEqual(try parse(#""\uD83D\uDE00""#), .string("😀"))
        XCTAssertEqual(try parse(#""\ud83d\ude00!""#), .string("😀!"))
        XCTAssertEqual(try parse(#""x\uD834\uDD1Ey""#).stringValue?.unicodeScalars.count, 3)
    }

    func testRawNonASCIIAndEmojiAreKept() throws {
        XCTAssertEqual(try parse("\"héllo 中文 😀 👩‍👩‍👧\""), .string("héllo 中文 😀 👩‍👩‍👧"))
        XCTAssertEqual(try parse("{\"ключ\": \"é\\n😀\"}"),
                       .object([JSONMember("ключ", .string("é\n😀"))]))
    }

    func testLargeObjectWithUniqueKeysParses() throws {
        let members = (0..<1000).map { "\"key\($0)\": \($0)" }.joined(separator: ", ")
        let value = try parse("{\(members)}")
        XCTAssertEqual(value.objectValue?.count, 1000)
        XCTAssertEqual(value["key999"], .number("999"))
        XCTAssertEqual(value.objectValue?.first?.key, "key0")
    }

    // MARK: - Depth

    func testNestingOf512ArraysIsAllowed() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        var value = try parse(text)
        var depth = 0
        while let elements = value.arrayValue {
            depth += 1
            value = elements.first ?? .null
        }
        XCTAssertEqual(depth, 512)
    }

    func testNestingOf513ArraysIsRejectedAtTheInnermostBracket() {
        let text = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        assertSyntaxError(text, 1, 513, "nesting deeper than 512")
    }

    func testHundredThousandNestedArraysGiveAnErrorNotACrash() {
        assertSyntaxError(String(repeating: "[", count: 100_000), 1, 513, "nesting deeper than 512")
    }

    func testHundredThousandNestedObjectsGiveAnErrorNotACrash() {
        // Each level is `{"a":` (5 characters); the 513th `{` starts at column 512 * 5 + 1.
        assertSyntaxError(String(repeating: #"{"a":"#, count: 100_000), 1, 2561, "nesting deeper than 512")
    }

    // MARK: - Structure errors

    func testEmptyInputIsRejectedAtLineOneColumnOne() {
        assertSyntaxError("", 1, 1, "unexpected end of input; expected a JSON value")
    }

    func testWhitespaceOnlyInputIsRejectedAtTheEnd() {
        assertSyntaxError("  \n  ", 2, 3, "unexpected end of input; expected a JSON value")
    }

    func testTrailingCharactersAreRejectedWhereTheyStart() {
        assertSyntaxError("{} x", 1, 4, "trailing characters after the JSON value")
        assertSyntaxError("1 2", 1, 3, "trailing characters after the JSON value")
        assertSyntaxError("nulls", 1, 5, "trailing characters after the JSON value")
        assertSyntaxError("[1]\n]", 2, 1, "trailing characters after the JSON value")
    }

    func testMissingCommaBetweenMembersIsNamedWhereTheCommaBelongs() {
        assertSyntaxError(#"{"a": 1 "b": 2}"#, 1, 8, "missing ',' between object members (the next one starts at 1:9)")
    }

    func testMissingColonIsRejectedAfterTheKey() {
        assertSyntaxError(#"{"a" 1}"#, 1, 6, "expected ':' after object key, found '1'")
        assertSyntaxError(#"{"a""#, 1, 5, "unexpected end of input; expected ':' after object key")
    }

    func testTrailingCommaInObjectIsNamedAtTheComma() {
        assertSyntaxError(#"{"a": 1,}"#, 1, 8, "trailing comma before '}': JSON allows no comma after the last member (remove it)")
    }

    func testUnquotedKeyIsRejected() {
        assertSyntaxError("{a: 1}", 1, 2, "expected a string key or '}', found 'a'")
    }

    func testTrailingCommaInArrayIsNamedAtTheComma() {
        assertSyntaxError("[1,]", 1, 3, "trailing comma before ']': JSON allows no comma after the last element (remove it)")
    }

    func testMissingCommaInArrayIsNamedWhereTheCommaBelongs() {
        assertSyntaxError("[1 2]", 1, 3, "missing ',' between array elements (the next one starts at 1:4)")
    }

    func testUnclosedContainersAreRejectedAtTheEnd() {
        assertSyntaxError("[1, 2", 1, 6, "unexpected end of input; expected ',' or ']' after array element")
        assertSyntaxError(#"{"a": 1"#, 1, 8, "unexpected end of input; expected ',' or '}' after object member")
        assertSyntaxError("[", 1, 2, "unexpected end of input; expected a JSON value")
        assertSyntaxError("{", 1, 2, "unexpected end of input; expected a string key or '}'")
    }

    func testMismatchedBracketIsRejected() {
        assertSyntaxError(#"{"a": [1}"#, 1, 9, "expected ',' or ']' after array element, found '}'")
    }

    func testDuplicateKeyIsRejectedAtTheKey() {
        assertSyntaxError(#"{"time": 1, "time": 2}"#, 1, 13, #"duplicate key "time""#)
        assertSyntaxError("{\"a\": {\"x\": 1},\n \"a\": 2}", 2, 2, #"duplicate key "a""#)
    }

    func testDuplicateKeyIsFoundPastNestedValuesAndThroughEscapes() {
        // The earlier keys are found by skipping whole nested values, and compared by their unescaped text.
        assertSyntaxError(#"{"a": {"b": [1, {"c": 2}]}, "d": [], "a": 4}"#, 1, 38, #"duplicate key "a""#)
        assertSyntaxError(#"{"ab": 1, "a\u0062": 2}"#, 1, 11, #"duplicate key "ab""#)
        assertSyntaxError(#"{"a\u0062": 1, "ab": 2}"#, 1, 16, #"duplicate key "ab""#)
        XCTAssertEqual(try parse(#"{"a\u0062": 1, "a\u0063": 2}"#)["ac"], .number("2"))
    }

    /// A key is compared with the earlier ones only when one of them has its length and last byte: keys that
    /// share those are still told apart, and a repeat is found wherever it is, the empty key too.
    func testDuplicateKeyIsFoundAmongKeysOfTheSameLengthAndLastByte() throws {
        XCTAssertEqual(try parse(#"{"ab": 1, "cb": 2, "b": 3}"#)["cb"], .number("2"))
        assertSyntaxError(#"{"ab": 1, "cb": 2, "ab": 3}"#, 1, 20, #"duplicate key "ab""#)
        assertSyntaxError(#"{"": 1, "x": 2, "": 3}"#, 1, 17, #"duplicate key """#)
    }

    func testSameKeyInDifferentObjectsIsAllowed() throws {
        let value = try parse(#"{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}"#)
        XCTAssertEqual(value["a"]?["a"], .number("1"))
    }

    func testDuplicateKeyInLargeObjectIsRejected() {
        let members = (0..<100).map { "\"k\($0)\":0," }.joined()
        // `{` + members, then `"k42"` begins right after them.
        assertSyntaxError("{" + members + "\"k42\":1}", 1, 2 + members.count, #"duplicate key "k42""#)
        assertSyntaxError("{" + members + "\"k\\u0034\\u0032\":1}", 1, 2 + members.count, #"duplicate key "k42""#)
        XCTAssertNoThrow(try parse("{" + members + "\"k100\":1}"))
    }

    func testDuplicateKeyMessageEscapesTheKey() {
        assertSyntaxError(#"{"a\"b\n": 1, "a\"b\n": 2}"#, 1, 15, #"duplicate key "a\"b\n""#)
    }

    // MARK: - Literal and value errors

    func testMisspelledLiteralsAreRejectedAtTheFirstWrongCharacter() {
        assertSyntaxError("tru", 1, 4, "unexpected end of input; expected 'true'")
        assertSyntaxError("[nul1]", 1, 5, "expected 'null', found '1'")
        assertSyntaxError("fals e", 1, 5, "expected 'false', found ' '")
        assertSyntaxError("True", 1, 1, "expected a JSON value, found 'T'")
    }

    func testUnexpectedCharactersAreDescribedReadably() {
        assertSyntaxError("\u{07}", 1, 1, "expected a JSON value, found U+0007")
        assertSyntaxError("[é]", 1, 2, "expected a JSON value, found 'é'")
        assertSyntaxError("[\u{A0}1]", 1, 2, "expected a JSON value, found U+00A0")
        assertSyntaxError([0x5B, 0xFF, 0x5D], 1, 2, "expected a JSON value, found invalid UTF-8 byte 0xFF")
        assertSyntaxError("'a'", 1, 1, "expected a JSON value, found '''")
    }

    // MARK: - Number errors

    func testLeadingZerosAreRejected() {
        assertSyntaxError("01", 1, 2, "leading zeros are not allowed in numbers")
        assertSyntaxError("[-007]", 1, 4, "leading zeros are not allowed in numbers")
    }

    func testNumbersMustFollowTheJSONGrammar() {
        assertSyntaxError("+1", 1, 1, "expected a JSON value, found '+'")
        assertSyntaxError(".5", 1, 1, "expected a JSON value, found '.'")
        assertSyntaxError("1.", 1, 3, "unexpected end of input; expected a digit after '.' in number")
        assertSyntaxError("[1.]", 1, 4, "expected a digit after '.' in number, found ']'")
        assertSyntaxError("1e", 1, 3, "unexpected end of input; expected a digit in exponent")
        assertSyntaxError("1E+x", 1, 4, "expected a digit in exponent, found 'x'")
        assertSyntaxError("-", 1, 2, "unexpected end of input; expected a digit after '-'")
        assertSyntaxError("0x10", 1, 2, "trailing characters after the JSON value")
    }

    func testNaNAndInfinityAreRejected() {
        assertSyntaxError("NaN", 1, 1, "expected a JSON value, found 'N'")
        assertSyntaxError("Infinity", 1, 1, "expected a JSON value, found 'I'")
        assertSyntaxError("-Infinity", 1, 2, "expected a digit after '-', found 'I'")
    }

    // MARK: - String errors

    func testUnterminatedStringIsRejectedAtTheEnd() {
        assertSyntaxError(#""abc"#, 1, 5, "unexpected end of input inside string")
        assertSyntaxError(#"["a\"#, 1, 5, "unexpected end of input inside string")
        assertSyntaxError(#""\u00"#, 1, 6, "unexpected end of input inside string")
        assertSyntaxError(#""\uD83D"#, 1, 8, "unexpected end of input inside string")
        assertSyntaxError(#""\uD83D\"#, 1, 9, "unexpected end of input inside string")
    }

    func testUnescapedControlCharactersInStringsAreRejected() {
        assertSyntaxError("\"a\tb\"", 1, 3, "unescaped control character U+0009 in string")
        assertSyntaxError("\"a\nb\"", 1, 3, "unescaped control character U+000A in string")
        assertSyntaxError([0x22, 0x00, 0x22], 1, 2, "unescaped control character U+0000 in string")
    }

    func testEveryByteOfALongStringIsCheckedWhateverItsPlaceInAWord() throws {
        // Plain runs are skipped eight bytes at a time: the byte that needs a look must be found at any offset.
        for offset in 0..<20 {
            let run = String(repeating: "a", count: offset), tail = String(repeating: "b", count: 19 - offset)
            let column = 2 + offset
            assertSyntaxError("\"" + run + "\t" + tail + "\"", 1, column, "unescaped control character U+0009 in string")
            assertSyntaxError(Array(("\"" + run).utf8) + [0x1F] + Array((tail + "\"").utf8), 1, column,
                              "unescaped control character U+001F in string")
            assertSyntaxError(Array(("\"" + run).utf8) + [0xFF] + Array((tail + "\"").utf8), 1, column, "invalid UTF-8")
            XCTAssertEqual(try parse("[\"" + run + "\",1]"), .array([.string(run), .number("1")]))
            XCTAssertEqual(try parse("\"" + run + "\\n" + tail + "\""), .string(run + "\n" + tail))
            XCTAssertEqual(try parse("\"" + run + "é~ " + tail + "\""), .string(run + "é~ " + tail))
            XCTAssertEqual(try parse("\"" + run + "\u{7F}" + tail + "\""), .string(run + "\u{7F}" + tail))
        }
    }

    func testUnknownEscapeIsRejectedAtTheLetter() {
        assertSyntaxError(#""a\x""#, 1, 4,
                          #"invalid escape sequence: expected one of " \ / b f n r t u after '\', found 'x'"#)
    }

    func testBadHexInUnicodeEscapeIsRejectedAtTheDigit() {
        assertSyntaxError(#""\u12G4""#, 1, 6, #"expected 4 hex digits after '\u', found 'G'"#)
    }

    func testLoneAndMismatchedSurrogatesAreRejectedAtTheEscape() {
        assertSyntaxError(#""\uD800""#, 1, 2, #"unpaired surrogate \uD800 in string"#)
        assertSyntaxError(#""ab\uDE00""#, 1, 4, #"unpaired surrogate \uDE00 in string"#)
        assertSyntaxError(#""\uD83D\u0041""#, 1, 2, #"unpaired surrogate \uD83D in string"#)
        assertSyntaxError(#""\uD83Dxy""#, 1, 2, #"unpaired surrogate \uD83D in string"#)
        assertSyntaxError(#""\uD83D\uD83D""#, 1, 2, #"unpaired surrogate \uD83D in string"#)
    }

    func testInvalidUTF8InStringsIsRejectedAtTheBadByte() {
        assertSyntaxError([0x22, 0x61, 0xFF, 0x22], 1, 3, "invalid UTF-8")
        assertSyntaxError([0x22, 0x80, 0x22], 1, 2, "invalid UTF-8")             // stray continuation
        assertSyntaxError([0x22, 0xC0, 0x80, 0x22], 1, 2, "invalid UTF-8")       // overlong NUL
        assertSyntaxError([0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2, "invalid UTF-8") // encoded surrogate
        assertSyntaxError([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, 2, "invalid UTF-8") // above U+10FFFF
        assertSyntaxError([0x22, 0xE2, 0x28, 0xA1, 0x22], 1, 2, "invalid UTF-8") // bad continuation
        assertSyntaxError([0x22, 0xE2, 0x82], 1, 2, "invalid UTF-8")             // cut off by the end
        // "é" before the bad byte is one column.
        assertSyntaxError([0x22, 0xC3, 0xA9, 0xFE, 0x22], 1, 3, "invalid UTF-8")
    }

    // MARK: - Positions

    func testErrorPositionCountsLines() {
        assertSyntaxError("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "expected ':' after object key, found '2'")
    }

    func testCRLFLineEndingCountsAsOneLineBreak() {
        assertSyntaxError("{\r\n  \"a\": 1,\r\n  \"b\" 2\r\n}", 3, 7, "expected ':' after object key, found '2'")
        assertSyntaxError("[1,\r\n\r\n", 3, 1, "unexpected end of input; expected a JSON value")
    }

    func testColumnCountsUnicodeScalarsNotBytes() {
        assertSyntaxError(#"{"é": 1 "b": 2}"#, 1, 8, "missing ',' between object members (the next one starts at 1:9)")
        assertSyntaxError("[\"😀中\" 1]", 1, 6, "missing ',' between array elements (the next one starts at 1:7)")
        assertSyntaxError("{\"a\": \"ß\",\n \"é\": \"😀\" x}", 2, 11,
                          "expected ',' or '}' after object member, found 'x'")
    }

    func testTabCountsAsOneColumn() {
        assertSyntaxError("\t\t[1 2]", 1, 5, "missing ',' between array elements (the next one starts at 1:6)")
    }

    func testByteOrderMarkIsNotCountedAsAColumn() {
        assertSyntaxError(bom + Array("[1 2]".utf8), 1, 3, "missing ',' between array elements (the next one starts at 1:4)")
        assertSyntaxError(bom, 1, 1, "unexpected end of input; expected a JSON value")
        assertSyntaxError(bom + Array("\n x".utf8), 2, 2, "expected a JSON value, found 'x'")
    }

    func testByteOrderMarkAfterTheStartIsAnError() {
        assertSyntaxError(Array(" ".utf8) + bom + Array("1".utf8), 1, 2, "expected a JSON value, found U+FEFF")
    }

    func testDescriptionIsLineColonColumnColonMessage() {
        let error = JSONSyntaxError(line: 3, column: 14, message: "expected ':' after object key, found '2'")
        XCTAssertEqual(error.description, "3:14: expected ':' after object key, found '2'")
    }
}
