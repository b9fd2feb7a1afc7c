import XCTest
@testable import NudgeCore

/// `notifications.enabled = false` (docs/files.md): planning goes on, deliveries are recorded as suppressed and not
/// replayed when switched back on.
final class MasterSwitchTests: XCTestCase {
    func testSuppressedWhileOffAndNotReplayedWhenOn() {
        var household = Household(settings: Fixtures.settings(), alarms: [Fixtures.alarm(at: "05:30")])
        household.settings.notifications.enabled = false
        var previous = RunState()
        previous.lastRunAt = Fixtures.instant("2026-11-21T04:29:00Z")
        let off = Planner.plan(household, previous: previous, now: Fixtures.instant("2026-11-21T04:30:00Z"),
                               zone: Fixtures.berlin)
        XCTAssertEqual(off.deliveries, [])
        XCTAssertEqual(off.suppressed.map(\.id), ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(off.state.memory.ledger["alarm.prayer:fajr:2026-11-21"]?.outcome, .suppressed)
        XCTAssertEqual(off.state.lastSuppressed, 1)
        XCTAssertEqual(off.plan.pending.map(\.id), ["alarm.prayer:fajr:2026-11-22"])  // still planned
        XCTAssertEqual(off.state.badge, 0)

        household.settings.notifications.enabled = true
        let on = Planner.plan(household, previous: off.state, now: Fixtures.instant("2026-11-21T04:35:00Z"),
                              zone: Fixtures.berlin)
        XCTAssertEqual(on.deliveries, [])
    }

    func testBadgeCountsBadgedDeliveriesAndQueuesTheCommand() {
        var household = Household(settings: Fixtures.settings(),
                                  alarms: [Fixtures.alarm("a", at: "05:30"), Fixtures.alarm("b", at: "05:30")])
        household.settings.deliverCommand = ["notify-send", "{title}"]
        var previous = RunState()
        previous.lastRunAt = Fixtures.instant("2026-11-21T04:29:00Z")
        previous.badge = 3
        let result = Planner.plan(household, previous: previous, now: Fixtures.instant("2026-11-21T04:30:00Z"),
                                  zone: Fixtures.berlin)
        XCTAssertEqual(result.deliveries.map(\.badge), [4, 5])
        XCTAssertEqual(result.state.badge, 5)
        XCTAssertEqual(result.state.channelQueue.deliveries.map(\.delivery.notification.id),
                       ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
    }
}
