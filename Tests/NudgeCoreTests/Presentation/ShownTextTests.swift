import XCTest
@testable import NudgeCore

/// The text the desktop and the command show is true at the instant they show it (docs/promises.md).
final class ShownTextTests: XCTestCase {
    private func leave(body: String = "Leave in 10 min to arrive at Work by 09:00",
                       kind: NotificationKind = .leave) -> NudgeCore.Notification {
        NudgeCore.Notification(
            id: "commute.leave:work:2026-11-25", kind: kind, source: "work",
            fireAt: Fixtures.instant("2026-11-25T07:25:00Z"), expiresAt: Fixtures.instant("2026-11-25T08:00:00Z"),
            title: "Time to Leave", body: body, priority: .high, category: "LEAVE_TIME",
            actions: ["LEAVING_NOW", "SNOOZE"], sound: true, badge: false, recurrence: .once)
    }

    private let berlin = WallClock(zone: Fixtures.zone("Europe/Berlin"))

    private func body(_ notification: NudgeCore.Notification, at instant: String) -> String {
        ShownText.shown(notification, at: Fixtures.instant(instant), clock: berlin).body
    }

    func testALeaveTimeCountsDownToItsLeaveInstantThenSaysLeaveNow() {
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:25:00Z"), "Leave in 10 min to arrive at Work by 09:00")
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:25:40Z"), "Leave in 10 min to arrive at Work by 09:00")
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:29:00Z"), "Leave in 6 min to arrive at Work by 09:00 (4 min late)")
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:35:00Z"), "Leave now to arrive at Work by 09:00 (10 min late)")
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:35:59Z"), "Leave now to arrive at Work by 09:00 (10 min late)")
        XCTAssertEqual(body(leave(body: "Leave now to arrive at Work by 09:00"), at: "2026-11-25T07:25:59Z"),
                       "Leave now to arrive at Work by 09:00")
    }

    /// Past the leave instant (arrival − travel) "Leave now to arrive by 09:00" is impossible: the text says she is
    /// late and when she arrives if she leaves now (docs/design.md, "Texts written when shown"). Before, 25 minutes late it said "Leave now to arrive at
    /// Work by 09:00 (25 min late)".
    func testALeaveTimeShownPastItsLeaveInstantSaysSheIsLateAndWhenSheWouldArrive() {
        // Arrival 08:00Z (09:00 in Berlin), leave instant 07:35Z: 25 minutes of travel.
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:36:00Z"),
                       "You are late: leaving now you reach Work at 09:01, 1 min after 09:00")
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:50:00Z"),
                       "You are late: leaving now you reach Work at 09:15, 15 min after 09:00")
        XCTAssertEqual(body(leave(body: "Leave now to arrive at Work by 09:00"), at: "2026-11-25T07:45:30Z"),
                       "You are late: leaving now you reach Work at 09:20, 20 min after 09:00")
        // The terminal's line says the same (and the lateness of the delivery in its own words).
        let late = Delivery(notification: leave(), deliveredAt: Fixtures.instant("2026-11-25T07:50:00Z"))
        XCTAssertEqual(DeliveryLine.text(late, clock: berlin),
                       "[2026-11-25 08:25] Time to Leave — You are late: leaving now you reach Work at 09:15, 15 min "
                           + "after 09:00 (high, commute.leave, 25 min late) → nudge act commute.leave:work:2026-11-25 "
                           + "LEAVING_NOW|SNOOZE")
        let countdown = Delivery(notification: leave(), deliveredAt: Fixtures.instant("2026-11-25T07:29:00Z"))
        XCTAssertTrue(DeliveryLine.text(countdown, clock: berlin).contains("— Leave in 6 min to arrive at Work by 09:00 ("))
    }

    func testAnyDeliveryMoreThanAMinuteLateSaysSoAndTheRestIsUnchanged() {
        let alarm = leave(body: "Take 15 minutes to pray", kind: .prayer)
        XCTAssertEqual(body(alarm, at: "2026-11-25T07:26:00Z"), "Take 15 minutes to pray", "60 s is on time")
        XCTAssertEqual(body(alarm, at: "2026-11-25T07:26:01Z"), "Take 15 minutes to pray (1 min late)")
        XCTAssertEqual(body(alarm, at: "2026-11-25T09:30:00Z"), "Take 15 minutes to pray (2 h 5 min late)")
        let shown = ShownText.shown(alarm, at: Fixtures.instant("2026-11-25T09:30:00Z"), clock: berlin)
        XCTAssertEqual(shown.id, alarm.id)
        XCTAssertEqual(shown.title, alarm.title)
    }
}
