import XCTest
@testable import NudgeCore

/// Times as people type them on the command line, read on a literal zone's wall clock at a literal `now`.
final class TypedTimeTests: XCTestCase {
    private let berlin = WallClock(zone: Fixtures.berlin)
    private let now = Fixtures.instant("2026-11-25T08:00:00Z")

    /// `text` read in Berlin at `now`.
    private func read(_ text: String, now: Date? = nil) -> String? {
        TypedTime(text).map { RFC3339.format($0.instant(now: now ?? self.now, clock: berlin)) }
    }

    func testATimeOfDayIsTodaysDateInTheZone() {
        XCTAssertEqual(read("19:30"), "2026-11-25T18:30:00Z")
        XCTAssertEqual(read("07:05:09"), "2026-11-25T06:05:09Z")
        XCTAssertEqual(read("00:00"), "2026-11-24T23:00:00Z")
        // Later than now is still today, not tomorrow; earlier is today too, not yesterday.
        XCTAssertEqual(read("23:59", now: Fixtures.instant("2026-11-25T08:00:00Z")), "2026-11-25T22:59:00Z")
        // 00:30 on the 26th in Berlin, still the 25th in UTC: today is Berlin's date.
        XCTAssertEqual(read("19:30", now: Fixtures.instant("2026-11-25T23:30:00Z")), "2026-11-26T18:30:00Z")
    }

    func testALocalDateTimeIsReadInTheZone() {
        XCTAssertEqual(read("2026-11-25T08:00"), "2026-11-25T07:00:00Z")
        XCTAssertEqual(read("2026-07-01T08:00:30"), "2026-07-01T06:00:30Z")
        XCTAssertEqual(read("2026-11-25 08:00"), "2026-11-25T07:00:00Z")
        XCTAssertEqual(read("2026-11-25t08:00:00.750"), "2026-11-25T07:00:00Z", "whole seconds")
        XCTAssertEqual(TypedTime("2026-11-25T08:00"), .local(LocalDateTime(date: Fixtures.date("2026-11-25"),
                                                                          time: Fixtures.time("08:00"))))
    }

    func testAnInstantWithAnOffsetIsTheSameInEveryZone() {
        XCTAssertEqual(read("2026-11-25T08:00+03:00"), "2026-11-25T05:00:00Z")
        XCTAssertEqual(read("2026-11-25T08:00Z"), "2026-11-25T08:00:00Z")
        XCTAssertEqual(read("2026-11-25T08:00:00-05:30"), "2026-11-25T13:30:00Z")
        XCTAssertEqual(read("2026-11-25T08:00:00.250Z"), "2026-11-25T08:00:00.250Z")
        XCTAssertEqual(TypedTime("2026-11-25T08:00Z")?.isLocal, false)
        XCTAssertEqual(TypedTime("08:00")?.isLocal, true)
    }

    func testTheSkippedHourGivesTheFirstInstantAfterItAndTheRepeatedHourTheFirst() {
        XCTAssertEqual(read("2026-03-29T02:30"), "2026-03-29T01:00:00Z")
        XCTAssertEqual(read("02:30", now: Fixtures.instant("2026-03-29T10:00:00Z")), "2026-03-29T01:00:00Z")
        XCTAssertEqual(read("2026-10-25T02:30"), "2026-10-25T00:30:00Z")
        XCTAssertEqual(read("02:30", now: Fixtures.instant("2026-10-25T10:00:00Z")), "2026-10-25T00:30:00Z")
    }

    func testAnythingElseIsNotATime() {
        for text in ["", "tomorrow", "7:30", "24:00", "19:60", "19:30:60", "19:30:5", "1930", "2026-11-25",
                     "2026-11-25T08", "2026-11-25T8:00", "2026-02-30T08:00", "2026-11-25T08:00+3", "2026-11-25T08:00+24:00",
                     "2026-11-25T08:00 Z", "2026-11-25T08:00:00.Z", " 19:30", "１９:３０"] {
            XCTAssertNil(TypedTime(text), text)
        }
    }
}
