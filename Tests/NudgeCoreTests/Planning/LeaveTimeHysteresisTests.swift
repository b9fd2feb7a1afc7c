import XCTest
@testable import NudgeCore

final class LeaveTimeHysteresisTests: XCTestCase {
    private let arrival = Fixtures.instant("2026-11-23T07:45:00Z")  // 08:45 Berlin, a Monday

    private func trip(_ observations: [Int]) -> Trip {
        // Observations depart 07:30–07:40 Berlin on the weekdays before: comparable to 08:45 − 25 min = 08:20.
        let departures = ["2026-11-16T06:30:00Z", "2026-11-17T06:35:00Z", "2026-11-18T06:40:00Z",
                          "2026-11-19T06:30:00Z", "2026-11-20T06:35:00Z"]
        return Trip(id: "office", destination: "Office",
                    schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: [.mon, .tue, .wed, .thu, .fri]),
                    bufferMinutes: 10, travelMinutes: 25,
                    observations: zip(departures, observations).map {
                        TravelObservation(departedAt: Fixtures.instant($0), minutes: $1)
                    })
    }

    private func plan(_ trip: Trip, previous: RunState, now: String) -> PlanResult {
        Planner.plan(Household(settings: Fixtures.settings(), trips: [trip]), previous: previous,
                     now: Fixtures.instant(now), zone: Fixtures.berlin)
    }

    private func leaveTime(_ result: PlanResult) -> Date? {
        result.plan.pending.first { $0.id == "commute.leave:office:2026-11-23" }?.fireAt
    }

    func testSmallChangesKeepThePlannedTimeAndLargerOnesMoveIt() {
        var state = RunState()
        state.lastRunAt = Fixtures.instant("2026-11-21T09:59:00Z")
        // 80th percentile of [30, 30, 30, 30, 30] = 30 → fireAt 07:45 − 40 min = 07:05Z.
        let first = plan(trip([30, 30, 30, 30, 30]), previous: state, now: "2026-11-21T10:00:00Z")
        XCTAssertEqual(leaveTime(first), Fixtures.instant("2026-11-23T07:05:00Z"))
        XCTAssertEqual(first.state.plannedLeaveTimes["commute.leave:office:2026-11-23"],
                       Fixtures.instant("2026-11-23T07:05:00Z"))
        // 80th percentile now 32: two minutes earlier — kept.
        let wobble = plan(trip([30, 30, 30, 32, 32]), previous: first.state, now: "2026-11-21T10:01:00Z")
        XCTAssertEqual(leaveTime(wobble), Fixtures.instant("2026-11-23T07:05:00Z"))
        // 80th percentile 28: two minutes later — kept too.
        let wobbleBack = plan(trip([28, 28, 28, 28, 28]), previous: wobble.state, now: "2026-11-21T10:02:00Z")
        XCTAssertEqual(leaveTime(wobbleBack), Fixtures.instant("2026-11-23T07:05:00Z"))
        // 80th percentile 35: five minutes earlier — moves.
        let jam = plan(trip([35, 35, 35, 35, 35]), previous: wobbleBack.state, now: "2026-11-21T10:03:00Z")
        XCTAssertEqual(leaveTime(jam), Fixtures.instant("2026-11-23T07:00:00Z"))
        // 80th percentile 27: eight minutes later than the new plan — moves back later.
        let clear = plan(trip([27, 27, 27, 27, 27]), previous: jam.state, now: "2026-11-21T10:04:00Z")
        XCTAssertEqual(leaveTime(clear), Fixtures.instant("2026-11-23T07:08:00Z"))
    }

    func testOnlyLeaveRemindersAreHeld() throws {
        let alarm = try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                                       settings: Settings(), clock: WallClock(zone: Fixtures.berlin)))
        var held = alarm
        LeaveTimeHysteresis.hold(&held, planned: ["alarm.prayer:fajr:2026-11-21": Fixtures.instant("2026-11-21T04:31:00Z")])
        XCTAssertEqual(held, alarm)
    }

    /// A snooze of a leave reminder keeps the time the person gave it: moved a minute earlier by a second
    /// snooze, it is neither held at the first one's time nor remembered for the next run.
    func testASnoozeOfALeaveReminderIsNotHeld() {
        let leave = CommuteRule.instance(of: Trip(id: "office", destination: "Office",
                                                  schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: [.mon]),
                                                  bufferMinutes: 10, travelMinutes: 25),
                                         arrival: Fixtures.instant("2026-11-23T07:45:00Z"),
                                         arrivalDate: Fixtures.date("2026-11-23"), settings: Settings(),
                                         clock: WallClock(zone: Fixtures.berlin))
        let snooze = SnoozeRule.snooze(leave, minutes: 3, now: Fixtures.instant("2026-11-23T07:12:00Z"), existing: [])
        var held = snooze
        LeaveTimeHysteresis.hold(&held, planned: [snooze.id: Fixtures.instant("2026-11-23T07:16:00Z")])
        XCTAssertEqual(held, snooze)
        XCTAssertEqual(LeaveTimeHysteresis.remember([leave, snooze], []), [leave.id: leave.fireAt])
    }
}
