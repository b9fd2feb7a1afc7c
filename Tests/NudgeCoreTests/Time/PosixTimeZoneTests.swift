import XCTest
@testable import NudgeCore

/// POSIX TZ strings as `TZ` holds them (docs/promises.md), read with literal strings: offsets east of UTC, the
/// daylight part and its rule, and what is not a TZ string at all.
final class PosixTimeZoneTests: XCTestCase {
    func testRulesWithoutDaylightTimeAreExactFixedOffsetsWithThePosixSignInverted() throws {
        let cases: [(String, Int)] = [
            ("JST-9", 32_400), ("UTC0", 0), ("EST5", -18_000), ("<+0530>-5:30", 19_800), ("<-03>3", -10_800),
            ("GMT-9", 32_400), ("UTC+5", -18_000), ("NPT-5:45", 20_700), ("<+1345>-13:45", 49_500),
        ]
        for (text, east) in cases {
            let zone = try XCTUnwrap(PosixTimeZone.parse(text), text)
            XCTAssertEqual(zone.standardOffset, east, text)
            XCTAssertNil(zone.daylight, text)
            XCTAssertEqual(zone.fixedZone?.secondsFromGMT(for: Fixtures.instant("2026-07-01T00:00:00Z")), east, text)
            XCTAssertEqual(zone.fixedZone?.isFixed, true, text)
        }
    }

    func testQuotedNamesKeepTheirSigns() throws {
        let zone = try XCTUnwrap(PosixTimeZone.parse("<+0530>-5:30"))
        XCTAssertEqual(zone.standardName, "+0530")
    }

    func testADaylightRuleIsReadButHasNoFixedZone() throws {
        let berlin = try XCTUnwrap(PosixTimeZone.parse("CET-1CEST,M3.5.0,M10.5.0/3"))
        XCTAssertEqual(berlin.standardName, "CET")
        XCTAssertEqual(berlin.standardOffset, 3_600)
        XCTAssertEqual(berlin.daylight, PosixTimeZone.Daylight(
            name: "CEST", offset: 7_200,
            start: .init(day: .monthWeekDay(month: 3, week: 5, weekday: 0), time: 7_200),
            end: .init(day: .monthWeekDay(month: 10, week: 5, weekday: 0), time: 10_800)))
        XCTAssertNil(berlin.fixedZone)

        let lordHowe = try XCTUnwrap(PosixTimeZone.parse("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"))
        XCTAssertEqual(lordHowe.daylight?.offset, 39_600)
        let julian = try XCTUnwrap(PosixTimeZone.parse("XXX3YYY,J60/-1:30,300/167"))
        XCTAssertEqual(julian.daylight?.start, .init(day: .julianNoLeap(60), time: -5_400))
        XCTAssertEqual(julian.daylight?.end, .init(day: .zeroBased(300), time: 167 * 3_600))
        // Daylight time without a rule: POSIX leaves its dates to the implementation.
        let bare = try XCTUnwrap(PosixTimeZone.parse("EST5EDT"))
        XCTAssertEqual(bare.daylight?.offset, -14_400)
        XCTAssertNil(bare.daylight?.start)
        XCTAssertNil(bare.fixedZone)
    }

    func testTheSameClockIgnoresNamesAndWrittenDefaults() throws {
        func parse(_ text: String) throws -> PosixTimeZone { try XCTUnwrap(PosixTimeZone.parse(text), text) }
        let berlin = try parse("CET-1CEST,M3.5.0,M10.5.0/3")
        XCTAssertTrue(berlin.keepsTheSameTime(as: try parse("<+01>-1<+02>-2,M3.5.0/2,M10.5.0/3:00")))
        XCTAssertFalse(berlin.keepsTheSameTime(as: try parse("CET-1CEST,M3.5.0,M10.5.0/2")))
        XCTAssertFalse(berlin.keepsTheSameTime(as: try parse("EET-2EEST,M3.5.0/3,M10.5.0/4")))
        XCTAssertFalse(berlin.keepsTheSameTime(as: try parse("CET-1")))
        XCTAssertTrue(try parse("JST-9").keepsTheSameTime(as: try parse("<+09>-9")))
        XCTAssertFalse(try parse("EST5EDT").keepsTheSameTime(as: try parse("EST5EDT")), "no rule: unknown dates")
    }

    func testWhatIsNoTZStringIsRejected() {
        for text in ["", "UTC", "JST", "Europe/Berlin", "JS-9", "JST-", "JST-25", "JST-9:60", "JST-9x", "<+05>",
                     "<+5>-5", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0",
                     "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,J0,J100", "CET-1CEST,366,100", "CET-1CEST,M3.5.0/168,5",
                     "CET-1CEST-", "CET-1CEST,", "ÄÖÜ-1"] {
            XCTAssertNil(PosixTimeZone.parse(text), text)
        }
    }

    func testFooterOfATZifFile() {
        var file = Array("TZif2".utf8) + Data(repeating: 0, count: 40)
        file += Array("\nCET-1CEST,M3.5.0,M10.5.0/3\n".utf8)
        XCTAssertEqual(PosixTimeZone.footer(ofTZif: file), "CET-1CEST,M3.5.0,M10.5.0/3")
        var versionOne = Array("TZif\0".utf8) + Data(repeating: 0, count: 40)
        versionOne += Array("\nCET-1\n".utf8)
        XCTAssertNil(PosixTimeZone.footer(ofTZif: versionOne))
        XCTAssertNil(PosixTimeZone.footer(ofTZif: Array("not a zone file\nCET-1\n".utf8)))
        let empty = Array("TZif2".utf8) + Data(repeating: 0, count: 40) + Array("\n\n".utf8)
        XCTAssertNil(PosixTimeZone.footer(ofTZif: empty))
    }
}
