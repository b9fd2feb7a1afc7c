import XCTest
@testable import NudgeCore

/// The dates of dated deliveries, kept for good as ranges (docs/promises.md, exactly once).
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

    func testADatedIdIsToldWithoutSplittingItAsItsPartsSay() {
        for id in ["alarm.prayer:fajr:2026-11-21", "commute.leave:office:2026-02-29", "commute.leave:office:2028-02-29",
                   "alarm.prayer:fajr:2026-11-21:snooze-1", "laundry.washComplete:snowy:c-1",
                   "streak.achievement:a-1:unlocked", "alarm.prayer::2026-11-21", ":x:2026-11-21",
                   "alarm.prayer:fajr:2026-13-01", "alarm.prayer:fajr", "alarm.timerDone:fajr:2026-11-21",
                   "commute.arrival:office:20261121T080000Z", ""] {
            XCTAssertEqual(DeliveredDates.isDated(id), DeliveredDates.parts(of: id) != nil, id)
        }
        XCTAssertTrue(DeliveredDates.isDated("alarm.prayer:fajr:2026-11-21"))
        XCTAssertFalse(DeliveredDates.isDated("alarm.prayer:fajr:2026-11-21:snooze-1"))
    }
}
