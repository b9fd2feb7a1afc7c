import XCTest
@testable import NudgeCore

/// "Missed while away" (docs/design.md, "Missed while away"): a run that records critical or high occurrences as expired unseen tells
/// them in one notification, exactly once.
final class MissedDigestTests: XCTestCase {
    private let household = Household(settings: Fixtures.settings(), alarms: [
        Alarm(id: "fajr", title: "Morning Prayer", time: WallTime(hour: 5, minute: 30)!),
        Alarm(id: "dhuhr", title: "Noon Prayer", time: WallTime(hour: 12, minute: 30)!),
    ])

    /// Before, the laptop that slept through fajr told nothing: the alarm was only listed by `nudge status`.
    func testARunAfterTheMachineSleptThroughAnAlarmDeliversOneDigestListingIt() throws {
        // Asleep from 04:00 to 07:00 (Berlin): fajr at 05:30 expired at 06:00.
        let run = Planner.plan(household, previous: Fixtures.state(lastRun: "2026-11-21T03:00:00Z"),
                               now: Fixtures.instant("2026-11-21T06:00:00Z"), zone: Fixtures.berlin)
        XCTAssertEqual(run.missed.map(\.id), ["alarm.prayer:fajr:2026-11-21"])
        let digest = try XCTUnwrap(run.deliveries.map(\.notification).first { $0.kind == .missedDigest })
        XCTAssertEqual(run.deliveries.count, 1)
        XCTAssertEqual(digest.title, "Missed while away")
        XCTAssertEqual(digest.body, "Morning Prayer Time (05:30)")
        XCTAssertEqual(digest.priority, .high)
        XCTAssertEqual(digest.actions, [])
        XCTAssertEqual(digest.fireAt, Fixtures.instant("2026-11-21T06:00:00Z"))
        XCTAssertEqual(digest.expiresAt, Fixtures.instant("2026-11-22T06:00:00Z"), "never itself missed: a day")
        XCTAssertTrue(digest.id.hasPrefix("digest.missed:away:"), digest.id)
        XCTAssertTrue(run.outboxLines.contains("\"kind\":\"digest.missed\""), run.outboxLines)
        XCTAssertEqual(run.state.channelQueue.deliveries.count, 0,
                       "no desktop or command configured: stdout and the outbox only")
        XCTAssertEqual(DeliveryLine.text(run.deliveries[0], clock: WallClock(zone: Fixtures.berlin)),
                       "[2026-11-21 07:00] Missed while away — Morning Prayer Time (05:30) (high, digest.missed) "
                           + "→ nudge status")

        // The next runs tell nothing more.
        let next = Planner.plan(household, previous: run.state, now: Fixtures.instant("2026-11-21T06:01:00Z"),
                                zone: Fixtures.berlin)
        XCTAssertEqual(next.deliveries.map(\.notification.id), [])
    }

    /// The state the next run finds after the run at 06:00 (Berlin's 07:00, fajr expired) died after writing its
    /// outbox line and before state.json: the state before, and what the outbox tells of that run.
    private func stateAfterARunThatDiedAfterItsOutboxLine() -> RunState {
        let before = Fixtures.state(lastRun: "2026-11-21T03:00:00Z")
        let died = Planner.plan(household, previous: before, now: Fixtures.instant("2026-11-21T06:00:00Z"),
                                zone: Fixtures.berlin)
        var recovered = before
        _ = OutboxRecovery.recover(tail: Array(died.outboxLines.utf8), into: &recovered, channels: [],
                                   continuing: true)
        return recovered
    }

    /// A run killed after its outbox line and before state.json: the next run finds the same occurrences missed,
    /// makes the same digest, and the ledger recovered from the outbox already holds it.
    func testTheDigestOfARunThatDiedAfterItsOutboxLineIsNotDeliveredAgain() throws {
        let recovered = stateAfterARunThatDiedAfterItsOutboxLine()
        let again = Planner.plan(household, previous: recovered, now: Fixtures.instant("2026-11-21T06:00:30Z"),
                                 zone: Fixtures.berlin)
        XCTAssertEqual(again.missed.map(\.id), ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(again.deliveries.map(\.notification.id), [])
    }

    /// The same, with the next run hours later, when another alarm has expired too: the died run's digest told
    /// the first, so the next tells only the second (found by scripts/crash-test.sh).
    func testAfterARunThatDiedAfterItsDigestTheNextRunTellsOnlyWhatExpiredSince() throws {
        let recovered = stateAfterARunThatDiedAfterItsOutboxLine()
        let later = Planner.plan(household, previous: recovered, now: Fixtures.instant("2026-11-21T13:00:00Z"),
                                 zone: Fixtures.berlin)
        XCTAssertEqual(later.missed.map(\.id), ["alarm.prayer:fajr:2026-11-21", "alarm.prayer:dhuhr:2026-11-21"])
        XCTAssertEqual(later.deliveries.map(\.notification.body), ["Noon Prayer Time (12:30)"])
    }

    func testMoreThanFiveAreCountedAndOtherDaysNamedAndLowPriorityLeftOut() throws {
        var missed: [NudgeCore.Notification] = (0..<7).map { index in
            NudgeCore.Notification(id: "alarm.prayer:a\(index):2026-11-20", kind: .prayer, source: "a\(index)",
                                   fireAt: Fixtures.instant("2026-11-20T0\(index):00:00Z"),
                                   expiresAt: Fixtures.instant("2026-11-20T0\(index):30:00Z"), title: "A\(index)",
                                   body: "", priority: .critical, category: "PRAYER_ALARM", actions: [], sound: true,
                                   badge: true, recurrence: .once)
        }
        var low = missed[0]
        low.id = "daily.personalized:me:2026-11-20"
        low.priority = .low
        missed.append(low)
        let digest = try XCTUnwrap(MissedDigest.notification(listing: missed,
                                                             now: Fixtures.instant("2026-11-21T06:00:00Z"),
                                                             clock: WallClock(zone: .utc), settings: Settings()))
        XCTAssertEqual(digest.body, "A0 (Fri 20 Nov 00:00), A1 (Fri 20 Nov 01:00), A2 (Fri 20 Nov 02:00), "
                       + "A3 (Fri 20 Nov 03:00), A4 (Fri 20 Nov 04:00) and 2 more")
        XCTAssertNil(MissedDigest.notification(listing: [low], now: Fixtures.instant("2026-11-21T06:00:00Z"),
                                               clock: WallClock(zone: .utc), settings: Settings()))
    }
}
