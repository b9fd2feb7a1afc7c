import XCTest
@testable import NudgeCore

/// What stays missed and what was not missed after all (docs/promises.md, exactly once): after a clock that ran
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
        XCTAssertTrue(ahead.state.memory.settledDates.contains(id: "alarm.prayer:fajr:2026-11-22"), "pruned at once")
        let corrected = Planner.plan(household(alarms: alarms), previous: ahead.state,
                                     now: at("2026-11-21T05:01:00Z"), zone: berlin)
        XCTAssertFalse(corrected.state.memory.settledDates.contains(id: "alarm.prayer:fajr:2026-11-22"))
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
    /// before), though its Berlin instant (04:30Z) lies ahead: it stays missed (a set back reopens only what lies
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

    /// A date missed under a clock that ran ahead, pruned into `settledDates` (`!`), leaves the count when
    /// the correction forgets it; missed again for real (the machine asleep through it), it is counted once more:
    /// one missed, listed once (docs/promises.md, exactly once).
    func testADateForgottenByASetBackAndThenMissedForRealIsCountedOnce() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]  // 04:30Z, expires 05:00Z
        let ahead = Fixtures.runs(household(alarms: alarms), from: Fixtures.state(lastRun: "2026-11-21T05:00:00Z"),
                                  ["2026-11-25T06:00:00Z"])
        XCTAssertEqual(ahead.state.missedTotal, 4)
        XCTAssertTrue(ahead.state.memory.settledDates.textMembers.contains { $0.value.contains("2026-11-22!") },
                      "pruned at once, marked missed")
        let corrected = Fixtures.runs(household(alarms: alarms), from: ahead.state, ["2026-11-21T06:00:00Z"])
        XCTAssertEqual(corrected.state.missedTotal, 0)
        let asleep = Fixtures.runs(household(alarms: alarms), from: corrected.state,
                                   ["2026-11-22T06:00:00Z", "2026-11-23T04:31:00Z", "2026-11-24T04:31:00Z",
                                    "2026-11-25T04:31:00Z", "2026-11-28T04:45:00Z"])
        XCTAssertEqual(asleep.missed, ["alarm.prayer:fajr:2026-11-22", "alarm.prayer:fajr:2026-11-26",
                                       "alarm.prayer:fajr:2026-11-27"])
        XCTAssertEqual(asleep.delivered.filter { !$0.hasPrefix("digest.missed:") },
                       ["alarm.prayer:fajr:2026-11-23", "alarm.prayer:fajr:2026-11-24", "alarm.prayer:fajr:2026-11-25",
                        "alarm.prayer:fajr:2026-11-28"])
        XCTAssertEqual(asleep.delivered.filter { $0.hasPrefix("digest.missed:") }.count, 2,
                       "told once each: the 22nd, then the 26th and the 27th")
        XCTAssertEqual(asleep.state.missedTotal, 3)
        XCTAssertEqual(asleep.state.recentMissed.map(\.id), asleep.missed)
    }

    /// A clock set back judges an occurrence by its instant as the plan holds it: the good-morning message
    /// at 23:50 with quiet hours 23:00–07:00 is moved to 07:00 the next day. Missed under a clock that ran ahead,
    /// it is ahead of a clock corrected to 23:55 on its date only by its moved instant (its own 23:50 has passed);
    /// it is forgotten, rings at 07:00, and leaves the missed count.
    func testAMessageMovedPastMidnightByQuietHoursIsJudgedByItsMovedInstantAfterASetBack() {
        var settings = Fixtures.settings()
        settings.personalized.enabled = true
        settings.personalized.firstName = "Ada"
        settings.personalized.time = Fixtures.time("23:50")
        settings.quietHours = QuietHours(start: Fixtures.time("23:00"), end: Fixtures.time("07:00"))
        let household = Household(settings: settings)
        let ahead = Fixtures.runs(household, from: Fixtures.state(lastRun: "2026-11-22T20:00:00Z"),
                                  ["2026-11-25T12:00:00Z"])
        let ofThe22nd = ahead.missed.filter { $0.hasSuffix(":2026-11-22") }
        XCTAssertEqual(ofThe22nd.count, 1)
        XCTAssertEqual(ahead.state.missedTotal, 2, "the 22nd and the 23rd; the 24th is delivered late")
        let corrected = Fixtures.runs(household, from: ahead.state,
                                      ["2026-11-22T22:55:00Z", "2026-11-23T06:01:00Z", "2026-11-24T06:01:00Z",
                                       "2026-11-25T06:01:00Z"])
        XCTAssertEqual(corrected.missed, [])
        XCTAssertEqual(corrected.delivered,
                       [ofThe22nd[0], ofThe22nd[0].replacingOccurrences(of: "2026-11-22", with: "2026-11-23")])
        XCTAssertEqual(corrected.state.missedTotal, 0)
    }

    /// A state.json from before settled dates were marked missed (every date `@`) is read without
    /// guessing: a clock set back forgets those dates without touching the count, and the count comes right when
    /// they ring, since they are still on the missed list (delivered, they leave the list and the
    /// count). It never goes below zero on the way.
    func testAnOlderStateWithoutMissedMarksHealsItsCountWhenTheForgottenDatesRing() throws {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]  // 04:30Z, expires 05:00Z
        let ahead = Fixtures.runs(household(alarms: alarms), from: Fixtures.state(lastRun: "2026-11-21T05:00:00Z"),
                                  ["2026-11-25T06:00:00Z"])
        XCTAssertEqual(ahead.state.missedTotal, 4)
        var text = String(decoding: ahead.state.fileContent, as: UTF8.self)
        XCTAssertTrue(text.contains("2026-11-22!04:30 2026-11-23!04:30"), "the 22nd and 23rd pruned at once")
        text = text.replacingOccurrences(of: "2026-11-22!04:30 2026-11-23!04:30",
                                         with: "2026-11-22@04:30 2026-11-23@04:30")
        let older = try RunState.decode(Array(text.utf8))
        let corrected = Fixtures.runs(household(alarms: alarms), from: older, ["2026-11-21T06:00:00Z"])
        XCTAssertEqual(corrected.state.missedTotal, 2, "only the ledger's two are known to be taken off")
        XCTAssertEqual(corrected.state.recentMissed.map(\.id),
                       ["alarm.prayer:fajr:2026-11-22", "alarm.prayer:fajr:2026-11-23"])
        let rings = Fixtures.runs(household(alarms: alarms), from: corrected.state,
                                  ["2026-11-22T04:31:00Z", "2026-11-23T04:31:00Z", "2026-11-24T04:31:00Z",
                                   "2026-11-25T04:31:00Z"])
        XCTAssertEqual(rings.delivered.count, 4)
        XCTAssertEqual(rings.state.missedTotal, 0)
        XCTAssertEqual(rings.state.recentMissed, [])
    }

    /// The same older state, corrected, and the machine then asleep through the 22nd, the 23rd and the 24th: the
    /// two dates still on the missed list are missed again for real, and `status`'s "Missed in all" counts each
    /// missed occurrence once — three, not five — with each listed once.
    func testAnOccurrenceStillListedAsMissedAndMissedAgainIsCountedOnce() throws {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]  // 04:30Z, expires 05:00Z
        let ahead = Fixtures.runs(household(alarms: alarms), from: Fixtures.state(lastRun: "2026-11-21T05:00:00Z"),
                                  ["2026-11-25T06:00:00Z"])
        let text = String(decoding: ahead.state.fileContent, as: UTF8.self)
            .replacingOccurrences(of: "2026-11-22!04:30 2026-11-23!04:30", with: "2026-11-22@04:30 2026-11-23@04:30")
        let corrected = Fixtures.runs(household(alarms: alarms), from: try RunState.decode(Array(text.utf8)),
                                      ["2026-11-21T06:00:00Z"])
        XCTAssertEqual(corrected.state.missedTotal, 2)
        XCTAssertEqual(corrected.state.recentMissed.map(\.id),
                       ["alarm.prayer:fajr:2026-11-22", "alarm.prayer:fajr:2026-11-23"])
        let asleep = Fixtures.runs(household(alarms: alarms), from: corrected.state, ["2026-11-24T06:00:00Z"])
        XCTAssertEqual(asleep.missed, ["alarm.prayer:fajr:2026-11-22", "alarm.prayer:fajr:2026-11-23",
                                       "alarm.prayer:fajr:2026-11-24"])
        XCTAssertEqual(asleep.state.missedTotal, 3, "the 22nd and the 23rd were counted when first missed")
        XCTAssertEqual(asleep.state.recentMissed.map(\.id), asleep.missed)
    }
}
