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

    private func body(_ notification: NudgeCore.Notification, at instant: String) -> String {
        ShownText.shown(notification, at: Fixtures.instant(instant)).body
    }

    func testALeaveTimeCountsDownToItsLeaveInstantThenSaysLeaveNow() {
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:25:00Z"), "Leave in 10 min to arrive at Work by 09:00")
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:25:40Z"), "Leave in 10 min to arrive at Work by 09:00")
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:29:00Z"), "Leave in 6 min to arrive at Work by 09:00 (4 min late)")
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:35:00Z"), "Leave now to arrive at Work by 09:00 (10 min late)")
        // The delivery 25 minutes late.
        XCTAssertEqual(body(leave(), at: "2026-11-25T07:50:00Z"), "Leave now to arrive at Work by 09:00 (25 min late)")
        XCTAssertEqual(body(leave(body: "Leave now to arrive at Work by 09:00"), at: "2026-11-25T07:27:00Z"),
                       "Leave now to arrive at Work by 09:00 (2 min late)")
    }

    func testAnyDeliveryMoreThanAMinuteLateSaysSoAndTheRestIsUnchanged() {
        let alarm = leave(body: "Take 15 minutes to pray", kind: .prayer)
        XCTAssertEqual(body(alarm, at: "2026-11-25T07:26:00Z"), "Take 15 minutes to pray", "60 s is on time")
        XCTAssertEqual(body(alarm, at: "2026-11-25T07:26:01Z"), "Take 15 minutes to pray (1 min late)")
        XCTAssertEqual(body(alarm, at: "2026-11-25T09:30:00Z"), "Take 15 minutes to pray (2 h 5 min late)")
        let shown = ShownText.shown(alarm, at: Fixtures.instant("2026-11-25T09:30:00Z"))
        XCTAssertEqual(shown.id, alarm.id)
        XCTAssertEqual(shown.title, alarm.title)
    }
}
