import XCTest
@testable import NudgeCore

/// What the ledger prunes changes no outcome (docs/promises.md): missed, suppressed or departed stays so whether the
/// entry is still in the ledger, in `settledDates`, or kept while its one-off is produced, across clock steps,
/// travel and hand edits that keep its id; a one-off seen by the first run stays so across clock steps.
final class PlannerPruningTests: XCTestCase {
    private let berlin = Fixtures.berlin
    private let tokyo = Fixtures.tokyo
    private func at(_ text: String) -> Date { Fixtures.instant(text) }

    private func household(alarms: [Alarm] = [], pets: [Pet] = []) -> Household {
        Household(settings: Fixtures.settings(), pets: pets, alarms: alarms)
    }

    private func state(lastRun: String) -> RunState {
        Fixtures.state(lastRun: lastRun, zone: "Europe/Berlin")
    }

    /// A clock that ran ahead in Tokyo records fajr of the 22nd missed: its Tokyo 05:30 (20:30Z on the 21st) lay
    /// between the last real run and the ahead one. Corrected on arrival in Berlin at 23:00Z on the 21st, that
    /// instant has passed on the corrected clock too: the 22nd was truly missed in Tokyo and stays missed, as a date
    /// missed in one zone stays missed in another, though Berlin's 05:30 of the 22nd is still to come. The same
    /// whether the entry is still in the ledger (one day ahead) or pruned into `settledDates` (three days ahead).
    func testADateMissedAheadInTokyoStaysMissedInBerlinWhetherOrNotTheLedgerPrunedIt() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]
        let start = Fixtures.state(lastRun: "2026-11-21T19:00:00Z", zone: "Asia/Tokyo")  // 04:00 on the 22nd
        let oneDayAhead = Fixtures.runs(household(alarms: alarms), from: start, previousZone: tokyo, zone: tokyo,
                                        ["2026-11-22T20:00:00Z"])
        let threeDaysAhead = Fixtures.runs(household(alarms: alarms), from: oneDayAhead.state, previousZone: tokyo,
                                           zone: tokyo, ["2026-11-24T20:00:00Z"])
        XCTAssertNotNil(oneDayAhead.state.memory.ledger["alarm.prayer:fajr:2026-11-22"], "kept in the ledger")
        XCTAssertTrue(threeDaysAhead.state.memory.settledDates.contains(id: "alarm.prayer:fajr:2026-11-22"), "pruned")
        let inBerlin = ["2026-11-21T23:00:00Z", "2026-11-22T04:31:00Z", "2026-11-22T12:00:00Z"]
        let kept = Fixtures.runs(household(alarms: alarms), from: oneDayAhead.state, previousZone: tokyo, zone: berlin,
                                 inBerlin)
        let pruned = Fixtures.runs(household(alarms: alarms), from: threeDaysAhead.state, previousZone: tokyo,
                                   zone: berlin, inBerlin)
        XCTAssertEqual(kept.delivered, [])
        XCTAssertEqual(kept.state.recentMissed.map(\.id), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(kept.state.missedTotal, 1)
        XCTAssertEqual(pruned.delivered, kept.delivered, "the same outcome whether or not the ledger pruned")
        XCTAssertEqual(pruned.state.missedTotal, kept.state.missedTotal)
        XCTAssertEqual(pruned.state.recentMissed.map(\.id), kept.state.recentMissed.map(\.id))
    }

    /// In one zone: a clock that ran ahead records the 22nd's fajr (05:30, 04:30Z) missed at 06:00Z. The person
    /// then moves fajr to 07:00 (06:00Z), and the clock is corrected to 05:30Z. The instant recorded has passed on
    /// the corrected clock: the date was missed and stays so (one per local date), whether its entry is still in
    /// the ledger or pruned into `settledDates`.
    func testAMissedDateWhoseAlarmWasMovedLaterStaysMissedAfterASetBackWhetherOrNotTheLedgerPrunedIt() {
        let before = household(alarms: [Fixtures.alarm("fajr", at: "05:30")])
        let moved = household(alarms: [Fixtures.alarm("fajr", at: "07:00")])
        let start = Fixtures.state(lastRun: "2026-11-22T04:00:00Z")
        let ahead = Fixtures.runs(before, from: start, previousZone: berlin, zone: berlin, ["2026-11-22T06:00:00Z"])
        XCTAssertEqual(ahead.missed, ["alarm.prayer:fajr:2026-11-22"])
        let further = Fixtures.runs(before, from: ahead.state, ["2026-11-25T06:00:00Z"])
        XCTAssertTrue(further.state.memory.settledDates.contains(id: "alarm.prayer:fajr:2026-11-22"), "pruned")
        let corrected = ["2026-11-22T05:30:00Z", "2026-11-22T06:01:00Z", "2026-11-22T12:00:00Z"]
        let kept = Fixtures.runs(moved, from: ahead.state, previousZone: berlin, zone: berlin, corrected)
        let pruned = Fixtures.runs(moved, from: further.state, previousZone: berlin, zone: berlin, corrected)
        XCTAssertEqual(kept.delivered, [])
        XCTAssertEqual(kept.state.missedTotal, 1)
        XCTAssertEqual(pruned.delivered, kept.delivered, "the same outcome whether or not the ledger pruned")
        XCTAssertEqual(pruned.state.missedTotal, kept.state.missedTotal)
    }

    /// A dry stage missed on the 21st (cron off), then its `startedAt` edited by hand to a restart of the dryer
    /// (`nudge laundry dry` gives a restarted dryer a new cycle id; a hand edit keeps the old one). The id names
    /// the event, and missed stays so (docs/promises.md): the moved completion rings neither one day later, while the
    /// ledger's retention keeps the entry, nor three days later, when the entry is pruned to `settledIDs`.
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
        XCTAssertNil(later.state.memory.ledger["laundry.dryComplete:snowy:c-1"])
        XCTAssertTrue(later.state.memory.settledOneOffs.contains(id: "laundry.dryComplete:snowy:c-1"))
        let threeDaysOn = Planner.plan(household(dryStartedAt: "2026-11-24T10:00:00Z"), previous: later.state,
                                       now: at("2026-11-24T11:01:00Z"), zone: berlin)
        XCTAssertEqual(dryCompletions(threeDaysOn), [])

        let folded = Planner.plan(Household(settings: Fixtures.settings(), pets: [
                                      Pet(id: "snowy", name: "Snowy", cycle: nil)]),
                                  previous: later.state, now: at("2026-11-24T09:01:00Z"), zone: berlin)
        XCTAssertTrue(folded.state.memory.isHandled("laundry.dryComplete:snowy:c-1"), "kept: the cycle may come back")
    }

    /// The same dry stage, missed on the 21st, but laundry is switched off while the ledger prunes: nothing produces
    /// the id then, and its outcome is kept all the same. Switched on again with the cycle's `startedAt` moved by
    /// hand, the stage stays silent.
    func testAMissedOneOffPrunedWhileItsKindIsSwitchedOffStaysMissedWhenTheKindComesBack() {
        func household(dryStartedAt: String?, laundryOn: Bool = true) -> Household {
            var settings = Fixtures.settings()
            settings.laundry.enabled = laundryOn
            return Household(settings: settings, pets: [
                Pet(id: "snowy", name: "Snowy", cycle: dryStartedAt.map {
                    LaundryCycle(id: "c-1", stage: .dry, startedAt: at($0))
                })])
        }
        let first = household(dryStartedAt: "2026-11-21T08:00:00Z")  // done 09:00Z, expires 15:00Z
        let missed = Planner.plan(first, previous: Fixtures.state(lastRun: "2026-11-21T08:00:00Z"),
                                  now: at("2026-11-21T16:00:00Z"), zone: berlin)
        XCTAssertEqual(missed.missed.map(\.id), ["laundry.dryComplete:snowy:c-1"])
        let switchedOff = Planner.plan(household(dryStartedAt: "2026-11-21T08:00:00Z", laundryOn: false),
                                       previous: missed.state, now: at("2026-11-24T09:00:00Z"), zone: berlin)
        XCTAssertTrue(switchedOff.state.memory.settledOneOffs.contains(id: "laundry.dryComplete:snowy:c-1"),
                      "kept while off")
        let restarted = household(dryStartedAt: "2026-11-24T10:00:00Z")
        let back = Planner.plan(restarted, previous: switchedOff.state, now: at("2026-11-24T11:01:00Z"), zone: berlin)
        XCTAssertEqual(back.deliveries.map(\.notification.id).filter { $0.hasPrefix("laundry.dryComplete") }, [],
                       "missed stays missed, whether or not the kind was off when the ledger pruned")
    }

    /// An achievement older than the first run is seen, never announced (docs/design.md, "When a notification is due").
    /// Its entry leaves the ledger after the retention even while the achievement stays in the files (a new household
    /// may bring hundreds), for its id and instant in `settledIDs`, so a clock set back to just after it leaves it
    /// silent; removed and restored, it stays seen, also under a clock set back.
    func testASeenAchievementLeavesTheLedgerWhileInTheFilesAndStaysSilent() {
        let achievement = Achievement(id: "a-1", title: "First win", description: "Won a game",
                                      unlockedAt: at("2026-11-20T10:00:00Z"))
        let with = Household(settings: Fixtures.settings(), streaks: StreakData(achievements: [achievement]))
        let without = Household(settings: Fixtures.settings())
        let first = Planner.plan(with, previous: nil, now: at("2026-11-21T10:00:00Z"), zone: berlin)
        let id = "streak.achievement:a-1:unlocked"
        XCTAssertEqual(first.state.memory.ledger[id]?.outcome, .seen)
        let later = Fixtures.runs(with, from: first.state, previousZone: berlin, zone: berlin, ["2026-12-21T10:00:00Z"])
        XCTAssertNil(later.state.memory.ledger[id])
        XCTAssertEqual(Set(later.state.memory.settledOneOffs.ids), [id])
        XCTAssertEqual(later.state.memory.deliveredIDs, [], "seen, not delivered")
        let back = Fixtures.runs(with, from: later.state, previousZone: berlin, zone: berlin,
                                 ["2026-11-20T10:01:00Z", "2026-11-20T10:02:00Z"])
        XCTAssertEqual(back.delivered + back.missed, [])
        let removed = Fixtures.runs(without, from: later.state, ["2026-12-21T10:01:00Z"])
        XCTAssertEqual(Set(removed.state.memory.settledOneOffs.ids), [id], "kept: it may come back")
        let restored = Fixtures.runs(with, from: removed.state, ["2026-12-21T10:02:00Z", "2026-11-20T10:01:00Z"])
        XCTAssertEqual(restored.delivered + restored.missed, [])
        XCTAssertEqual(Set(restored.state.memory.settledOneOffs.ids), [id])
    }

    /// A leave-time silenced by a departure before it fired (recorded 06:50Z, due 07:00Z) stays silent after a
    /// clock set back to 06:55Z, after the departure and before its time, whether its entry is still in the ledger
    /// or handed to `settledDates`, which keeps the earlier of the two instants (docs/promises.md, exactly once).
    func testALeaveTimeSilencedByADepartureStaysSoAfterASetBackWhetherOrNotTheLedgerPrunedIt() {
        let id = "commute.leave:office:2026-11-23"
        var kept = RunState()
        kept.memory = DeliveryMemory(ledger: [
            id: LedgerEntry(outcome: .departed, kind: "commute.leave", fireAt: at("2026-11-23T07:00:00Z"),
                            expiresAt: at("2026-11-23T08:00:00Z"), at: at("2026-11-23T06:50:00Z"))])
        var pruned = kept
        pruned.prune(now: at("2026-11-27T00:00:00Z"))
        XCTAssertNil(pruned.memory.ledger[id])
        XCTAssertTrue(pruned.memory.settledDates.contains(id: id))
        kept.reopen(after: at("2026-11-23T06:55:00Z")) { _ in self.at("2026-11-23T07:00:00Z") }
        pruned.reopen(after: at("2026-11-23T06:55:00Z")) { _ in self.at("2026-11-23T07:00:00Z") }
        XCTAssertEqual(kept.memory.ledger[id]?.outcome, .departed)
        XCTAssertTrue(pruned.memory.settledDates.contains(id: id), "kept, as the ledger keeps it")
    }

    /// An outcome recorded two days after its expiry is pruned by the run that records it: a wash written in
    /// already expired (seen), or one missed across four days of suspend. Each keeps its record for good, so a clock
    /// set back into its time to ring leaves it silent, and the missed one counted once.
    func testAnOutcomeRecordedLongAfterItsExpiryIsPrunedAtOnceAndKept() {
        let washing = household(pets: [Fixtures.washingPet()])          // done 08:15Z, expires 14:15Z
        let written = Fixtures.runs(household(), from: state(lastRun: "2026-11-24T09:00:00Z"),
                                    ["2026-11-24T09:01:00Z"])
        let seen = Fixtures.runs(washing, from: written.state, ["2026-11-24T09:02:00Z"])
        XCTAssertEqual(seen.delivered + seen.missed, [])
        XCTAssertEqual(Set(seen.state.memory.settledOneOffs.ids), ["laundry.washComplete:snowy:c-1"])
        let seenBack = Fixtures.runs(washing, from: seen.state, ["2026-11-21T08:30:00Z", "2026-11-21T08:31:00Z"])
        XCTAssertEqual(seenBack.delivered + seenBack.missed, [])

        let suspended = Fixtures.runs(washing, from: state(lastRun: "2026-11-21T08:00:00Z"), ["2026-11-25T09:00:00Z"])
        XCTAssertEqual(suspended.missed, ["laundry.washComplete:snowy:c-1"])
        XCTAssertNil(suspended.state.memory.ledger["laundry.washComplete:snowy:c-1"])
        XCTAssertTrue(suspended.state.memory.settledOneOffs.contains(id: "laundry.washComplete:snowy:c-1"))
        let missedBack = Fixtures.runs(washing, from: suspended.state, ["2026-11-21T08:30:00Z", "2026-11-21T08:31:00Z"])
        XCTAssertEqual(missedBack.delivered + missedBack.missed, [])
        XCTAssertEqual(missedBack.state.missedTotal, 1)
    }

    /// A delivered one-off keeps its id for good once its entry is pruned, also after its source left the files:
    /// restored (a cycle put back by hand) under a clock set back inside its time to ring, it is not delivered again.
    func testADeliveredOneOffKeepsItsIdForGoodOnceItsEntryIsPruned() {
        let first = Planner.plan(household(pets: [Fixtures.washingPet()]),
                                 previous: state(lastRun: "2026-11-21T08:14:00Z"),
                                 now: Fixtures.instant("2026-11-21T08:16:00Z"), zone: berlin)
        XCTAssertNotNil(first.state.memory.ledger["laundry.washComplete:snowy:c-1"])
        // Expired at 14:15Z and two days more: the cycle is still in the file, so a clock set back could produce
        // it again, and its delivery is kept, as its id only.
        let later = Planner.plan(household(pets: [Fixtures.washingPet()]), previous: first.state,
                                 now: Fixtures.instant("2026-11-23T14:20:00Z"), zone: berlin)
        XCTAssertNil(later.state.memory.ledger["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(later.state.memory.deliveredIDs, ["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(later.deliveries, [])
        let stillThere = Planner.plan(household(pets: [Fixtures.washingPet()]), previous: later.state,
                                      now: Fixtures.instant("2026-11-23T14:21:00Z"), zone: berlin)
        XCTAssertEqual(stillThere.state.memory.deliveredIDs, ["laundry.washComplete:snowy:c-1"])
        let back = Planner.plan(household(pets: [Fixtures.washingPet()]), previous: stillThere.state,
                                now: Fixtures.instant("2026-11-21T08:20:00Z"), zone: berlin)
        XCTAssertEqual(back.deliveries, [], "a clock set back inside its time to ring finds it delivered")
        let folded = Planner.plan(household(pets: [Pet(id: "snowy", name: "Snowy")]), previous: stillThere.state,
                                  now: Fixtures.instant("2026-11-23T14:22:00Z"), zone: berlin)
        XCTAssertEqual(folded.state.memory.deliveredIDs, ["laundry.washComplete:snowy:c-1"])
        let restored = Planner.plan(household(pets: [Fixtures.washingPet()]), previous: folded.state,
                                    now: Fixtures.instant("2026-11-21T08:20:00Z"), zone: berlin)
        XCTAssertEqual(restored.deliveries, [])
    }
}
