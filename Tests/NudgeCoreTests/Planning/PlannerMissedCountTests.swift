import XCTest
@testable import NudgeCore

/// What stays missed and what was not missed after all (SPEC §11.27, §11.41, §11.43): after a clock that ran
/// ahead is corrected, what it skipped leaves the missed list and count, however long ago the ledger handed its
/// dates to `SettledDates`; what truly passed stays missed, in whatever zone and however long ago.
final class PlannerMissedCountTests: XCTestCase {
    private let berlin = Fixtures.berlin
    private func at(_ text: String) -> Date { Fixtures.instant(text) }

    private func household(alarms: [Alarm]) -> Household {
        Household(settings: Fixtures.settings(), pets: [], alarms: alarms)
    }

    /// A clock ten days ahead records nine fajr occurrences as missed, and the same run hands the seven that
    /// expired more than two days before it to `settledDates`. The corrected run forgets all nine: they lie ahead
    /// of the corrected clock, so none of them was missed, also once the alarm is removed.
    func testMissedDatesPrunedIntoSettledDatesLeaveTheMissedCountWhenAClockThatRanAheadIsCorrected() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]  // 04:30Z
        let ahead = Planner.plan(household(alarms: alarms), previous: Fixtures.state(lastRun: "2026-11-21T05:00:00Z"),
                                 now: at("2026-12-01T05:00:00Z"), zone: berlin)
        XCTAssertEqual(ahead.state.missedTotal, 9)
        XCTAssertTrue(ahead.state.settledDates.contains(id: "alarm.prayer:fajr:2026-11-22"), "pruned at once")
        let corrected = Planner.plan(household(alarms: alarms), previous: ahead.state,
                                     now: at("2026-11-21T05:01:00Z"), zone: berlin)
        XCTAssertFalse(corrected.state.settledDates.contains(id: "alarm.prayer:fajr:2026-11-22"))
        XCTAssertEqual(corrected.state.missedTotal, 0, "none of them was missed: each lies ahead of the clock")
        XCTAssertEqual(corrected.state.recentMissed.map(\.id), [])
        let removed = Planner.plan(household(alarms: []), previous: corrected.state,
                                   now: at("2026-11-22T05:01:00Z"), zone: berlin)
        XCTAssertEqual(removed.state.missedTotal, 0, "the alarm is gone: nothing of it was ever missed")
    }

    /// Two alarms and a clock a month ahead record 59 occurrences as missed, more than the list's 50. After the
    /// correction every one of them rings at its true time, none is missed, and the count is back to zero: the
    /// nine the list had dropped leave it too.
    func testAfterACorrectedMonthAheadEveryOccurrenceRingsAndTheMissedCountReturnsToZero() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30"), Fixtures.alarm("isha", at: "19:30")]
        let ahead = Planner.plan(household(alarms: alarms), previous: Fixtures.state(lastRun: "2026-11-21T05:00:00Z"),
                                 now: at("2026-12-21T05:00:00Z"), zone: berlin)
        XCTAssertEqual(ahead.state.missedTotal, 59)
        XCTAssertEqual(ahead.state.recentMissed.count, RunState.recentMissedLimit)
        var current = Planner.plan(household(alarms: alarms), previous: ahead.state,
                                   now: at("2026-11-21T05:01:00Z"), zone: berlin).state
        XCTAssertEqual(current.missedTotal, 0)
        var delivered = 0
        var now = at("2026-11-21T05:01:00Z")
        while now < at("2026-12-21T05:00:00Z") {
            now = now.addingTimeInterval(1_800)
            let run = Planner.plan(household(alarms: alarms), previous: current, now: now, zone: berlin)
            XCTAssertEqual(run.missed, [])
            delivered += run.deliveries.count
            current = run.state
        }
        XCTAssertEqual(delivered, 59, "each rang once at its time")
        XCTAssertEqual(current.missedTotal, 0)
    }

    /// A clock that ran ahead in Berlin records the 22nd and the 23rd missed; it is corrected on arrival in Tokyo
    /// at 09:00 on the 22nd. The 22nd's 05:30 has passed on the clock the person now lives by (20:30Z the day
    /// before), though its Berlin instant (04:30Z) lies ahead: it stays missed (SPEC §11.43 reopens only what lies
    /// ahead of the corrected clock). The 23rd lies ahead in Tokyo too, and rings there.
    func testADateMissedAheadInOneZoneIsNotLostWhenTheClockIsCorrectedInAZoneWhereItsTimeHasPassed() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]
        let direct = Planner.plan(household(alarms: alarms), previous: Fixtures.state(lastRun: "2026-11-21T05:00:00Z"),
                                  now: at("2026-11-22T00:00:00Z"), zone: Fixtures.tokyo, previousZone: berlin)
        XCTAssertEqual(direct.missed.map(\.id), ["alarm.prayer:fajr:2026-11-22"], "without the excursion")
        let ahead = Planner.plan(household(alarms: alarms), previous: Fixtures.state(lastRun: "2026-11-21T05:00:00Z"),
                                 now: at("2026-11-23T06:00:00Z"), zone: berlin)
        XCTAssertEqual(ahead.missed.map(\.id), ["alarm.prayer:fajr:2026-11-22", "alarm.prayer:fajr:2026-11-23"])
        var current = ahead.state
        var delivered: [String] = []
        var previousZone = berlin
        for now in ["2026-11-22T00:00:00Z", "2026-11-22T06:00:00Z", "2026-11-22T21:00:00Z"] {
            let run = Planner.plan(household(alarms: alarms), previous: current, now: at(now), zone: Fixtures.tokyo,
                                   previousZone: previousZone)
            delivered += run.deliveries.map(\.notification.id)
            current = run.state
            previousZone = Fixtures.tokyo
        }
        XCTAssertEqual(delivered, ["alarm.prayer:fajr:2026-11-23"])
        XCTAssertEqual(current.recentMissed.map(\.id), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(current.missedTotal, 1)
    }

    /// A dry stage missed on the 21st (cron off), then its `startedAt` edited by hand to a restart of the dryer
    /// (`nudge laundry dry` gives a restarted dryer a new cycle id; a hand edit keeps the old one). The id names
    /// the event, and missed stays so (SPEC §11.41): the moved completion rings neither one day later, while the
    /// ledger's retention keeps the entry, nor three days later, when a settled span would no longer cover its
    /// new instant: the entry stays while the cycle produces it.
    func testARestartedStageKeepingItsIdStaysMissedWhetherOrNotTheLedgerCouldHavePrunedIt() {
        func household(dryStartedAt: String) -> Household {
            Household(settings: Fixtures.settings(), pets: [
                Pet(id: "snowy", name: "Snowy", cycle: LaundryCycle(id: "c-1", stage: .dry,
                                                                    startedAt: at(dryStartedAt)))])
        }
        let dryCompletions = { (run: PlanResult) in
            run.deliveries.map(\.notification.id).filter { $0.hasPrefix("laundry.dryComplete") }
        }
        let first = household(dryStartedAt: "2026-11-21T08:00:00Z")  // done 09:00Z, expires 15:00Z
        let missed = Planner.plan(first, previous: Fixtures.state(lastRun: "2026-11-21T08:00:00Z"),
                                  now: at("2026-11-21T16:00:00Z"), zone: berlin)
        XCTAssertEqual(missed.missed.map(\.id), ["laundry.dryComplete:snowy:c-1"])

        let nextDay = Planner.plan(household(dryStartedAt: "2026-11-22T10:00:00Z"), previous: missed.state,
                                   now: at("2026-11-22T11:01:00Z"), zone: berlin)
        XCTAssertEqual(dryCompletions(nextDay), [])

        let later = Planner.plan(first, previous: missed.state, now: at("2026-11-24T09:00:00Z"), zone: berlin)
        XCTAssertEqual(later.state.ledger["laundry.dryComplete:snowy:c-1"]?.outcome, .missed, "still produced")
        let threeDaysOn = Planner.plan(household(dryStartedAt: "2026-11-24T10:00:00Z"), previous: later.state,
                                       now: at("2026-11-24T11:01:00Z"), zone: berlin)
        XCTAssertEqual(dryCompletions(threeDaysOn), [])

        let folded = Planner.plan(Household(settings: Fixtures.settings(), pets: [
                                      Pet(id: "snowy", name: "Snowy", cycle: nil)]),
                                  previous: later.state, now: at("2026-11-24T09:01:00Z"), zone: berlin)
        XCTAssertNil(folded.state.ledger["laundry.dryComplete:snowy:c-1"], "gone with its cycle")
    }
}
