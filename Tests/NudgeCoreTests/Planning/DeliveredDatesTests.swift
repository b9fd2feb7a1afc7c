import XCTest
@testable import NudgeCore

/// The dates of dated deliveries, kept for good as ranges (SPEC §11.41).
final class DeliveredDatesTests: XCTestCase {
    func testConsecutiveDatesBecomeOneRangeAndOnlyDatedIdsAreKept() {
        var dates = DeliveredDates()
        for day in ["2026-11-21", "2026-11-23", "2026-11-22", "2026-11-25"] {
            XCTAssertTrue(dates.insert(id: "alarm.prayer:fajr:\(day)"))
        }
        XCTAssertFalse(dates.insert(id: "laundry.washComplete:snowy:c-1"))
        XCTAssertFalse(dates.insert(id: "alarm.prayer:fajr:2026-11-21:snooze-1"))
        XCTAssertTrue(dates.contains(id: "alarm.prayer:fajr:2026-11-22"))
        XCTAssertFalse(dates.contains(id: "alarm.prayer:fajr:2026-11-24"))
        XCTAssertFalse(dates.contains(id: "alarm.prayer:isha:2026-11-22"))
        XCTAssertEqual(dates.textMembers.map(\.value), ["2026-11-21/2026-11-23 2026-11-25"])
    }

    func testTheTextFormReadsBackAndRefusesRangesOutOfOrder() {
        var dates = DeliveredDates()
        XCTAssertTrue(dates.read(thread: "alarm.prayer:fajr", dates: "2026-01-01/2026-12-31 2027-01-05"))
        XCTAssertTrue(dates.contains(id: "alarm.prayer:fajr:2026-07-01"))
        XCTAssertTrue(dates.contains(id: "alarm.prayer:fajr:2027-01-05"))
        XCTAssertFalse(dates.contains(id: "alarm.prayer:fajr:2027-01-01"))
        var bad = DeliveredDates()
        XCTAssertFalse(bad.read(thread: "alarm.prayer:fajr", dates: "2026-03-01 2026-02-01"))
        XCTAssertFalse(bad.read(thread: "alarm.prayer", dates: "2026-03-01"))
        XCTAssertFalse(bad.read(thread: "alarm.prayer:fajr", dates: "2026-03-01/2026-02-01"))
    }
}
