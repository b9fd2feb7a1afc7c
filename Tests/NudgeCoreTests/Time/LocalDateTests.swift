import XCTest
@testable import NudgeCore

/// LocalDate, Weekday, WallTime and LocalDateTime: the zone-free value types.
final class LocalDateTests: XCTestCase {
    private func date(_ year: Int, _ month: Int, _ day: Int,
                      file: StaticString = #filePath, line: UInt = #line) throws -> LocalDate {
        try XCTUnwrap(LocalDate(year: year, month: month, day: day), file: file, line: line)
    }

    // MARK: - LocalDate validation

    func testAcceptsLeapDaysOnlyInGregorianLeapYears() {
        XCTAssertNotNil(LocalDate(year: 2024, month: 2, day: 29))
        XCTAssertNotNil(LocalDate(year: 2000, month: 2, day: 29))
        XCTAssertNil(LocalDate(year: 2026, month: 2, day: 29))
        XCTAssertNil(LocalDate(year: 1900, month: 2, day: 29))
        XCTAssertNil(LocalDate(year: 2100, month: 2, day: 29))
    }

    func testRejectsOutOfRangeMonthsAndDays() {
        XCTAssertNil(LocalDate(year: 2026, month: 13, day: 1))
        XCTAssertNil(LocalDate(year: 2026, month: 0, day: 1))
        XCTAssertNil(LocalDate(year: 2026, month: 1, day: 0))
        XCTAssertNil(LocalDate(year: 2026, month: 1, day: 32))
        XCTAssertNil(LocalDate(year: 2026, month: 4, day: 31))
        XCTAssertNil(LocalDate(year: 2026, month: 2, day: 30))
        XCTAssertNotNil(LocalDate(year: 2026, month: 12, day: 31))
    }

    // MARK: - Day numbers and arithmetic

    func testDaysSinceEpochOfKnownDates() throws {
        XCTAssertEqual(try date(1970, 1, 1).daysSinceEpoch, 0)
        XCTAssertEqual(try date(2026, 11, 21).daysSinceEpoch, 20_778)
        XCTAssertEqual(try date(2000, 2, 29).daysSinceEpoch, 11_016)
        XCTAssertEqual(try date(9999, 12, 31).daysSinceEpoch, 2_932_896)
    }

    func testNegativeDaysAreDatesBefore1970() throws {
        XCTAssertEqual(LocalDate(daysSinceEpoch: -1), try date(1969, 12, 31))
        XCTAssertEqual(LocalDate(daysSinceEpoch: -25_508), try date(1900, 3, 1))
        XCTAssertEqual(LocalDate(daysSinceEpoch: -135_140), try date(1600, 1, 1))
        XCTAssertEqual(LocalDate(daysSinceEpoch: -719_162), try date(1, 1, 1))
        XCTAssertEqual(try date(1969, 12, 31).daysSinceEpoch, -1)
    }

    func testAddingDaysCrossesLeapDaysMonthsAndYears() throws {
        XCTAssertEqual(try date(2024, 2, 28).adding(days: 1), try date(2024, 2, 29))
        XCTAssertEqual(try date(2024, 2, 28).adding(days: 2), try date(2024, 3, 1))
        XCTAssertEqual(try date(2026, 2, 28).adding(days: 1), try date(2026, 3, 1))
        XCTAssertEqual(try date(2024, 12, 31).adding(days: 1), try date(2025, 1, 1))
        XCTAssertEqual(try date(2024, 1, 1).adding(days: 366), try date(2025, 1, 1))
        XCTAssertEqual(try date(2025, 1, 1).adding(days: 365), try date(2026, 1, 1))
        XCTAssertEqual(try date(2000, 3, 1).adding(days: -1), try date(2000, 2, 29))
        XCTAssertEqual(try date(1900, 3, 1).adding(days: -1), try date(1900, 2, 28))
        XCTAssertEqual(try date(1970, 1, 1).adding(days: -1), try date(1969, 12, 31))
        XCTAssertEqual(try date(2026, 11, 21).adding(days: 0), try date(2026, 11, 21))
    }

    func testAddingHugeDayCountsSaturatesInsteadOfTrapping() throws {
        let start = try date(2026, 11, 21)
        XCTAssertGreaterThan(start.adding(days: Int.max), start)
        XCTAssertLessThan(start.adding(days: Int.min), start)
        XCTAssertGreaterThan(LocalDate(daysSinceEpoch: Int.max).year, 9999)
    }

    func testDayNumbersRoundTripAndAdvanceOneCalendarDayAtATime() {
        var previous = LocalDate(daysSinceEpoch: -146_098)   // 1570-01-01 .. 2370, four 400-year eras
        for day in -146_097...146_097 {
            let current = LocalDate(daysSinceEpoch: day)
            XCTAssertEqual(current.daysSinceEpoch, day)
            XCTAssertLessThan(previous, current)
            let isNextDay = current.day == previous.day + 1 && current.month == previous.month
            let isNextMonth = current.day == 1 && (current.month == previous.month + 1 && current.year == previous.year
                || current.month == 1 && previous.month == 12 && current.year == previous.year + 1)
            XCTAssertTrue(isNextDay || isNextMonth, "\(previous) -> \(current)")
            previous = current
        }
    }

    // MARK: - Weekdays

    func testWeekdaysOfKnownDates() throws {
        XCTAssertEqual(try date(2026, 11, 21).weekday, .sat)
        XCTAssertEqual(try date(1970, 1, 1).weekday, .thu)
        XCTAssertEqual(try date(1969, 12, 31).weekday, .wed)
        XCTAssertEqual(try date(2000, 1, 1).weekday, .sat)
        XCTAssertEqual(try date(2024, 2, 29).weekday, .thu)
        XCTAssertEqual(try date(1900, 1, 1).weekday, .mon)
        XCTAssertEqual(try date(1, 1, 1).weekday, .mon)
        XCTAssertEqual(try date(2026, 3, 29).weekday, .sun)
    }

    func testWeekdaysCycleThroughAllSevenDays() throws {
        let monday = try date(2026, 11, 16)
        XCTAssertEqual((0..<14).map { monday.adding(days: $0).weekday }, Weekday.allCases + Weekday.allCases)
        XCTAssertEqual((1...7).map { monday.adding(days: -$0).weekday }, Weekday.allCases.reversed())
    }

    func testWeekdayOrderIsISOMondayFirst() {
        XCTAssertEqual(Weekday.allCases, [.mon, .tue, .wed, .thu, .fri, .sat, .sun])
        XCTAssertEqual(Weekday.allCases.shuffled().sorted(), Weekday.allCases)
        XCTAssertLessThan(Weekday.mon, Weekday.sun)
    }

    func testWeekdayParsesOnlyLowercaseThreeLetterNames() {
        XCTAssertEqual(Weekday(rawValue: "mon"), .mon)
        XCTAssertEqual(Weekday(rawValue: "sun"), .sun)
        XCTAssertNil(Weekday(rawValue: "Mon"))
        XCTAssertNil(Weekday(rawValue: "monday"))
        XCTAssertNil(Weekday(rawValue: ""))
    }

    // MARK: - Text form

    func testDescriptionIsZeroPaddedISODate() throws {
        XCTAssertEqual(try date(2026, 11, 21).description, "2026-11-21")
        XCTAssertEqual(try date(42, 1, 5).description, "0042-01-05")
        XCTAssertEqual(try date(1, 1, 1).description, "0001-01-01")
    }

    func testParseAcceptsStrictISODatesOnly() throws {
        XCTAssertEqual(LocalDate.parse("2026-11-21"), try date(2026, 11, 21))
        XCTAssertEqual(LocalDate.parse("2024-02-29"), try date(2024, 2, 29))
        for text in ["", "2026-1-5", "2026-11-21T08:00", " 2026-11-21", "2026/11/21", "2026-02-29",
                     "2026-13-01", "+026-11-21", "20261121", "2026-11-2a", "2026-11-21 "] {
            XCTAssertNil(LocalDate.parse(text), text.debugDescription)
        }
    }

    func testComparisonIsChronological() throws {
        XCTAssertLessThan(try date(2025, 12, 31), try date(2026, 1, 1))
        XCTAssertLessThan(try date(2026, 1, 31), try date(2026, 2, 1))
        XCTAssertLessThan(try date(1969, 12, 31), try date(1970, 1, 1))
    }

    // MARK: - WallTime

    func testWallTimeParsesStrictTwentyFourHourTimes() throws {
        let time = try XCTUnwrap(WallTime(parsing: "07:30"))
        XCTAssertEqual(time.hour, 7)
        XCTAssertEqual(time.minute, 30)
        XCTAssertEqual(time.minutesSinceMidnight, 450)
        XCTAssertEqual(WallTime(parsing: "00:00")?.minutesSinceMidnight, 0)
        XCTAssertEqual(WallTime(parsing: "23:59")?.minutesSinceMidnight, 1439)
    }

    func testWallTimeRejectsLooseOrOutOfRangeText() {
        for text in ["7:30", "24:00", "07:60", "07:30:00", "", "0730", "07-30", " 07:30", "07:30 ",
                     "7:3", "007:30", "-1:30", "+7:30", "ab:cd", "07:3a", "\u{0660}7:30"] {
            XCTAssertNil(WallTime(parsing: text), text.debugDescription)
        }
    }

    func testWallTimeValidatesComponents() {
        XCTAssertNil(WallTime(hour: 24, minute: 0))
        XCTAssertNil(WallTime(hour: -1, minute: 0))
        XCTAssertNil(WallTime(hour: 7, minute: 60))
        XCTAssertEqual(WallTime(hour: 7, minute: 5)?.description, "07:05")
    }

    func testWallTimeDescriptionRoundTripsEveryMinuteOfTheDay() throws {
        for minutes in 0..<1440 {
            let time = WallTime(hour: minutes / 60, minute: minutes % 60)
            XCTAssertEqual(time.flatMap { WallTime(parsing: $0.description) }, time)
            XCTAssertEqual(time?.minutesSinceMidnight, minutes)
        }
        XCTAssertLessThan(try XCTUnwrap(WallTime(hour: 6, minute: 59)), try XCTUnwrap(WallTime(hour: 7, minute: 0)))
    }

    // MARK: - LocalDateTime

    func testLocalDateTimeValidatesAndOrdersReadings() throws {
        let day = try date(2026, 3, 29)
        XCTAssertNil(LocalDateTime(date: day, hour: 24, minute: 0, second: 0))
        XCTAssertNil(LocalDateTime(date: day, hour: 2, minute: 30, second: 60))
        let early = try XCTUnwrap(LocalDateTime(date: day, hour: 2, minute: 30, second: 59))
        let late = LocalDateTime(date: day, time: try XCTUnwrap(WallTime(parsing: "02:31")))
        XCTAssertLessThan(early, late)
        XCTAssertEqual(late.second, 0)
        XCTAssertEqual(late.description, "2026-03-29T02:31:00")
        XCTAssertLessThan(late, try XCTUnwrap(LocalDateTime(date: day.adding(days: 1), hour: 0, minute: 0)))
    }
}
