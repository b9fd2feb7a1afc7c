import XCTest
@testable import NudgeCore

/// The buttons and labels of the actions (docs/design.md, "Acting on a delivery").
final class NotificationActionTests: XCTestCase {
    private func record(_ kind: NotificationKind, actions: [String], id: String = "x:y:z") -> NudgeCore.Notification {
        NudgeCore.Notification(id: id, kind: kind, source: "y", fireAt: Fixtures.instant("2026-11-21T10:00:00Z"),
                               expiresAt: Fixtures.instant("2026-11-21T11:00:00Z"), title: "t", body: "b",
                               priority: .high, category: "C", actions: actions, sound: true, badge: true,
                               recurrence: .once)
    }

    private func labels(_ notification: NudgeCore.Notification, canPlay: Bool = true) -> [String] {
        NotificationAction.buttons(for: notification, canPlay: canPlay).map(\.label)
    }

    func testLaundryButtonsSayWhatTheyDo() {
        let actions = ["COMPLETE_ACTION", "SNOOZE_ACTION"]
        XCTAssertEqual(labels(record(.washComplete, actions: actions)), ["Start Dryer", "Remind in 10 min"])
        XCTAssertEqual(labels(record(.dryComplete, actions: actions)), ["Mark Folded", "Remind in 10 min"])
        XCTAssertEqual(labels(record(.foldReminder, actions: actions)), ["Mark Folded", "Remind in 10 min"])
        XCTAssertEqual(labels(record(.almostDone, actions: actions)), ["Remind in 10 min"],
                       "nothing to complete before the stage is done")
    }

    func testAlarmAndLeaveTimeButtons() {
        XCTAssertEqual(labels(record(.prayer, actions: ["START_TIMER", "SNOOZE"])), ["Start Timer", "Snooze"])
        XCTAssertEqual(labels(record(.leave, actions: ["SNOOZE"])), ["Snooze"])
    }

    func testPlayNowIsAButtonOnlyWhenThereIsSomethingToOpen() {
        let reminder = record(.streakReminder, actions: ["PLAY_NOW", "REMIND_TOMORROW", "MARK_PLAYED"])
        XCTAssertEqual(labels(reminder), ["Play Now", "Remind Tomorrow", "Mark as Played"])
        XCTAssertEqual(labels(reminder, canPlay: false), ["Remind Tomorrow", "Mark as Played"])
    }

    func testViewActionsHaveNoButton() {
        XCTAssertEqual(labels(record(.achievement, actions: ["VIEW_ACHIEVEMENT"])), [])
        XCTAssertEqual(labels(record(.imported, actions: ["VIEW_RESULTS"])), [])
    }

    func testOccurrenceIDKeepsAnEventWithColonsAndDropsTheSnoozeSuffix() {
        XCTAssertEqual(OccurrenceID("laundry.washComplete:snowy:c-1042:snooze-2")?.event, "c-1042")
        XCTAssertEqual(OccurrenceID("laundry.dryComplete:snowy:2026-11-21T07:30:00Z")?.event, "2026-11-21T07:30:00Z")
        XCTAssertEqual(OccurrenceID("alarm.prayer:fajr:2026-11-21")?.source, "fajr")
        XCTAssertNil(OccurrenceID("test"))
    }
}
