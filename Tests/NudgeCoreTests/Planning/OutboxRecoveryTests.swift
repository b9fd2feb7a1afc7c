import XCTest
@testable import NudgeCore

final class OutboxRecoveryTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)

    /// The outbox line a run writes for the alarm `id` on 2026-11-21 (05:30 Berlin = 04:30Z), delivered at `at`.
    private func line(_ id: String, deliveredAt at: String = "2026-11-21T04:30:00Z") -> String {
        let alarm = AlarmRule.occurrence(of: Fixtures.alarm(id), on: Fixtures.date("2026-11-21"),
                                         settings: Fixtures.settings(), clock: clock)!
        return Delivery(notification: alarm, deliveredAt: Fixtures.instant(at)).outboxLine
    }

    func testLinesWrittenByACrashedRunEnterTheLedgerAsDelivered() {
        var state = RunState()
        state.lastRunAt = Fixtures.instant("2026-11-21T04:29:00Z")
        state.outboxBytes = 100
        let tail = line("a") + line("b")
        let outcome = OutboxRecovery.recover(tail: Array(tail.utf8), into: &state)
        XCTAssertEqual(outcome.recoveredIDs, ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
        XCTAssertEqual(outcome.completeLength, 100 + tail.utf8.count)
        XCTAssertEqual(state.memory.ledger["alarm.prayer:a:2026-11-21"]?.outcome, .delivered)
        XCTAssertEqual(state.memory.ledger["alarm.prayer:b:2026-11-21"]?.fireAt,
                       Fixtures.instant("2026-11-21T04:30:00Z"))
        XCTAssertEqual(state.deliveredTotal, 2)
        XCTAssertEqual(state.outboxBytes, 100 + tail.utf8.count)
        XCTAssertEqual(state.outboxLastLine, ContentHash.of(Array(line("b").utf8)))
    }

    func testTornLastLineIsNotCountedAndMarkedForCutting() {
        var state = RunState()
        let whole = line("a")
        let torn = String(line("b").prefix(30))
        let outcome = OutboxRecovery.recover(tail: Array((whole + torn).utf8), into: &state)
        XCTAssertEqual(outcome.recoveredIDs, ["alarm.prayer:a:2026-11-21"])
        XCTAssertEqual(outcome.completeLength, whole.utf8.count)
        XCTAssertNil(state.memory.ledger["alarm.prayer:b:2026-11-21"])
    }

    func testARecoveredDeliveryIsCountedForTheBadgeAndQueuedForEveryChannel() {
        var state = RunState()
        state.lastRunAt = Fixtures.instant("2026-11-21T04:29:00Z")
        state.badge = 3
        _ = OutboxRecovery.recover(tail: Array((line("a") + line("b")).utf8), into: &state,
                                   channels: [.desktop, .command])
        XCTAssertEqual(state.badge, 5)
        XCTAssertEqual(state.channelQueue.deliveries.map(\.delivery.notification.id),
                       ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
        XCTAssertEqual(state.channelQueue.deliveries.map(\.channels), [[.desktop, .command], [.desktop, .command]])
        XCTAssertEqual(state.channelQueue.deliveries.map(\.delivery.badge), [4, 5],
                       "NUDGE_BADGE counts each as delivered")
    }

    func testAnIdAlreadyDeliveredIsNeitherCountedNorQueuedAgain() {
        var state = RunState()
        state.lastRunAt = Fixtures.instant("2026-11-21T04:29:00Z")
        _ = OutboxRecovery.recover(tail: Array(line("a").utf8), into: &state, channels: [.desktop])
        var again = state
        again.outboxBytes = 0
        let outcome = OutboxRecovery.recover(tail: Array(line("a").utf8), into: &again, channels: [.desktop])
        XCTAssertEqual(outcome.recoveredIDs, [])
        XCTAssertEqual(again.deliveredTotal, 1)
        XCTAssertEqual(again.channelQueue.deliveries.count, 1)
        XCTAssertEqual(again.badge, 1)
    }

    func testWithoutAnyStateTheOutboxIsHistoryNotACrashedRun() {
        var state = RunState()
        let outcome = OutboxRecovery.recover(tail: Array(line("a").utf8), into: &state, channels: [.desktop])
        XCTAssertEqual(outcome.recoveredIDs, ["alarm.prayer:a:2026-11-21"])
        XCTAssertEqual(state.channelQueue.deliveries, [], "state.json deleted to start afresh: nothing is shown again")
        XCTAssertEqual(state.badge, 0)
    }

    func testAnOldFilePutBackIsRecordedButNeitherCountedNorShownAgain() {
        var state = RunState()
        state.lastRunAt = Fixtures.instant("2026-11-25T08:00:00Z")
        let outcome = OutboxRecovery.recover(tail: Array(line("a").utf8), into: &state, channels: [.desktop])
        XCTAssertEqual(outcome.recoveredIDs, ["alarm.prayer:a:2026-11-21"])
        XCTAssertEqual(state.memory.ledger["alarm.prayer:a:2026-11-21"]?.outcome, .delivered)
        XCTAssertEqual(state.deliveredTotal, 0)
        XCTAssertEqual(state.badge, 0)
        XCTAssertEqual(state.channelQueue.deliveries, [])
    }

    func testATailThatFollowsTheAccountedLineIsADiedRunsWhateverItsClockSaid() {
        var state = RunState()
        state.lastRunAt = Fixtures.instant("2026-11-25T08:00:00Z")   // the clock was set back since
        _ = OutboxRecovery.recover(tail: Array(line("a").utf8), into: &state, channels: [.command], continuing: true)
        XCTAssertEqual(state.channelQueue.deliveries.map(\.delivery.notification.id), ["alarm.prayer:a:2026-11-21"])
        XCTAssertEqual(state.badge, 1)
    }
}
