import Foundation
import XCTest
import NudgeCore

final class RFC3339Tests: XCTestCase {
    // 2026-11-21T08:00:00Z as seconds since 1970 (checked with Python's datetime).
    private let saturdayEight: TimeInterval = 1_795_248_000

    private func seconds(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> TimeInterval {
        try XCTUnwrap(RFC3339.parse(text), "expected \(text) to parse", file: file, line: line).timeIntervalSince1970
    }

    // MARK: - Parsing valid instants

    func testParsesZuluInstant() throws {
        XCTAssertEqual(try seconds("2026-11-21T08:00:00Z"), saturdayEight)
        XCTAssertEqual(try seconds("1970-01-01T00:00:00Z"), 0)
    }

    func testParsesPositiveOffsetAsTheSameInstant() throws {
        XCTAssertEqual(try seconds("2026-11-21T09:00:00+01:00"), saturdayEight)
    }

    func testParsesNegativeHalfHourOffset() throws {
        XCTAssertEqual(try seconds("2026-11-21T02:30:00-05:30"), saturdayEight)
    }

    func testOffsetCanMoveTheInstantToAnotherUTCDate() throws {
        XCTAssertEqual(try seconds("2026-11-21T23:30:00-08:30"), saturdayEight + 24 * 3600)
        XCTAssertEqual(try seconds("2026-11-21T00:00:00+23:59"), saturdayEight - 8 * 3600 - 23 * 3600 - 59 * 60)
    }

    func testMinusZeroOffsetMeansUTC() throws {
        XCTAssertEqual(try seconds("2026-11-21T08:00:00-00:00"), saturdayEight)
    }

    func testParsesFractionalSeconds() throws {
        XCTAssertEqual(try seconds("2026-11-21T08:00:00.25Z"), saturdayEight + 0.25)
        XCTAssertEqual(try seconds("2026-11-21T08:00:00.5+00:00"), saturdayEight + 0.5)
        XCTAssertEqual(try seconds("2026-11-21T08:00:00.123Z"), saturdayEight + 0.123, accuracy: 1e-6)
    }

    func testLongFractionIsKeptToSubMicrosecondPrecision() throws {
        XCTAssertEqual(try seconds("2026-11-21T08:00:00.123456789123456789Z"), saturdayEight + 0.123456789, accuracy: 1e-6)
        XCTAssertEqual(try seconds("2026-11-21T08:00:00.000000000000Z"), saturdayEight)
    }

    func testAcceptsLowercaseTAndZAndSpaceSeparator() throws {
        XCTAssertEqual(try seconds("2026-11-21t08:00:00z"), saturdayEight)
        XCTAssertEqual(try seconds("2026-11-21 08:00:00Z"), saturdayEight)
    }

    func testAcceptsLeapDayAndLastSecondOfTheDay() throws {
        XCTAssertNotNil(RFC3339.parse("2024-02-29T12:00:00Z"))
        XCTAssertNotNil(RFC3339.parse("2000-02-29T12:00:00Z"))
        XCTAssertEqual(try seconds("2026-11-21T23:59:59Z"), saturdayEight + 16 * 3600 - 1)
    }

    func testParsesInstantsBeforeEpochAndAtTheYearLimits() throws {
        XCTAssertEqual(try seconds("1969-12-31T23:59:59Z"), -1)
        XCTAssertEqual(try seconds("0001-01-01T00:00:00Z"), -62_135_596_800)
        XCTAssertEqual(try seconds("9999-12-31T23:59:59Z"), 253_402_300_799)
    }

    // MARK: - Rejecting invalid input

    func testRejectsInvalidInputs() {
        let invalid = [
            "",
            "garbage",
            "2026-13-01T08:00:00Z",        // month 13
            "2026-00-01T08:00:00Z",        // month 0
            "2026-02-30T08:00:00Z",        // Feb 30
            "2026-02-29T08:00:00Z",        // Feb 29 in a non-leap year
            "1900-02-29T08:00:00Z",        // century, not divisible by 400
            "2026-04-31T08:00:00Z",        // April has 30 days
            "2026-11-00T08:00:00Z",        // day 0
            "2026-11-21T24:00:00Z",        // hour 24
            "2026-11-21T08:60:00Z",        // minute 60
            "2026-12-31T23:59:60Z",        // leap second
            "2026-11-21T08:00:00",         // missing offset
            "2026-11-21T08:00:00+24:00",   // offset hour 24
            "2026-11-21T08:00:00+01:60",   // offset minute 60
            "2026-11-21T08:00:00+0100",    // offset without colon
            "2026-11-21T08:00:00+01",      // offset without minutes
            "2026-11-21T08:00:00.Z",       // empty fraction
            "2026-11-21T08:00:00,5Z",      // comma fraction
            "2026-11-21T08:00Z",           // no seconds
            "2026-11-21",                  // date only
            "2026-11-21X08:00:00Z",        // bad separator
            "2026-11-21T8:00:00Z",         // one-digit hour
            "26-11-21T08:00:00Z",          // two-digit year
            "+2026-11-21T08:00:00Z",       // signed year
            " 2026-11-21T08:00:00Z",       // leading space
            "2026-11-21T08:00:00Z ",       // trailing space
            "2026-11-21T08:00:00ZZ",       // trailing garbage
            "2026-11-21T08:00:00+01:00Z",  // two zone designators
            "2026-11-21T08:00:00\u{0663}Z", // non-ASCII digit
            "２０２６-11-21T08:00:00Z",     // full-width digits
            "202:-11-21T08:00:00Z",        // ':' is the byte after '9' in a digit field
            "2026-11-2:T08:00:00Z",
            "2026-11-21T0::00:00Z",
            "2026-11-21T08:00:0/Z",        // '/' is the byte before '0'
        ]
        for text in invalid {
            XCTAssertNil(RFC3339.parse(text), "\(text.debugDescription) should be rejected")
        }
    }

    // MARK: - Formatting

    func testFormatsWholeSecondsInUTCWithZ() {
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: 1_795_248_000)), "2026-11-21T08:00:00Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: -1)), "1969-12-31T23:59:59Z")
    }

    func testFormatsOffsetInputAsUTC() throws {
        let date = try XCTUnwrap(RFC3339.parse("2026-11-21T09:00:00+01:00"))
        XCTAssertEqual(RFC3339.format(date), "2026-11-21T08:00:00Z")
    }

    func testFormatsFractionAsExactlyThreeMillisecondDigits() {
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: 1_795_248_000.25)), "2026-11-21T08:00:00.250Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: 1_795_248_000.5)), "2026-11-21T08:00:00.500Z")
    }

    func testFormatTruncatesMillisecondsTowardThePast() {
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: 1_795_248_000.2509)), "2026-11-21T08:00:00.250Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: 1_795_248_000.9996)), "2026-11-21T08:00:00.999Z")
        // Before 1970 "toward the past" means the previous second plus 750 ms.
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: -0.25)), "1969-12-31T23:59:59.750Z")
    }

    func testFormatsFourDigitZeroPaddedYears() {
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: -62_135_596_800)), "0001-01-01T00:00:00Z")
        // Foundation's distantPast is "0001-01-01" in the Julian calendar, i.e. proleptic Gregorian 0000-12-30.
        XCTAssertEqual(RFC3339.format(Date.distantPast), "0000-12-30T00:00:00Z")
        XCTAssertEqual(RFC3339.format(Date.distantFuture), "4001-01-01T00:00:00Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: -61_000_000_000)), "0036-12-26T11:33:20Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: 253_402_300_799)), "9999-12-31T23:59:59Z")
    }

    func testFormatNeverTrapsOnNonFiniteInstants() {
        XCTAssertFalse(RFC3339.format(Date(timeIntervalSince1970: .nan)).isEmpty)
        XCTAssertFalse(RFC3339.format(Date(timeIntervalSince1970: .infinity)).isEmpty)
        XCTAssertFalse(RFC3339.format(Date(timeIntervalSince1970: -.infinity)).isEmpty)
    }

    func testFormatThenParseRoundTripsWholeSecondsAndMilliseconds() throws {
        let texts = [
            "2026-11-21T08:00:00Z", "2026-03-29T01:00:00Z", "1969-07-20T20:17:40Z",
            "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2024-02-29T23:59:59Z",
            "2026-11-21T08:00:00.001Z", "2026-11-21T08:00:00.999Z", "2026-11-21T08:00:00.123Z",
            "1969-12-31T23:59:59.001Z", "2038-01-19T03:14:07.999Z",
        ]
        for text in texts {
            let date = try XCTUnwrap(RFC3339.parse(text), text)
            XCTAssertEqual(RFC3339.format(date), text)
        }
    }

    func testEveryMillisecondOfASecondRoundTrips() throws {
        for millisecond in 0..<1000 {
            let digits = String(millisecond + 1000).dropFirst()
            let text = millisecond == 0 ? "2026-11-21T08:00:00Z" : "2026-11-21T08:00:00.\(digits)Z"
            let date = try XCTUnwrap(RFC3339.parse(text), text)
            XCTAssertEqual(RFC3339.format(date), text)
        }
    }

    func testParseThenFormatRoundTripsInstantsAcrossCenturies() throws {
        var seconds: TimeInterval = -62_135_596_800          // 0001-01-01T00:00:00Z
        while seconds < 253_402_300_799 {                    // 9999-12-31T23:59:59Z
            let date = Date(timeIntervalSince1970: seconds)
            let parsed = try XCTUnwrap(RFC3339.parse(RFC3339.format(date)))
            XCTAssertEqual(parsed.timeIntervalSince1970, seconds)
            seconds += 86_399 * 37 + 1_234                   // irregular stride over all fields
        }
    }
}
