import XCTest
@testable import NudgeCore

/// The delivery rules (docs/design.md, "When a notification is due"), run through `Planner.plan` with literal instants
/// and zones.
final class PlannerTests: XCTestCase {
    private let berlin = Fixtures.berlin

    private func household(alarms: [Alarm] = [], pets: [Pet] = []) -> Household {
        Household(settings: Fixtures.settings(), pets: pets, alarms: alarms)
    }

    private func state(lastRun: String, zone: String = "Europe/Berlin") -> RunState {
        Fixtures.state(lastRun: lastRun, zone: zone)
    }

    func testPendingHoldsTheNextOccurrenceOfEachSourceSortedByTime() {
        let result = Planner.plan(household(alarms: [Fixtures.alarm("fajr", at: "05:30"),
                                                     Fixtures.alarm("isha", at: "18:30")],
                                            pets: [Fixtures.washingPet()]),
                                  previous: state(lastRun: "2026-11-21T07:59:00Z"),
                                  now: Fixtures.instant("2026-11-21T08:00:00Z"), zone: berlin)
        XCTAssertEqual(result.plan.pending.map(\.id), [
            "laundry.washComplete:snowy:c-1",     // 08:15Z
            "alarm.prayer:isha:2026-11-21",       // 17:30Z
            "alarm.prayer:fajr:2026-11-22",       // 04:30Z tomorrow
        ])
        XCTAssertEqual(result.plan.nextWakeAt, Fixtures.instant("2026-11-21T08:15:00Z"))
        XCTAssertEqual(result.plan.budget, BudgetStatus(pending: 3, limit: 64))
        XCTAssertEqual(result.plan.deferred, [])
        XCTAssertEqual(result.deliveries, [])
    }

    func testJustInTimeNeverPlansTheFoldReminderBeforeDryCompletes() {
        var pet = Fixtures.washingPet()
        pet.cycle?.stage = .dry
        let now = Fixtures.instant("2026-11-21T08:00:00Z")
        let before = Planner.plan(household(pets: [pet]), previous: state(lastRun: "2026-11-21T07:59:00Z"),
                                  now: now, zone: berlin)
        XCTAssertEqual(before.plan.pending.map(\.kind), [.dryComplete])
        let after = Planner.plan(household(pets: [pet]), previous: before.state,
                                 now: Fixtures.instant("2026-11-21T08:31:00Z"), zone: berlin)
        XCTAssertEqual(after.deliveries.map(\.notification.kind), [.dryComplete])
        XCTAssertEqual(after.plan.pending.map(\.kind), [.foldReminder])
    }

    func testDueOneOffIsDeliveredOnceWithLateSeconds() {
        let first = Planner.plan(household(pets: [Fixtures.washingPet()]),
                                 previous: state(lastRun: "2026-11-21T08:14:00Z"),
                                 now: Fixtures.instant("2026-11-21T08:16:30Z"), zone: berlin)
        XCTAssertEqual(first.deliveries.map(\.notification.id), ["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(first.deliveries.first?.lateSeconds, 90)
        XCTAssertEqual(first.state.memory.ledger["laundry.washComplete:snowy:c-1"]?.outcome, .delivered)
        let second = Planner.plan(household(pets: [Fixtures.washingPet()]), previous: first.state,
                                  now: Fixtures.instant("2026-11-21T08:17:00Z"), zone: berlin)
        XCTAssertEqual(second.deliveries, [])
    }

    func testWashRecordedLateIsAnnouncedAtOnce() {
        // The wash finished at 08:15 but the user only wrote it into laundry.json at 09:00.
        let result = Planner.plan(household(pets: [Fixtures.washingPet()]),
                                  previous: state(lastRun: "2026-11-21T08:59:00Z"),
                                  now: Fixtures.instant("2026-11-21T09:00:00Z"), zone: berlin)
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(result.deliveries.first?.lateSeconds, 45 * 60)
    }

    func testFirstRunDeliversNothingOlderThanNowButWhatIsDueExactlyNow() {
        let now = Fixtures.instant("2026-11-21T08:15:00Z")
        let pets = [Fixtures.washingPet(), Pet(id: "luna", name: "Luna", cycle: LaundryCycle(
            id: "c-2", stage: .wash, startedAt: Fixtures.instant("2026-11-21T07:00:00Z")))]
        let result = Planner.plan(household(alarms: [Fixtures.alarm(at: "05:30")], pets: pets),
                                  previous: nil, now: now, zone: berlin)
        XCTAssertTrue(result.isFirstRun)
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(result.state.memory.ledger["laundry.washComplete:luna:c-2"]?.outcome, .seen)
        XCTAssertEqual(result.missed, [])
        let next = Planner.plan(household(pets: pets), previous: result.state,
                                now: Fixtures.instant("2026-11-21T08:16:00Z"), zone: berlin)
        XCTAssertEqual(next.deliveries, [])
    }

    func testAlarmCreatedAfterItsTimeWaitsForTomorrow() {
        let alarm = Fixtures.alarm(at: "05:30")
        // The alarm did not exist at the 06:39 run; it appears in the file before the 06:40 run.
        let today = Planner.plan(household(alarms: [alarm]), previous: state(lastRun: "2026-11-21T05:39:00Z"),
                                 now: Fixtures.instant("2026-11-21T05:40:00Z"), zone: berlin)
        XCTAssertEqual(today.deliveries, [])
        XCTAssertEqual(today.plan.pending.map(\.id), ["alarm.prayer:fajr:2026-11-22"])
        let tomorrow = Planner.plan(household(alarms: [alarm]), previous: state(lastRun: "2026-11-22T04:29:00Z"),
                                    now: Fixtures.instant("2026-11-22T04:30:00Z"), zone: berlin)
        XCTAssertEqual(tomorrow.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(tomorrow.deliveries.first?.lateSeconds, 0)
    }

    func testCatchUpWithinExpiryDeliversLate() {
        let result = Planner.plan(household(alarms: [Fixtures.alarm(at: "05:30")]),
                                  previous: state(lastRun: "2026-11-21T04:00:00Z"),
                                  now: Fixtures.instant("2026-11-21T04:50:00Z"), zone: berlin)
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(result.deliveries.first?.lateSeconds, 20 * 60)
    }

    func testCatchUpPastExpiryRecordsMissed() {
        let result = Planner.plan(household(alarms: [Fixtures.alarm(at: "05:30")]),
                                  previous: state(lastRun: "2026-11-21T04:00:00Z"),
                                  now: Fixtures.instant("2026-11-21T06:00:00Z"), zone: berlin)
        // Nothing but the missed digest, which tells it (MissedDigestTests).
        XCTAssertEqual(result.deliveries.map(\.notification.kind), [.missedDigest])
        XCTAssertEqual(result.missed.map(\.id), ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(result.missed.first?.reason, .expired)
        XCTAssertEqual(result.state.missedTotal, 1)
        XCTAssertEqual(result.state.memory.ledger["alarm.prayer:fajr:2026-11-21"]?.outcome, .missed)
        // Counted once: the next run does not count it again.
        let next = Planner.plan(household(alarms: [Fixtures.alarm(at: "05:30")]), previous: result.state,
                                now: Fixtures.instant("2026-11-21T06:01:00Z"), zone: berlin)
        XCTAssertEqual(next.missed, [])
        XCTAssertEqual(next.state.missedTotal, 1)
    }

    func testAfterDowntimeOnlyTheLatestOccurrenceOfARepeatIsDelivered() {
        let allDay = Fixtures.alarm(at: "05:30", duration: 1440)
        // At 04:30Z on the 21st the 20th's occurrence expires this very second (still deliverable) and the
        // 21st's falls due: only the 21st's is delivered.
        let result = Planner.plan(household(alarms: [allDay]), previous: state(lastRun: "2026-11-18T12:00:00Z"),
                                  now: Fixtures.instant("2026-11-21T04:30:00Z"), zone: berlin)
        XCTAssertEqual(result.deliveries.map(\.notification.id).first, "alarm.prayer:fajr:2026-11-21")
        // The 19th expired unseen: the digest tells it; the 20th was superseded by the 21st, which rang.
        XCTAssertEqual(result.deliveries.map(\.notification.kind), [.prayer, .missedDigest])
        XCTAssertEqual(result.deliveries.last?.notification.body, "Morning Prayer Time (Thu 19 Nov 05:30)")
        XCTAssertEqual(result.missed.map(\.id), ["alarm.prayer:fajr:2026-11-19", "alarm.prayer:fajr:2026-11-20"])
        XCTAssertEqual(result.missed.map(\.reason), [.expired, .superseded])
    }

    func testClockGoingBackwardsNeverRepeatsADelivery() {
        let alarm = Fixtures.alarm(at: "10:30")  // 09:30Z
        let forward = Planner.plan(household(alarms: [alarm]), previous: state(lastRun: "2026-11-21T09:00:00Z"),
                                   now: Fixtures.instant("2026-11-21T10:00:00Z"), zone: berlin)
        XCTAssertEqual(forward.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-21"])
        let back = Planner.plan(household(alarms: [alarm]), previous: forward.state,
                                now: Fixtures.instant("2026-11-21T09:00:00Z"), zone: berlin)
        XCTAssertEqual(back.deliveries, [])
        XCTAssertEqual(back.state.lastRunAt, Fixtures.instant("2026-11-21T09:00:00Z"))
        XCTAssertFalse(back.plan.pending.contains { $0.id == "alarm.prayer:fajr:2026-11-21" })
        let again = Planner.plan(household(alarms: [alarm]), previous: back.state,
                                 now: Fixtures.instant("2026-11-21T09:45:00Z"), zone: berlin)
        XCTAssertEqual(again.deliveries, [])
    }

    func testOccurrencesMarkedMissedUnderAClockThatRanAheadRingWhenTheirTimeTrulyComes() {
        let alarm = Fixtures.alarm(at: "10:30")  // 09:30Z
        let real = Planner.plan(household(alarms: [alarm]), previous: state(lastRun: "2026-11-21T09:00:00Z"),
                                now: Fixtures.instant("2026-11-21T10:00:00Z"), zone: berlin)
        let ahead = Planner.plan(household(alarms: [alarm]), previous: real.state,
                                 now: Fixtures.instant("2026-11-24T10:00:00Z"), zone: berlin)
        XCTAssertEqual(ahead.missed.map(\.id), ["alarm.prayer:fajr:2026-11-22", "alarm.prayer:fajr:2026-11-23"])
        let corrected = Planner.plan(household(alarms: [alarm]), previous: ahead.state,
                                     now: Fixtures.instant("2026-11-21T10:05:00Z"), zone: berlin)
        XCTAssertNil(corrected.state.memory.ledger["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(corrected.state.memory.ledger["alarm.prayer:fajr:2026-11-24"]?.outcome, .delivered)
        XCTAssertEqual(corrected.deliveries, [])
        let nextDay = Planner.plan(household(alarms: [alarm]), previous: corrected.state,
                                   now: Fixtures.instant("2026-11-22T09:31:00Z"), zone: berlin)
        XCTAssertEqual(nextDay.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-22"])
    }

    func testStoppedCycleIsNeverDelivered() {
        let planned = Planner.plan(household(pets: [Fixtures.washingPet()]),
                                   previous: state(lastRun: "2026-11-21T08:00:00Z"),
                                   now: Fixtures.instant("2026-11-21T08:01:00Z"), zone: berlin)
        XCTAssertEqual(planned.plan.pending.count, 1)
        let stopped = Planner.plan(household(pets: [Pet(id: "snowy", name: "Snowy")]), previous: planned.state,
                                   now: Fixtures.instant("2026-11-21T08:20:00Z"), zone: berlin)
        XCTAssertEqual(stopped.deliveries, [])
        XCTAssertEqual(stopped.plan.pending, [])
    }

    func testChangedDurationMovesTheTimeButKeepsTheId() {
        var pet = Fixtures.washingPet()
        pet.washMinutes = 60
        let result = Planner.plan(household(pets: [pet]), previous: state(lastRun: "2026-11-21T08:00:00Z"),
                                  now: Fixtures.instant("2026-11-21T08:01:00Z"), zone: berlin)
        XCTAssertEqual(result.plan.pending.first?.id, "laundry.washComplete:snowy:c-1")
        XCTAssertEqual(result.plan.pending.first?.fireAt, Fixtures.instant("2026-11-21T08:30:00Z"))
    }

    func testPlanIsDeterministicForTheSameInputsAndNow() {
        let input = household(alarms: [Fixtures.alarm("a", at: "07:00"), Fixtures.alarm("b", at: "07:00")],
                              pets: [Fixtures.washingPet()])
        let now = Fixtures.instant("2026-11-21T05:00:00Z")
        let first = Planner.plan(input, previous: state(lastRun: "2026-11-21T04:59:00Z"), now: now, zone: berlin)
        let second = Planner.plan(input, previous: state(lastRun: "2026-11-21T04:59:00Z"), now: now, zone: berlin)
        XCTAssertEqual(first.plan.fileContent, second.plan.fileContent)
        XCTAssertEqual(first.state.fileContent, second.state.fileContent)
        // Same fireAt: ordered by id.
        XCTAssertEqual(first.plan.pending.prefix(2).map(\.id), ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
    }

    func testADeliveredAlarmLeavesTheLedgerForItsDatesAndNeverRingsAfterAClockSetBackAMonth() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]
        let rung = Planner.plan(household(alarms: alarms), previous: state(lastRun: "2026-11-21T04:29:00Z"),
                                now: Fixtures.instant("2026-11-21T04:30:00Z"), zone: berlin)
        XCTAssertEqual(rung.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-21"])
        let month = Planner.plan(household(alarms: alarms), previous: rung.state,
                                 now: Fixtures.instant("2026-12-21T12:00:00Z"), zone: berlin)
        XCTAssertNil(month.state.memory.ledger["alarm.prayer:fajr:2026-11-21"])
        XCTAssertTrue(month.state.memory.deliveredDates.contains(id: "alarm.prayer:fajr:2026-11-21"))
        let back = Planner.plan(household(alarms: alarms), previous: month.state,
                                now: Fixtures.instant("2026-11-21T04:00:00Z"), zone: berlin)
        XCTAssertEqual(back.plan.pending.map(\.id), ["alarm.prayer:fajr:2026-11-22"], "today's rang already")
        let again = Planner.plan(household(alarms: alarms), previous: back.state,
                                 now: Fixtures.instant("2026-11-21T04:31:00Z"), zone: berlin)
        XCTAssertEqual(again.deliveries, [])
    }

    func testASeenOccurrenceForgottenByTheLedgerStaysSeenWhenTheClockReturnsInsideItsTimeToRing() {
        let pet = Fixtures.washingPet(startedAt: "2026-11-21T07:30:00Z")       // done 08:15Z, expires 14:15Z
        let first = Planner.plan(household(pets: [pet]), previous: nil, now: Fixtures.instant("2026-11-21T09:00:00Z"),
                                 zone: berlin)
        XCTAssertEqual(first.state.memory.ledger["laundry.washComplete:snowy:c-1"]?.outcome, .seen)
        let later = Planner.plan(household(pets: [pet]), previous: first.state,
                                 now: Fixtures.instant("2026-11-25T09:00:00Z"), zone: berlin)
        XCTAssertNil(later.state.memory.ledger["laundry.washComplete:snowy:c-1"],
                     "a first run's seen one-offs keep only their ids and instants, to keep state.json small")
        XCTAssertEqual(Set(later.state.memory.settledOneOffs.ids), ["laundry.washComplete:snowy:c-1"])
        let back = Planner.plan(household(pets: [pet]), previous: later.state,
                                now: Fixtures.instant("2026-11-21T10:00:00Z"), zone: berlin)
        XCTAssertEqual(back.deliveries, [])
        XCTAssertEqual(back.missed, [])
    }

    func testAfterAClockThatRanAheadIsCorrectedWhatItSkippedRingsAtItsTime() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]
        let ahead = Planner.plan(household(alarms: alarms), previous: state(lastRun: "2026-11-21T04:00:00Z"),
                                 now: Fixtures.instant("2027-01-10T12:00:00Z"), zone: berlin)
        let stillAhead = Planner.plan(household(alarms: alarms), previous: ahead.state,
                                      now: Fixtures.instant("2027-01-10T12:01:00Z"), zone: berlin)
        let corrected = Planner.plan(household(alarms: alarms), previous: stillAhead.state,
                                     now: Fixtures.instant("2026-11-21T04:01:00Z"), zone: berlin)
        XCTAssertEqual(corrected.plan.pending.map(\.id), ["alarm.prayer:fajr:2026-11-21"])
        let rings = Planner.plan(household(alarms: alarms), previous: corrected.state,
                                 now: Fixtures.instant("2026-11-21T04:30:00Z"), zone: berlin)
        XCTAssertEqual(rings.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-21"])
    }
}
