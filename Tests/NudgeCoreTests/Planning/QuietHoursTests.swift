import XCTest
@testable import NudgeCore

/// Quiet hours (docs/files.md, "settings.json"): medium and low move to the end; critical and high never move.
final class QuietHoursTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)
    private let night = QuietHours(start: Fixtures.time("22:00"), end: Fixtures.time("07:00"))

    private func record(_ priority: Priority, at local: String, on date: String = "2026-11-21",
                        kind: NotificationKind = .foldReminder, span: TimeInterval = 86_400) -> NudgeCore.Notification {
        let fireAt = clock.instant(on: Fixtures.date(date), at: Fixtures.time(local))
        return NudgeCore.Notification(id: "x", kind: kind, source: "x", fireAt: fireAt,
                                      expiresAt: fireAt.addingTimeInterval(span), title: "", body: "",
                                      priority: priority, category: "", actions: [], sound: true, badge: true,
                                      recurrence: .once)
    }

    func testMediumBeforeMidnightMovesToTheNextMorning() {
        let moved = night.moving(record(.medium, at: "22:15"), clock: clock)
        XCTAssertEqual(moved.fireAt, Fixtures.instant("2026-11-22T06:00:00Z"))   // 07:00 Berlin
        XCTAssertEqual(moved.expiresAt, Fixtures.instant("2026-11-23T06:00:00Z"))  // span kept from the new time
    }

    func testLowAfterMidnightMovesToThatMorning() {
        let moved = night.moving(record(.low, at: "03:00", on: "2026-11-22"), clock: clock)
        XCTAssertEqual(moved.fireAt, Fixtures.instant("2026-11-22T06:00:00Z"))
    }

    func testStartIsInclusiveAndEndExclusive() {
        XCTAssertEqual(night.moving(record(.medium, at: "22:00"), clock: clock).fireAt,
                       Fixtures.instant("2026-11-22T06:00:00Z"))
        let atEnd = record(.medium, at: "07:00", on: "2026-11-22")
        XCTAssertEqual(night.moving(atEnd, clock: clock), atEnd)
        let justBefore = record(.medium, at: "21:59")
        XCTAssertEqual(night.moving(justBefore, clock: clock), justBefore)
    }

    func testCriticalAndHighNeverMove() {
        let alarm = record(.critical, at: "05:30", on: "2026-11-22", kind: .prayer)
        XCTAssertEqual(night.moving(alarm, clock: clock), alarm)
        let leave = record(.high, at: "23:00", kind: .leave)
        XCTAssertEqual(night.moving(leave, clock: clock), leave)
    }

    func testEqualStartAndEndMeansNoQuietHours() {
        let none = QuietHours(start: Fixtures.time("22:00"), end: Fixtures.time("22:00"))
        let late = record(.low, at: "22:00")
        XCTAssertEqual(none.moving(late, clock: clock), late)
    }

    func testDaytimeQuietHoursWithoutWrapping() {
        let siesta = QuietHours(start: Fixtures.time("13:00"), end: Fixtures.time("15:00"))
        XCTAssertEqual(siesta.moving(record(.low, at: "14:10"), clock: clock).fireAt,
                       Fixtures.instant("2026-11-21T14:00:00Z"))  // 15:00 Berlin
        let before = record(.low, at: "12:59")
        XCTAssertEqual(siesta.moving(before, clock: clock), before)
    }

    func testDailyMessagesMovedPastMidnightExpireAtTheEndOfTheirNewDay() {
        let reminder = record(.medium, at: "23:00", kind: .streakReminder, span: 3600)
        let moved = night.moving(reminder, clock: clock)
        XCTAssertEqual(moved.fireAt, Fixtures.instant("2026-11-22T06:00:00Z"))
        XCTAssertEqual(moved.expiresAt, Fixtures.instant("2026-11-22T23:00:00Z"))  // midnight Berlin
    }

    func testInTheSecondPassOfARepeatedHourQuietHoursEndAtTheEndAfterTheRecord() {
        // Sydney falls back at 03:00 AEDT on 2027-04-04 (16:00Z on the 3rd) to 02:00 AEST: 02:00–03:00 twice.
        let sydney = WallClock(zone: Fixtures.zone("Australia/Sydney"))
        let quiet = QuietHours(start: Fixtures.time("21:15"), end: Fixtures.time("02:30"))
        func unlocked(_ instant: String) -> NudgeCore.Notification {
            let fireAt = Fixtures.instant(instant)
            return NudgeCore.Notification(id: "x", kind: .achievement, source: "x", fireAt: fireAt,
                                          expiresAt: fireAt.addingTimeInterval(7 * 86_400), title: "", body: "",
                                          priority: .low, category: "", actions: [], sound: true, badge: true,
                                          recurrence: .once)
        }
        let second = quiet.moving(unlocked("2027-04-03T16:10:00Z"), clock: sydney)   // 02:10 AEST
        XCTAssertEqual(second.fireAt, Fixtures.instant("2027-04-03T16:30:00Z"), "the second 02:30, not 40 min before")
        XCTAssertEqual(second.expiresAt, Fixtures.instant("2027-04-10T16:30:00Z"))
        let first = quiet.moving(unlocked("2027-04-03T15:10:00Z"), clock: sydney)    // 02:10 AEDT
        XCTAssertEqual(first.fireAt, Fixtures.instant("2027-04-03T15:30:00Z"), "the first pass ends at the first")
        let evening = quiet.moving(unlocked("2027-04-03T11:00:00Z"), clock: sydney)  // 22:00 AEDT
        XCTAssertEqual(evening.fireAt, Fixtures.instant("2027-04-03T15:30:00Z"))
    }
}
