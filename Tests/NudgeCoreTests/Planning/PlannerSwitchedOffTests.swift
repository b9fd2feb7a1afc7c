import XCTest
@testable import NudgeCore

/// A kind (or one alarm) switched off in settings.json: nothing of it is planned or delivered, and its
/// snoozes and timers are held, not dropped, until it is back on.
final class PlannerSwitchedOffTests: XCTestCase {
    private let berlin = Fixtures.berlin

    private func household(alarms: [Alarm] = [], pets: [Pet] = []) -> Household {
        Household(settings: Fixtures.settings(), pets: pets, alarms: alarms)
    }

    private func state(lastRun: String) -> RunState {
        Fixtures.state(lastRun: lastRun, zone: "Europe/Berlin")
    }

    func testDisabledKindsPlanAndDeliverNothing() {
        var input = household(alarms: [Fixtures.alarm(at: "05:30")], pets: [Fixtures.washingPet()])
        input.settings.alarms.enabled = false
        input.settings.laundry.enabled = false
        let result = Planner.plan(input, previous: state(lastRun: "2026-11-21T04:00:00Z"),
                                  now: Fixtures.instant("2026-11-21T08:20:00Z"), zone: berlin)
        XCTAssertEqual(result.plan.pending, [])
        XCTAssertEqual(result.deliveries, [])
    }

    /// A snooze keeps its original's kind and a prayer timer is an alarm: while that kind (or that alarm) is
    /// switched off they are neither planned nor delivered, and like the kind's own one-offs they are held, not
    /// dropped: back on before they expire, they ring.
    func testSnoozesAndTimersOfASwitchedOffKindAreHeldUntilItIsBackOn() {
        let alarm = Fixtures.alarm("fajr", at: "05:30", duration: 30)
        let delivered = AlarmRule.occurrence(of: alarm, on: Fixtures.date("2026-11-21"), settings: Settings(),
                                             clock: WallClock(zone: berlin), title: "Fajr", body: "")!
        var previous = state(lastRun: "2026-11-21T04:31:00Z")
        let snooze = SnoozeRule.snooze(delivered, minutes: 5, now: Fixtures.instant("2026-11-21T04:31:00Z"),
                                       existing: [])                        // 04:36Z, expires 05:06Z
        previous.userActions.snoozes = [snooze]
        previous.userActions.timers = [PrayerTimerRule.timer(for: alarm, date: "2026-11-21",
                                                             now: Fixtures.instant("2026-11-21T04:31:00Z"),
                                                             settings: Settings())]
        var off = household(alarms: [alarm])
        off.settings.alarms.enabled = false

        let whileOff = Planner.plan(off, previous: previous, now: Fixtures.instant("2026-11-21T04:40:00Z"),
                                    zone: berlin)
        XCTAssertEqual(whileOff.deliveries, [])
        XCTAssertEqual(whileOff.plan.pending, [])
        XCTAssertEqual(whileOff.missed, [])
        XCTAssertEqual(whileOff.state.userActions.snoozes.map(\.id), [snooze.id], "held, not dropped")
        XCTAssertEqual(whileOff.state.userActions.timers.count, 1)
        XCTAssertNil(whileOff.state.memory.ledger[snooze.id])

        // Back on at 04:50Z: the snooze (due 04:36Z, expires 05:06Z) rings late; the timer (05:01Z) is planned,
        // the alarm's next record (one pending record per source).
        let backOn = Planner.plan(household(alarms: [alarm]), previous: whileOff.state,
                                  now: Fixtures.instant("2026-11-21T04:50:00Z"), zone: berlin)
        XCTAssertEqual(backOn.deliveries.map(\.notification.id), [snooze.id])
        XCTAssertEqual(backOn.deliveries.first?.lateSeconds, 14 * 60)
        XCTAssertEqual(backOn.plan.pending.map(\.id), ["alarm.timerDone:fajr:2026-11-21"])

        // Switching off only this alarm holds its snooze and timer the same way.
        var alarmOff = alarm
        alarmOff.enabled = false
        let single = Planner.plan(household(alarms: [alarmOff]), previous: previous,
                                  now: Fixtures.instant("2026-11-21T04:40:00Z"), zone: berlin)
        XCTAssertEqual(single.deliveries, [])
        XCTAssertEqual(single.plan.pending, [])
    }

    func testASnoozeExpiredWhileItsKindWasOffIsNeitherDeliveredNorMissed() {
        var previous = state(lastRun: "2026-11-21T08:16:00Z")
        let first = Planner.plan(household(pets: [Fixtures.washingPet()]),
                                 previous: state(lastRun: "2026-11-21T08:14:00Z"),
                                 now: Fixtures.instant("2026-11-21T08:16:00Z"), zone: berlin)
        let wash = first.deliveries[0].notification
        previous = first.state
        previous.userActions.snoozes = [SnoozeRule.snooze(wash, minutes: 10,
                                                          now: Fixtures.instant("2026-11-21T08:16:00Z"),
                                                          existing: [])]  // 08:26Z, expires 14:26Z
        var off = household(pets: [Fixtures.washingPet()])
        off.settings.laundry.enabled = false
        let whileOff = Planner.plan(off, previous: previous, now: Fixtures.instant("2026-11-21T09:00:00Z"),
                                    zone: berlin)
        XCTAssertEqual(whileOff.deliveries, [])
        let backOn = Planner.plan(household(pets: [Fixtures.washingPet()]), previous: whileOff.state,
                                  now: Fixtures.instant("2026-11-21T15:00:00Z"), zone: berlin)
        XCTAssertEqual(backOn.deliveries, [])
        XCTAssertEqual(backOn.missed, [], "it did not fall due since the previous run while it could ring")
    }
}
