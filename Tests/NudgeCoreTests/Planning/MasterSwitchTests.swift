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
        XCTAssertEqual(result.state.commandQueue.map(\.delivery.notification.id),
                       ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
    }

    func testCommandQueueRetriesUntilExpiryThenGivesUp() {
        let alarm = AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"), settings: Settings(),
                                         clock: WallClock(zone: Fixtures.berlin))
        guard let alarm else { return XCTFail("no occurrence") }
        var state = RunState()
        _ = state.deliver(alarm, now: Fixtures.instant("2026-11-21T04:30:00Z"), channels: [.command])
        XCTAssertEqual(state.commandsToTry(now: Fixtures.instant("2026-11-21T04:30:00Z")).count, 1)
        state.recordCommand(alarm.id, error: "notify-send exited with status 1", now: Fixtures.instant("2026-11-21T04:30:00Z"))
        XCTAssertEqual(state.commandQueue.first?.attempts, 1)
        // Each failure carries its time, for `status` (docs/design.md, "The desktop").
        XCTAssertEqual(state.commandFailures,
                       ["2026-11-21T04:30:00Z \(alarm.id): desktop command failed: notify-send exited with status 1"])
        XCTAssertEqual(state.commandsToTry(now: Fixtures.instant("2026-11-21T05:00:00Z")).count, 1)  // at expiry
        XCTAssertEqual(state.commandsToTry(now: Fixtures.instant("2026-11-21T05:00:01Z")).count, 0)
        XCTAssertEqual(state.commandQueue, [])
        XCTAssertTrue(state.commandFailures.last?.contains("gave up after 1 failed attempt(s)") ?? false)
    }

    func testEachChannelLeavesTheQueueWhenItShowedTheDeliveryAndALateSuccessIsNoted() {
        let alarm = AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"), settings: Settings(),
                                         clock: WallClock(zone: Fixtures.berlin))
        guard let alarm else { return XCTFail("no occurrence") }
        var state = RunState()
        let at = Fixtures.instant("2026-11-21T04:30:00Z")
        _ = state.deliver(alarm, now: at, channels: [.desktop, .command])
        state.recordCommand(alarm.id, channel: .desktop, error: "no desktop session bus", now: at)
        state.recordCommand(alarm.id, channel: .command, error: nil, now: at)
        XCTAssertEqual(state.commandQueue.map(\.channels), [[.desktop]], "only the desktop is left to retry")
        let later = Fixtures.instant("2026-11-21T04:31:00Z")
        state.recordCommand(alarm.id, channel: .desktop, error: nil, now: later)
        XCTAssertEqual(state.commandQueue, [])
        XCTAssertEqual(state.commandFailures.last,
                       "2026-11-21T04:31:00Z \(alarm.id): desktop notification got through after 1 failed attempt(s)")
    }

    /// stderr, which cron mails each run, says a failure when it first happens and when it ends; each retry in
    /// between only goes to `status` (docs/promises.md).
    func testAFailureIsSaidWhenItStartsAndWhenItEnds() {
        let alarm = AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"), settings: Settings(),
                                         clock: WallClock(zone: Fixtures.berlin))
        guard let alarm else { return XCTFail("no occurrence") }
        var state = RunState()
        var said: [String] = []
        _ = state.deliver(alarm, now: Fixtures.instant("2026-11-21T04:30:00Z"), channels: [.desktop])
        for (minute, error) in [("30", "no desktop session bus"), ("31", "no desktop session bus"), ("32", nil)] {
            let now = Fixtures.instant("2026-11-21T04:\(minute):00Z")
            for attempt in state.commandsToTry(now: now) {
                attempt.reportLine(.desktop, error: error).map { said.append($0) }
                state.recordCommand(alarm.id, channel: .desktop, error: error, now: now)
            }
        }
        XCTAssertEqual(said, [
            "desktop notification failed for \(alarm.id): no desktop session bus; retried on the next runs until "
                + "2026-11-21T05:00:00Z (said once: `nudge status` shows the retries)",
            "desktop notification got through for \(alarm.id) after 2 failed attempts",
        ])
        XCTAssertEqual(state.commandFailures.count, 3, "status has each attempt")

        _ = state.deliver(alarm, now: Fixtures.instant("2026-11-21T04:40:00Z"), channels: [.desktop])
        let attempt = state.commandsToTry(now: Fixtures.instant("2026-11-21T04:40:00Z"))[0]
        state.recordCommand(alarm.id, channel: .desktop, error: "exited with status 1", now: Fixtures.instant("2026-11-21T04:40:00Z"))
        XCTAssertNotNil(attempt.reportLine(.desktop, error: "exited with status 1"))
        let expired = state.dropExpiredCommands(now: Fixtures.instant("2026-11-21T05:00:01Z"))
        XCTAssertEqual(expired.compactMap(\.expiredLine), [
            "desktop notification gave up on \(alarm.id): it expired at 2026-11-21T05:00:00Z after 1 failed attempt "
                + "(exited with status 1)",
        ])
    }
}
