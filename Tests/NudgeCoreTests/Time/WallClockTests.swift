import Foundation
import XCTest
@testable import NudgeCore

/// WallClock on real tzdata zones. Every expected instant below was checked
/// against `zdump -v -c 2025,2029 <zone>` (and `-c 2011,2012 Pacific/Apia`).
final class WallClockTests: XCTestCase {
    private func clock(_ identifier: String, file: StaticString = #filePath, line: UInt = #line) throws -> WallClock {
        WallClock(zone: try XCTUnwrap(Fixtures.zoneNamed(identifier), "no tzdata for \(identifier)", file: file,
                                      line: line))
    }

    private func day(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> LocalDate {
        try XCTUnwrap(LocalDate.parse(text), file: file, line: line)
    }

    private func instant(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Date {
        try XCTUnwrap(RFC3339.parse(text), file: file, line: line)
    }

    /// The UTC instant (as RFC 3339 text) at which `time` happens on `date` in `zone`.
    private func fire(_ zone: String, _ date: String, _ time: String,
                      file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let wallTime = try XCTUnwrap(WallTime(parsing: time), file: file, line: line)
        let result = try clock(zone, file: file, line: line).instant(on: day(date, file: file, line: line), at: wallTime)
        return RFC3339.format(result)
    }

    /// The local reading at `utc` in `zone`, e.g. "2026-03-29T03:00:00".
    private func reading(_ zone: String, _ utc: String) throws -> String {
        try clock(zone).localDateTime(of: instant(utc)).description
    }

    // MARK: - Europe/Berlin (CET +01:00 / CEST +02:00, switches at 01:00Z)

    func testNormalDayUsesThatDaysOffset() throws {
        XCTAssertEqual(try fire("Europe/Berlin", "2026-11-21", "05:30"), "2026-11-21T04:30:00Z")
        XCTAssertEqual(try fire("Europe/Berlin", "2026-07-01", "05:30"), "2026-07-01T03:30:00Z")
        XCTAssertEqual(try fire("Europe/Berlin", "2026-03-29", "05:30"), "2026-03-29T03:30:00Z")
        XCTAssertEqual(try fire("Europe/Berlin", "2026-10-25", "05:30"), "2026-10-25T04:30:00Z")
    }

    func testNonexistentLocalTimeFiresAtGapEnd() throws {
        // 2026-03-29 02:00-03:00 local does not exist; the gap ends at 01:00Z = 03:00 CEST.
        XCTAssertEqual(try fire("Europe/Berlin", "2026-03-29", "02:30"), "2026-03-29T01:00:00Z")
        XCTAssertEqual(try fire("Europe/Berlin", "2026-03-29", "02:00"), "2026-03-29T01:00:00Z")
        XCTAssertEqual(try fire("Europe/Berlin", "2026-03-29", "02:59"), "2026-03-29T01:00:00Z")
        XCTAssertEqual(try reading("Europe/Berlin", "2026-03-29T01:00:00Z"), "2026-03-29T03:00:00")
    }

    func testTimesAroundTheGapAreUnaffected() throws {
        XCTAssertEqual(try fire("Europe/Berlin", "2026-03-29", "01:59"), "2026-03-29T00:59:00Z")
        XCTAssertEqual(try fire("Europe/Berlin", "2026-03-29", "03:00"), "2026-03-29T01:00:00Z")
        XCTAssertEqual(try fire("Europe/Berlin", "2026-03-29", "03:01"), "2026-03-29T01:01:00Z")
    }

    func testAmbiguousLocalTimeFiresAtFirstOccurrence() throws {
        // 2026-10-25 02:00-03:00 local happens twice: first CEST (+02), then CET (+01).
        XCTAssertEqual(try fire("Europe/Berlin", "2026-10-25", "02:30"), "2026-10-25T00:30:00Z")
        XCTAssertEqual(try fire("Europe/Berlin", "2026-10-25", "02:00"), "2026-10-25T00:00:00Z")
        XCTAssertEqual(try fire("Europe/Berlin", "2026-10-25", "03:00"), "2026-10-25T02:00:00Z")
        XCTAssertEqual(try fire("Europe/Berlin", "2026-10-25", "01:59"), "2026-10-24T23:59:00Z")
    }

    func testSecondsPrecisionFollowsTheSameGapAndFoldRule() throws {
        let berlin = try clock("Europe/Berlin")
        let spring = try day("2026-03-29"), fall = try day("2026-10-25")
        func at(_ date: LocalDate, _ h: Int, _ m: Int, _ s: Int) throws -> String {
            RFC3339.format(berlin.instant(of: try XCTUnwrap(LocalDateTime(date: date, hour: h, minute: m, second: s))))
        }
        XCTAssertEqual(try at(spring, 1, 59, 59), "2026-03-29T00:59:59Z")
        XCTAssertEqual(try at(spring, 2, 0, 0), "2026-03-29T01:00:00Z")
        XCTAssertEqual(try at(spring, 2, 59, 59), "2026-03-29T01:00:00Z")
        XCTAssertEqual(try at(fall, 2, 59, 59), "2026-10-25T00:59:59Z")
        XCTAssertEqual(try at(fall, 3, 0, 0), "2026-10-25T02:00:00Z")
    }

    // MARK: - America/New_York (EST -05:00 / EDT -04:00)

    func testNewYorkSpringGapFiresAtThreeOClock() throws {
        XCTAssertEqual(try fire("America/New_York", "2026-03-08", "02:30"), "2026-03-08T07:00:00Z")
        XCTAssertEqual(try reading("America/New_York", "2026-03-08T07:00:00Z"), "2026-03-08T03:00:00")
    }

    func testNewYorkFallFoldFiresAtFirstOccurrence() throws {
        XCTAssertEqual(try fire("America/New_York", "2026-11-01", "01:30"), "2026-11-01T05:30:00Z")
        XCTAssertEqual(try reading("America/New_York", "2026-11-01T06:30:00Z"), "2026-11-01T01:30:00")
    }

    // MARK: - Australia/Lord_Howe (+10:30 standard / +11:00 summer: 30-minute shifts)

    func testHalfHourGapFiresAtItsEndNotAFullHourLater() throws {
        // 2026-10-04 02:00-02:30 local does not exist; the switch is at 2026-10-03T15:30:00Z.
        XCTAssertEqual(try fire("Australia/Lord_Howe", "2026-10-04", "02:15"), "2026-10-03T15:30:00Z")
        XCTAssertEqual(try fire("Australia/Lord_Howe", "2026-10-04", "02:00"), "2026-10-03T15:30:00Z")
        XCTAssertEqual(try fire("Australia/Lord_Howe", "2026-10-04", "02:30"), "2026-10-03T15:30:00Z")
        XCTAssertEqual(try reading("Australia/Lord_Howe", "2026-10-03T15:30:00Z"), "2026-10-04T02:30:00")
    }

    func testHalfHourFoldFiresAtFirstOccurrence() throws {
        // 2026-04-05 01:30-02:00 local happens twice: first at +11:00, then at +10:30.
        XCTAssertEqual(try fire("Australia/Lord_Howe", "2026-04-05", "01:45"), "2026-04-04T14:45:00Z")
        XCTAssertEqual(try fire("Australia/Lord_Howe", "2026-04-05", "01:30"), "2026-04-04T14:30:00Z")
        XCTAssertEqual(try fire("Australia/Lord_Howe", "2026-04-05", "02:00"), "2026-04-04T15:30:00Z")
        XCTAssertEqual(try reading("Australia/Lord_Howe", "2026-04-04T15:15:00Z"), "2026-04-05T01:45:00")
    }

    // MARK: - Zones without DST

    func testZonesWithoutDSTMapEveryDayTheSame() throws {
        let kolkata = try clock("Asia/Kolkata"), tokyo = try clock("Asia/Tokyo")
        let eight = try XCTUnwrap(WallTime(parsing: "08:00"))
        let first = try day("2026-01-01")
        for offset in 0..<365 {
            let date = first.adding(days: offset)
            let midnightUTC = Double(date.daysSinceEpoch * 86_400)
            XCTAssertEqual(kolkata.instant(on: date, at: eight).timeIntervalSince1970, midnightUTC + 2.5 * 3600)
            XCTAssertEqual(tokyo.instant(on: date, at: eight).timeIntervalSince1970, midnightUTC - 3600)
        }
    }

    // MARK: - Instants to local readings

    func testLocalDateAroundMidnightInNonUTCZones() throws {
        XCTAssertEqual(try reading("Europe/Berlin", "2026-11-20T22:59:59Z"), "2026-11-20T23:59:59")
        XCTAssertEqual(try reading("Europe/Berlin", "2026-11-20T23:00:00Z"), "2026-11-21T00:00:00")
        XCTAssertEqual(try reading("America/New_York", "2026-11-21T04:59:59Z"), "2026-11-20T23:59:59")
        XCTAssertEqual(try reading("America/New_York", "2026-11-21T05:00:00Z"), "2026-11-21T00:00:00")
        XCTAssertEqual(try clock("Asia/Kolkata").localDate(of: instant("2026-11-20T18:29:59Z")), try day("2026-11-20"))
        XCTAssertEqual(try clock("Asia/Kolkata").localDate(of: instant("2026-11-20T18:30:00Z")), try day("2026-11-21"))
        XCTAssertEqual(try clock("Asia/Tokyo").localDate(of: instant("2026-11-20T15:00:00Z")), try day("2026-11-21"))
    }

    func testLocalDateTimeFloorsFractionalSeconds() throws {
        XCTAssertEqual(try reading("Asia/Kolkata", "2026-11-20T18:29:59.999Z"), "2026-11-20T23:59:59")
        XCTAssertEqual(try reading("Europe/Berlin", "1969-12-31T23:59:59.5Z"), "1970-01-01T00:59:59")
    }

    func testLocalReadingMapsBackToTheSameInstantOrItsFirstOccurrence() throws {
        let berlin = try clock("Europe/Berlin")
        var seconds = try instant("2026-01-01T00:00:00Z").timeIntervalSince1970
        let end = try instant("2027-01-01T00:00:00Z").timeIntervalSince1970
        while seconds < end {
            let original = Date(timeIntervalSince1970: seconds)
            let local = berlin.localDateTime(of: original)
            let back = berlin.instant(of: local)
            if back != original {   // only the second pass through a fold maps to the first
                XCTAssertLessThan(back, original)
                XCTAssertEqual(berlin.localDateTime(of: back), local)
            }
            seconds += 7 * 60 + 13
        }
    }

    // MARK: - Day boundaries

    func testDSTDaysAreTwentyThreeAndTwentyFiveHoursLong() throws {
        let berlin = try clock("Europe/Berlin")
        let spring = try day("2026-03-29"), fall = try day("2026-10-25"), normal = try day("2026-11-21")
        XCTAssertEqual(RFC3339.format(berlin.startOfDay(spring)), "2026-03-28T23:00:00Z")
        XCTAssertEqual(RFC3339.format(berlin.endOfDay(spring)), "2026-03-29T22:00:00Z")
        XCTAssertEqual(berlin.endOfDay(spring).timeIntervalSince(berlin.startOfDay(spring)), 23 * 3600)
        XCTAssertEqual(RFC3339.format(berlin.startOfDay(fall)), "2026-10-24T22:00:00Z")
        XCTAssertEqual(RFC3339.format(berlin.endOfDay(fall)), "2026-10-25T23:00:00Z")
        XCTAssertEqual(berlin.endOfDay(fall).timeIntervalSince(berlin.startOfDay(fall)), 25 * 3600)
        XCTAssertEqual(berlin.endOfDay(normal).timeIntervalSince(berlin.startOfDay(normal)), 24 * 3600)
        let lordHowe = try clock("Australia/Lord_Howe"), shortDay = try day("2026-10-04")
        XCTAssertEqual(lordHowe.endOfDay(shortDay).timeIntervalSince(lordHowe.startOfDay(shortDay)), 23.5 * 3600)
    }

    func testStartOfDayInAMidnightGapIsOneOClock() throws {
        // America/Santiago 2026-09-06: 24:00 (-04) jumps to 01:00 (-03) at 04:00Z.
        let santiago = try clock("America/Santiago")
        let gapDay = try day("2026-09-06")
        XCTAssertEqual(RFC3339.format(santiago.startOfDay(gapDay)), "2026-09-06T04:00:00Z")
        XCTAssertEqual(santiago.localDateTime(of: santiago.startOfDay(gapDay)).description, "2026-09-06T01:00:00")
        XCTAssertEqual(santiago.endOfDay(try day("2026-09-05")), santiago.startOfDay(gapDay))
        XCTAssertEqual(try fire("America/Santiago", "2026-09-06", "00:30"), "2026-09-06T04:00:00Z")
        XCTAssertEqual(try fire("America/Santiago", "2026-09-06", "01:00"), "2026-09-06T04:00:00Z")
        // Santiago's fold is 23:00-24:00 on 2026-04-04 (-03, then -04): first occurrence.
        XCTAssertEqual(try fire("America/Santiago", "2026-04-04", "23:30"), "2026-04-05T02:30:00Z")
    }

    func testSkippedDateStartsAtTheFirstInstantOfTheNextExistingDate() throws {
        // Pacific/Apia jumped from 2011-12-29 23:59:59 (-10) to 2011-12-31 00:00 (+14) at 10:00Z.
        let apia = try clock("Pacific/Apia")
        let skipped = try day("2011-12-30")
        XCTAssertEqual(RFC3339.format(apia.startOfDay(skipped)), "2011-12-30T10:00:00Z")
        XCTAssertEqual(try fire("Pacific/Apia", "2011-12-30", "12:00"), "2011-12-30T10:00:00Z")
        XCTAssertEqual(apia.endOfDay(try day("2011-12-29")), apia.startOfDay(skipped))
        XCTAssertEqual(apia.startOfDay(try day("2011-12-31")), apia.startOfDay(skipped))
        XCTAssertEqual(apia.localDate(of: apia.startOfDay(skipped)), try day("2011-12-31"))
        XCTAssertEqual(try fire("Pacific/Apia", "2011-12-29", "23:59"), "2011-12-30T09:59:00Z")
    }

    func testGapAcrossTheEndOfTheDayFiresAtTheStartOfTheNextDay() throws {
        // America/Nuuk 2026-03-28: 23:00 (-02) jumps to 00:00 (-01) at 2026-03-29T01:00:00Z.
        XCTAssertEqual(try fire("America/Nuuk", "2026-03-28", "23:30"), "2026-03-29T01:00:00Z")
        XCTAssertEqual(try fire("America/Nuuk", "2026-03-28", "22:59"), "2026-03-29T00:59:00Z")
        XCTAssertEqual(try fire("America/Nuuk", "2026-03-29", "00:00"), "2026-03-29T01:00:00Z")
        XCTAssertEqual(try fire("America/Nuuk", "2026-03-29", "23:30"), "2026-03-30T00:30:00Z")
    }

    // MARK: - Property: every day of 2026, one occurrence per date, never skipped

    func testEveryDailyOccurrenceOf2026IsOnItsDateAtOrJustAfterTheRequestedTime() throws {
        let times = try ["00:00", "00:30", "01:00", "01:30", "02:00", "02:30", "03:00", "12:00", "23:59"]
            .map { try XCTUnwrap(WallTime(parsing: $0)) }
        let first = try day("2026-01-01")
        for identifier in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"] {
            let clock = try clock(identifier)
            let zone = clock.zone
            var previous = [WallTime: Date]()
            for offset in 0..<365 {
                let date = first.adding(days: offset)
                for time in times {
                    let fired = clock.instant(on: date, at: time)
                    let shown = clock.localDateTime(of: fired)
                    let context = "\(identifier) \(date) \(time)"
                    XCTAssertEqual(shown.date, date, context)
                    let delay = shown.hour * 3600 + shown.minute * 60 + shown.second - time.minutesSinceMidnight * 60
                    if delay != 0 {   // only allowed in a gap, and by at most the gap's size
                        let gap = zone.secondsFromGMT(for: fired) - zone.secondsFromGMT(for: fired - 1)
                        XCTAssertTrue(delay > 0 && delay <= gap, "\(context): delay \(delay), gap \(gap)")
                    }
                    // Fold: the other offset of the day must not give an earlier instant with this reading.
                    for other in [clock.startOfDay(date), clock.endOfDay(date) - 1].map(zone.secondsFromGMT) {
                        let twin = fired + Double(zone.secondsFromGMT(for: fired) - other)
                        if twin != fired, clock.localDateTime(of: twin) == shown {
                            XCTAssertGreaterThan(twin, fired, "\(context): not the first occurrence")
                        }
                    }
                    if let before = previous[time] {
                        XCTAssertGreaterThan(fired, before, context)
                    }
                    previous[time] = fired
                }
            }
        }
    }

    // MARK: - The planner's clock, which reads the offsets once (OffsetTable)

    /// Every instant and reading agree between a clock that asks the zone each time and one that read a table
    /// for 2024–2027, inside the span, at its edges and outside it. Asia/Almaty changed its standard offset
    /// (+06 to +05) on 2024-03-01, a transition that is not a daylight-saving change.
    func testAClockReadingAnOffsetTableAnswersExactlyLikeTheZone() throws {
        let times = try ["00:00", "00:30", "01:30", "02:00", "02:15", "02:30", "03:00", "23:30"]
            .map { try XCTUnwrap(WallTime(parsing: $0)) }
        let span = try instant("2024-01-01T00:00:00Z")..<instant("2027-12-31T00:00:00Z")
        let first = try day("2023-12-20")
        for identifier in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata",
                           "Asia/Almaty", "America/Nuuk", "UTC"] {
            let plain = try clock(identifier)
            let tabled = WallClock(zone: plain.zone, reading: span)
            for offset in stride(from: 0, to: 4 * 366 + 30, by: 1) {
                let date = first.adding(days: offset)
                for time in times {
                    let fired = plain.instant(on: date, at: time)
                    XCTAssertEqual(tabled.instant(on: date, at: time), fired, "\(identifier) \(date) \(time)")
                    XCTAssertEqual(tabled.localDateTime(of: fired + 1_799), plain.localDateTime(of: fired + 1_799),
                                   "\(identifier) \(date) \(time)")
                }
            }
        }
    }

    func testAlmatysStandardOffsetChangeIsInTheTable() throws {
        let almaty = try clock("Asia/Almaty")
        let tabled = WallClock(zone: almaty.zone, reading: try instant("2024-01-01T00:00:00Z")..<instant("2025-01-01T00:00:00Z"))
        XCTAssertEqual(tabled.localDateTime(of: try instant("2024-02-29T17:59:59Z")).description, "2024-02-29T23:59:59")
        XCTAssertEqual(tabled.localDateTime(of: try instant("2024-02-29T18:00:00Z")).description, "2024-02-29T23:00:00")
        // The hour 23:00–24:00 happens twice; the first occurrence wins, as in every fold.
        XCTAssertEqual(RFC3339.format(tabled.instant(on: try day("2024-02-29"), at: try XCTUnwrap(WallTime(parsing: "23:30")))),
                       "2024-02-29T17:30:00Z")
    }
}
