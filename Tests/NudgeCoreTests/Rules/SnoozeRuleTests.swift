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

    /// docs/design.md, "Acting on a delivery": a snooze that would not move says "already snoozed until …" and changes nothing. Before, it said
    /// "Moved the snooze of … from Sun 06 Dec 04:36 to Sun 06 Dec 04:36".
    func testASnoozeThatWouldNotMoveSaysItIsAlreadySnoozedAndChangesNothing() {
        var state = RunState()
        let first = SnoozeRule.apply(to: original, minutes: 10, now: Fixtures.instant("2026-11-21T08:16:00Z"),
                                     state: &state, existing: [])
        guard case let .made(made) = first else { return XCTFail("\(first)") }
        let before = state
        let again = SnoozeRule.apply(to: original, minutes: 10, now: Fixtures.instant("2026-11-21T08:16:40Z"),
                                     state: &state, existing: state.userActions.snoozes)
        XCTAssertEqual(again, .alreadySnoozed(made))
        XCTAssertEqual(state, before)
        XCTAssertEqual(SnoozeRule.text(of: again, original, clock: WallClock(zone: .utc)),
                       "\"\(original.title)\" is already snoozed until Sat 21 Nov 08:26 (\(made.id)): nothing changed.")
    }

    /// One snooze per notification (docs/promises.md): a second snooze moves the one still to come and keeps its
    /// id; once that one is delivered, the next is a new one; an action that settles it ends the snoozing.
    func testASecondSnoozeMovesTheFirstAndASettledNotificationIsNotSnoozed() {
        var state = RunState()
        let first = SnoozeRule.apply(to: original, minutes: 10, now: Fixtures.instant("2026-11-21T08:16:00Z"),
                                     state: &state, existing: [])
        guard case let .made(made) = first else { return XCTFail("\(first)") }
        let second = SnoozeRule.apply(to: original, minutes: 3, now: Fixtures.instant("2026-11-21T08:17:00Z"),
                                      state: &state, existing: state.userActions.snoozes)
        XCTAssertEqual(second, .moved({ var moved = made; moved.fireAt = Fixtures.instant("2026-11-21T08:20:00Z")
                                        moved.expiresAt = Fixtures.instant("2026-11-21T14:20:00Z"); return moved }(),
                                      from: Fixtures.instant("2026-11-21T08:26:00Z")))
        XCTAssertEqual(state.userActions.snoozes.map(\.id), ["laundry.washComplete:snowy:c-1:snooze-1"])
        XCTAssertEqual(state.userActions.snoozes.map(\.fireAt), [Fixtures.instant("2026-11-21T08:20:00Z")])

        // Delivered: snoozing again (the original or the snooze) makes the next one.
        state.memory = DeliveryMemory(deliveredIDs: ["laundry.washComplete:snowy:c-1:snooze-1"])
        let third = SnoozeRule.apply(to: state.userActions.snoozes[0], minutes: 10,
                                     now: Fixtures.instant("2026-11-21T08:21:00Z"), state: &state,
                                     existing: state.userActions.snoozes)
        guard case let .made(next) = third else { return XCTFail("\(third)") }
        XCTAssertEqual(next.id, "laundry.washComplete:snowy:c-1:snooze-2")

        // "Start Dryer" on the snooze settles the original too.
        state.recordAction(.complete, on: "laundry.washComplete:snowy:c-1:snooze-1",
                           now: Fixtures.instant("2026-11-21T08:22:00Z"))
        let settled = SnoozeRule.apply(to: original, minutes: 10, now: Fixtures.instant("2026-11-21T08:23:00Z"),
                                       state: &state, existing: state.userActions.snoozes)
        XCTAssertEqual(settled, .settled(.action(.complete, at: Fixtures.instant("2026-11-21T08:22:00Z"))))
        XCTAssertEqual(state.userActions.snoozes.count, 2, "nothing made")
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
