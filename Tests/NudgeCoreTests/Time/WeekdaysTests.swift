import XCTest
@testable import NudgeCore

final class WeekdaysTests: XCTestCase {
    func testHoldsExactlyTheDaysInsertedInWeekOrder() {
        var days = Weekdays()
        XCTAssertTrue(days.isEmpty)
        days.insert(.sun)
        days.insert(.mon)
        days.insert(.sun)
        XCTAssertEqual(days.days, [.mon, .sun])
        XCTAssertEqual(Weekday.allCases.filter(days.contains), [.mon, .sun])
        XCTAssertEqual(days, [.sun, .mon])
        XCTAssertNotEqual(days, [.mon])
        XCTAssertEqual(days.description, "[mon, sun]")
    }

    func testEveryDayHoldsAllSeven() {
        XCTAssertEqual(Weekdays.everyDay.days, Weekday.allCases)
        XCTAssertEqual(Weekdays.everyDay, Weekdays(Weekday.allCases.reversed()))
    }
}
