import XCTest
@testable import NudgeCore

final class SnoozeRuleTests: XCTestCase {
    private let original = NudgeCore.Notification(
        id: "laundry.washComplete:snowy:c-1", kind: .washComplete, source: "snowy",
        fireAt: Fixtures.instant("2026-11-21T08:15:00Z"), expiresAt: Fixtures.instant("2026-11-21T14:15:00Z"),
        title: "Wash Complete!", body: "Snowy is ready for the dryer!", priority: .critical,
        category: "TIMER_COMPLETE", actions: ["COMPLETE_ACTION", "SNOOZE_ACTION"], sound: true, badge: true,
        recurrence: .once)

    func testSnoozeIsANewOccurrenceKeepingTextsPriorityAndExpirySpan() {
        let snooze = SnoozeRule.snooze(original, minutes: 10, now: Fixtures.instant("2026-11-21T08:16:00Z"), existing: [])
        XCTAssertEqual(snooze.id, "laundry.washComplete:snowy:c-1:snooze-1")
        XCTAssertEqual(snooze.fireAt, Fixtures.instant("2026-11-21T08:26:00Z"))
        XCTAssertEqual(snooze.expiresAt, Fixtures.instant("2026-11-21T14:26:00Z"))
        XCTAssertEqual(snooze.kind, original.kind)
        XCTAssertEqual(snooze.priority, original.priority)
        XCTAssertEqual(snooze.title, original.title)
        XCTAssertEqual(snooze.body, original.body)
        XCTAssertEqual(snooze.deepLink, original.deepLink)
    }

    func testSnoozingASnoozeNumbersTheNextOne() {
        let first = SnoozeRule.snooze(original, minutes: 10, now: Fixtures.instant("2026-11-21T08:16:00Z"), existing: [])
        let second = SnoozeRule.snooze(first, minutes: 10, now: Fixtures.instant("2026-11-21T08:27:00Z"),
                                       existing: [first])
        XCTAssertEqual(second.id, "laundry.washComplete:snowy:c-1:snooze-2")
    }

    func testDefaultMinutesAreTenForLaundryAndTheSettingOtherwise() {
        var settings = Settings()
        settings.alarms.snoozeMinutes = 7
        XCTAssertEqual(SnoozeRule.defaultMinutes(for: .washComplete, settings: settings), 10)
        XCTAssertEqual(SnoozeRule.defaultMinutes(for: .prayer, settings: settings), 7)
    }
}
