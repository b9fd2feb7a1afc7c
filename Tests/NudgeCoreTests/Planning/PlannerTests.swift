import XCTest
@testable import NudgeCore

/// The delivery rules of SPEC §7, run through `Planner.plan` with literal instants and zones.
final class PlannerTests: XCTestCase {
    private let berlin = Fixtures.berlin

    private func household(alarms: [Alarm] = [], pets: [Pet] = []) -> Household {
        Household(settings: Fixtures.settings(), pets: pets, alarms: alarms)
    }

    private func washingPet(startedAt: String = "2026-11-21T07:30:00Z") -> Pet {
        Pet(id: "snowy", name: "Snowy", cycle: LaundryCycle(id: "c-1", stage: .wash,
                                                           startedAt: Fixtures.instant(startedAt)))
    }

    private func state(lastRun: String, zone: String = "Europe/Berlin") -> RunState {
        Fixtures.state(lastRun: lastRun, zone: zone)
    }

    func testPendingHoldsTheNextOccurrenceOfEachSourceSortedByTime() {
        let result = Planner.plan(household(alarms: [Fixtures.alarm("fajr", at: "05:30"),
                                                     Fixtures.alarm("isha", at: "18:30")], pets: [washingPet()]),
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
        var pet = washingPet()
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
        let first = Planner.plan(household(pets: [washingPet()]), previous: state(lastRun: "2026-11-21T08:14:00Z"),
                                 now: Fixtures.instant("2026-11-21T08:16:30Z"), zone: berlin)
        XCTAssertEqual(first.deliveries.map(\.notification.id), ["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(first.deliveries.first?.lateSeconds, 90)
        XCTAssertEqual(first.state.ledger["laundry.washComplete:snowy:c-1"]?.outcome, .delivered)
        let second = Planner.plan(household(pets: [washingPet()]), previous: first.state,
                                  now: Fixtures.instant("2026-11-21T08:17:00Z"), zone: berlin)
        XCTAssertEqual(second.deliveries, [])
    }

    func testWashRecordedLateIsAnnouncedAtOnce() {
        // The wash finished at 08:15 but the user only wrote it into laundry.json at 09:00.
        let result = Planner.plan(household(pets: [washingPet()]), previous: state(lastRun: "2026-11-21T08:59:00Z"),
                                  now: Fixtures.instant("2026-11-21T09:00:00Z"), zone: berlin)
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(result.deliveries.first?.lateSeconds, 45 * 60)
    }

    func testFirstRunDeliversNothingOlderThanNowButWhatIsDueExactlyNow() {
        let now = Fixtures.instant("2026-11-21T08:15:00Z")
        let pets = [washingPet(), Pet(id: "luna", name: "Luna", cycle: LaundryCycle(
            id: "c-2", stage: .wash, startedAt: Fixtures.instant("2026-11-21T07:00:00Z")))]
        let result = Planner.plan(household(alarms: [Fixtures.alarm(at: "05:30")], pets: pets),
                                  previous: nil, now: now, zone: berlin)
        XCTAssertTrue(result.isFirstRun)
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(result.state.ledger["laundry.washComplete:luna:c-2"]?.outcome, .seen)
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
        XCTAssertEqual(result.deliveries, [])
        XCTAssertEqual(result.missed.map(\.id), ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(result.missed.first?.reason, .expired)
        XCTAssertEqual(result.state.missedTotal, 1)
        XCTAssertEqual(result.state.ledger["alarm.prayer:fajr:2026-11-21"]?.outcome, .missed)
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
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-21"])
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
        XCTAssertNil(corrected.state.ledger["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(corrected.state.ledger["alarm.prayer:fajr:2026-11-24"]?.outcome, .delivered)
        XCTAssertEqual(corrected.deliveries, [])
        let nextDay = Planner.plan(household(alarms: [alarm]), previous: corrected.state,
                                   now: Fixtures.instant("2026-11-22T09:31:00Z"), zone: berlin)
        XCTAssertEqual(nextDay.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-22"])
    }

    func testStoppedCycleIsNeverDelivered() {
        let planned = Planner.plan(household(pets: [washingPet()]), previous: state(lastRun: "2026-11-21T08:00:00Z"),
                                   now: Fixtures.instant("2026-11-21T08:01:00Z"), zone: berlin)
        XCTAssertEqual(planned.plan.pending.count, 1)
        let stopped = Planner.plan(household(pets: [Pet(id: "snowy", name: "Snowy")]), previous: planned.state,
                                   now: Fixtures.instant("2026-11-21T08:20:00Z"), zone: berlin)
        XCTAssertEqual(stopped.deliveries, [])
        XCTAssertEqual(stopped.plan.pending, [])
    }

    func testChangedDurationMovesTheTimeButKeepsTheId() {
        var pet = washingPet()
        pet.washMinutes = 60
        let result = Planner.plan(household(pets: [pet]), previous: state(lastRun: "2026-11-21T08:00:00Z"),
                                  now: Fixtures.instant("2026-11-21T08:01:00Z"), zone: berlin)
        XCTAssertEqual(result.plan.pending.first?.id, "laundry.washComplete:snowy:c-1")
        XCTAssertEqual(result.plan.pending.first?.fireAt, Fixtures.instant("2026-11-21T08:30:00Z"))
    }

    func testTravelEastRingsTheAlarmTheNewWallClockPassed() {
        // Last run in Berlin at 21:50 local (20:50Z); next run in Tokyo at 05:55 local (20:55Z). Tokyo's 05:30
        // on the 22nd (20:30Z) precedes the last run as an instant, but the person's wall clock passed it.
        let alarm = Fixtures.alarm(at: "05:30")
        let result = Planner.plan(household(alarms: [alarm]), previous: state(lastRun: "2026-11-21T20:50:00Z"),
                                  now: Fixtures.instant("2026-11-21T20:55:00Z"), zone: Fixtures.tokyo,
                                  previousZone: berlin)
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(result.deliveries.first?.notification.fireAt, Fixtures.instant("2026-11-21T20:30:00Z"))
        XCTAssertEqual(result.state.timeZone, "Asia/Tokyo")
    }

    func testWithoutTravelAnAlarmBeforeThePreviousRunIsNotDue() {
        let alarm = Fixtures.alarm(at: "21:30")  // 20:30Z in Berlin
        let result = Planner.plan(household(alarms: [alarm]), previous: state(lastRun: "2026-11-21T20:50:00Z"),
                                  now: Fixtures.instant("2026-11-21T20:55:00Z"), zone: berlin)
        XCTAssertEqual(result.deliveries, [])
    }

    func testTravelWestNeverRingsTheSameLocalDateTwice() {
        // Fajr rang in Berlin for 2026-11-22; the person flies to New York where it is still 2026-11-21 evening
        // and then the morning of 2026-11-22 comes again.
        let alarm = Fixtures.alarm(at: "05:30")
        let berlinRun = Planner.plan(household(alarms: [alarm]), previous: state(lastRun: "2026-11-22T04:29:00Z"),
                                     now: Fixtures.instant("2026-11-22T04:31:00Z"), zone: berlin)
        XCTAssertEqual(berlinRun.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-22"])
        let landed = Planner.plan(household(alarms: [alarm]), previous: berlinRun.state,
                                  now: Fixtures.instant("2026-11-22T05:00:00Z"), zone: Fixtures.newYork,
                                  previousZone: berlin)
        XCTAssertEqual(landed.plan.pending.first?.id, "alarm.prayer:fajr:2026-11-23")
        let newYorkMorning = Planner.plan(household(alarms: [alarm]), previous: landed.state,
                                          now: Fixtures.instant("2026-11-22T10:31:00Z"), zone: Fixtures.newYork,
                                          previousZone: Fixtures.newYork)
        XCTAssertEqual(newYorkMorning.deliveries, [])
    }

    func testPlanIsDeterministicForTheSameInputsAndNow() {
        let input = household(alarms: [Fixtures.alarm("a", at: "07:00"), Fixtures.alarm("b", at: "07:00")],
                              pets: [washingPet()])
        let now = Fixtures.instant("2026-11-21T05:00:00Z")
        let first = Planner.plan(input, previous: state(lastRun: "2026-11-21T04:59:00Z"), now: now, zone: berlin)
        let second = Planner.plan(input, previous: state(lastRun: "2026-11-21T04:59:00Z"), now: now, zone: berlin)
        XCTAssertEqual(first.plan.fileContent, second.plan.fileContent)
        XCTAssertEqual(first.state.fileContent, second.state.fileContent)
        // Same fireAt: ordered by id.
        XCTAssertEqual(first.plan.pending.prefix(2).map(\.id), ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
    }

    func testDisabledKindsPlanAndDeliverNothing() {
        var input = household(alarms: [Fixtures.alarm(at: "05:30")], pets: [washingPet()])
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
        previous.snoozes = [snooze]
        previous.timers = [PrayerTimerRule.timer(for: alarm, date: "2026-11-21",
                                                 now: Fixtures.instant("2026-11-21T04:31:00Z"), settings: Settings())]
        var off = household(alarms: [alarm])
        off.settings.alarms.enabled = false

        let whileOff = Planner.plan(off, previous: previous, now: Fixtures.instant("2026-11-21T04:40:00Z"),
                                    zone: berlin)
        XCTAssertEqual(whileOff.deliveries, [])
        XCTAssertEqual(whileOff.plan.pending, [])
        XCTAssertEqual(whileOff.missed, [])
        XCTAssertEqual(whileOff.state.snoozes.map(\.id), [snooze.id], "held, not dropped")
        XCTAssertEqual(whileOff.state.timers.count, 1)
        XCTAssertNil(whileOff.state.ledger[snooze.id])

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
        let first = Planner.plan(household(pets: [washingPet()]), previous: state(lastRun: "2026-11-21T08:14:00Z"),
                                 now: Fixtures.instant("2026-11-21T08:16:00Z"), zone: berlin)
        let wash = first.deliveries[0].notification
        previous = first.state
        previous.snoozes = [SnoozeRule.snooze(wash, minutes: 10, now: Fixtures.instant("2026-11-21T08:16:00Z"),
                                              existing: [])]        // 08:26Z, expires 14:26Z
        var off = household(pets: [washingPet()])
        off.settings.laundry.enabled = false
        let whileOff = Planner.plan(off, previous: previous, now: Fixtures.instant("2026-11-21T09:00:00Z"),
                                    zone: berlin)
        XCTAssertEqual(whileOff.deliveries, [])
        let backOn = Planner.plan(household(pets: [washingPet()]), previous: whileOff.state,
                                  now: Fixtures.instant("2026-11-21T15:00:00Z"), zone: berlin)
        XCTAssertEqual(backOn.deliveries, [])
        XCTAssertEqual(backOn.missed, [], "it did not fall due since the previous run while it could ring")
    }

    func testLedgerForgetsADeliveredOneOffOnlyOnceItsSourceNoLongerProducesIt() {
        let first = Planner.plan(household(pets: [washingPet()]), previous: state(lastRun: "2026-11-21T08:14:00Z"),
                                 now: Fixtures.instant("2026-11-21T08:16:00Z"), zone: berlin)
        XCTAssertNotNil(first.state.ledger["laundry.washComplete:snowy:c-1"])
        // Expired at 14:15Z and two days more: the cycle is still in the file, so a clock set back could produce
        // it again, and its delivery is kept, as its id only.
        let later = Planner.plan(household(pets: [washingPet()]), previous: first.state,
                                 now: Fixtures.instant("2026-11-23T14:20:00Z"), zone: berlin)
        XCTAssertNil(later.state.ledger["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(later.state.deliveredIDs, ["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(later.deliveries, [])
        let stillThere = Planner.plan(household(pets: [washingPet()]), previous: later.state,
                                      now: Fixtures.instant("2026-11-23T14:21:00Z"), zone: berlin)
        XCTAssertEqual(stillThere.state.deliveredIDs, ["laundry.washComplete:snowy:c-1"])
        let back = Planner.plan(household(pets: [washingPet()]), previous: stillThere.state,
                                now: Fixtures.instant("2026-11-21T08:20:00Z"), zone: berlin)
        XCTAssertEqual(back.deliveries, [], "a clock set back inside its time to ring finds it delivered")
        // Folded: nothing produces it any more, and it goes.
        let folded = Planner.plan(household(pets: [Pet(id: "snowy", name: "Snowy")]), previous: stillThere.state,
                                  now: Fixtures.instant("2026-11-23T14:22:00Z"), zone: berlin)
        XCTAssertNil(folded.state.ledger["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(folded.state.deliveredIDs, [])
    }

    func testADeliveredAlarmLeavesTheLedgerForItsDatesAndNeverRingsAfterAClockSetBackAMonth() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]
        let rung = Planner.plan(household(alarms: alarms), previous: state(lastRun: "2026-11-21T04:29:00Z"),
                                now: Fixtures.instant("2026-11-21T04:30:00Z"), zone: berlin)
        XCTAssertEqual(rung.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-21"])
        let month = Planner.plan(household(alarms: alarms), previous: rung.state,
                                 now: Fixtures.instant("2026-12-21T12:00:00Z"), zone: berlin)
        XCTAssertNil(month.state.ledger["alarm.prayer:fajr:2026-11-21"])
        XCTAssertTrue(month.state.deliveredDates.contains(id: "alarm.prayer:fajr:2026-11-21"))
        let back = Planner.plan(household(alarms: alarms), previous: month.state,
                                now: Fixtures.instant("2026-11-21T04:00:00Z"), zone: berlin)
        XCTAssertEqual(back.plan.pending.map(\.id), ["alarm.prayer:fajr:2026-11-22"], "today's rang already")
        let again = Planner.plan(household(alarms: alarms), previous: back.state,
                                 now: Fixtures.instant("2026-11-21T04:31:00Z"), zone: berlin)
        XCTAssertEqual(again.deliveries, [])
    }

    func testASeenOccurrenceForgottenByTheLedgerStaysSeenWhenTheClockReturnsInsideItsTimeToRing() {
        let pet = washingPet(startedAt: "2026-11-21T07:30:00Z")       // done 08:15Z, expires 14:15Z
        let first = Planner.plan(household(pets: [pet]), previous: nil, now: Fixtures.instant("2026-11-21T09:00:00Z"),
                                 zone: berlin)
        XCTAssertEqual(first.state.ledger["laundry.washComplete:snowy:c-1"]?.outcome, .seen)
        let later = Planner.plan(household(pets: [pet]), previous: first.state,
                                 now: Fixtures.instant("2026-11-25T09:00:00Z"), zone: berlin)
        XCTAssertNil(later.state.ledger["laundry.washComplete:snowy:c-1"],
                     "settled by the spans; a first run's seen one-offs go while produced, to keep state.json small")
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
