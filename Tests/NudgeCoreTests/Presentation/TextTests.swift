import XCTest
@testable import NudgeCore

/// The standard-library replacements for Foundation's trimming and searching (TextFormat.swift).
final class TextTests: XCTestCase {
    func testTrimmingWhitespaceRemovesUnicodeSpacesAndLineBreaksAtBothEndsOnly() {
        XCTAssertEqual("  Sam \n".trimmingWhitespace, "Sam")
        XCTAssertEqual("\u{00A0}\u{3000}Jo Ann\t\u{2028}".trimmingWhitespace, "Jo Ann")
        XCTAssertEqual(" \n\t\u{00A0} ".trimmingWhitespace, "")
        XCTAssertEqual("".trimmingWhitespace, "")
        XCTAssertEqual("Zoë".trimmingWhitespace, "Zoë")
    }

    func testTrimmingWhitespaceAgreesWithFoundation() {
        let samples = ["  a ", "\u{0085}x\u{0085}", "\u{200B}y", "\u{FEFF}z ", "\r\nline\r\n", "e\u{0301} ", " \u{0301}"]
        for sample in samples {
            XCTAssertEqual(sample.trimmingWhitespace, sample.trimmingCharacters(in: .whitespacesAndNewlines),
                           "\(Array(sample.unicodeScalars))")
        }
    }

    func testFirstByteRangeFindsTheFirstMatchOnly() throws {
        let id = "alarm:fajr:2026-11-21:snooze-1:snooze-2"
        let range = try XCTUnwrap(id[...].firstByteRange(of: ":snooze-"))
        XCTAssertEqual(String(id[..<range.lowerBound]), "alarm:fajr:2026-11-21")
        XCTAssertNil("abc"[...].firstByteRange(of: "abcd"))
        XCTAssertNil("abc"[...].firstByteRange(of: ""))
    }

    func testFirstByteRangeIsInTheTextsOwnIndicesPastPartialMatches() throws {
        let line = "Zoë 🧩: :snoo :snooze I solved the 21 Nov Mini Crossword in 0:42"
        let range = try XCTUnwrap(line[...].firstByteRange(of: ":snooze"))
        XCTAssertEqual(String(line[range]), ":snooze")
        XCTAssertEqual(String(line[..<range.lowerBound]), "Zoë 🧩: :snoo ")
        let tail = line[range.upperBound...]
        let marker = try XCTUnwrap(tail.firstByteRange(of: "Mini Crossword in "))
        XCTAssertEqual(String(line[marker.upperBound...]), "0:42")
        XCTAssertEqual(try XCTUnwrap(tail.firstByteRange(of: "0:42")).upperBound, line.endIndex)
        XCTAssertNil(tail.firstByteRange(of: "Zoë"))
        XCTAssertNil(tail.firstByteRange(of: "0:423"))
    }

    func testConcatenatingJoinsEveryPartInOrder() {
        XCTAssertEqual(String(concatenating: "alarm.prayer", ":", "fajr", ":", "2026-11-21"), "alarm.prayer:fajr:2026-11-21")
        XCTAssertEqual(String(concatenating: "", "", ""), "")
        XCTAssertEqual(String(concatenating: "Zoë ", "❄️", "", " 😀 done"), "Zoë ❄️ 😀 done")
        let long = String(repeating: "long text ", count: 20)
        XCTAssertEqual(String(concatenating: long, "e", "\u{0301}", long), long + "e\u{0301}" + long)
        XCTAssertEqual(String(concatenating: "Leave ", "in 10 min", " to arrive at ", "Office", " by ", "08:45"),
                       "Leave in 10 min to arrive at Office by 08:45")
    }

    func testHourMinuteIsZeroPadded() {
        XCTAssertEqual(String.hourMinute(0, 0), "00:00")
        XCTAssertEqual(String.hourMinute(7, 5), "07:05")
        XCTAssertEqual(String.hourMinute(23, 59), "23:59")
    }
}
