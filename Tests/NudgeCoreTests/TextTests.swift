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
}
