import XCTest
@testable import NudgeCore

/// Clock steps onto and around a settled occurrence's instant, with and without a zone change (docs/promises.md,
/// exactly once), run through `Planner.plan` with literal instants and zones.
final class PlannerClockStepTests: XCTestCase {
    private let berlin = Fixtures.berlin

    private func household(alarms: [Alarm]) -> Household {
        Household(settings: Fixtures.settings(), pets: [], alarms: alarms)
    }

    private func state(lastRun: String, zone: String = "Europe/Berlin") -> RunState {
        Fixtures.state(lastRun: lastRun, zone: zone)
    }

    /// Set back exactly onto a missed instant: the ledger and the settled dates keep an occurrence whose fireAt is
    /// not ahead of the corrected clock, so it neither rings nor is missed again.
    func testAClockSetBackExactlyOntoAMissedInstantKeepsItMissedAndReopensOnlyLaterDates() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]  // 04:30Z
        let ahead = Planner.plan(household(alarms: alarms), previous: state(lastRun: "2026-11-21T05:00:00Z"),
                                 now: Fixtures.instant("2026-12-01T05:00:00Z"), zone: berlin)
        XCTAssertTrue(ahead.state.memory.settledDates.contains(id: "alarm.prayer:fajr:2026-11-22"))
        let back = Planner.plan(household(alarms: alarms), previous: ahead.state,
                                now: Fixtures.instant("2026-11-22T04:30:00Z"), zone: berlin)
        XCTAssertTrue(back.state.memory.settledDates.contains(id: "alarm.prayer:fajr:2026-11-22"),
                      "fireAt == now stays")
        XCTAssertFalse(back.state.memory.settledDates.contains(id: "alarm.prayer:fajr:2026-11-23"))
        XCTAssertEqual(back.deliveries, [])
        XCTAssertEqual(back.missed, [])
        XCTAssertEqual(back.plan.pending.map(\.id), ["alarm.prayer:fajr:2026-11-23"])
        let later = Planner.plan(household(alarms: alarms), previous: back.state,
                                 now: Fixtures.instant("2026-11-22T04:31:00Z"), zone: berlin)
        XCTAssertEqual(later.deliveries, [])
        XCTAssertEqual(later.missed, [])
        let nextDay = Planner.plan(household(alarms: alarms), previous: later.state,
                                   now: Fixtures.instant("2026-11-23T04:31:00Z"), zone: berlin)
        XCTAssertEqual(nextDay.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-23"])
    }

    /// Set back to a moment after an occurrence's fireAt but before the run that recorded it missed: its fireAt
    /// is not ahead of the corrected clock, so it stays missed (docs/promises.md) although it has not expired yet.
    func testAClockSetBackBetweenAMissedInstantAndItsRecordingKeepsItMissed() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]  // 04:30Z, expires 05:00Z
        let ahead = Planner.plan(household(alarms: alarms), previous: state(lastRun: "2026-11-22T04:00:00Z"),
                                 now: Fixtures.instant("2026-11-22T06:00:00Z"), zone: berlin)
        XCTAssertEqual(ahead.missed.map(\.id), ["alarm.prayer:fajr:2026-11-22"])
        let back = Planner.plan(household(alarms: alarms), previous: ahead.state,
                                now: Fixtures.instant("2026-11-22T04:45:00Z"), zone: berlin)
        XCTAssertEqual(back.state.memory.ledger["alarm.prayer:fajr:2026-11-22"]?.outcome, .missed)
        XCTAssertEqual(back.deliveries, [])
        XCTAssertEqual(back.state.missedTotal, 1, "counted once")
    }

    /// A date missed in Tokyo and pruned stays settled in New York after a clock set back between its Tokyo
    /// instant and its New York one: one per local date (docs/travelling.md), as its ledger entry would have kept it.
    func testADateSettledInOneZoneStaysSettledInAnotherAfterASetBackBetweenItsTwoInstants() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]  // Tokyo 20:30Z the day before, New York 10:30Z
        let tokyo = Planner.plan(household(alarms: alarms),
                                 previous: state(lastRun: "2026-11-21T20:00:00Z", zone: "Asia/Tokyo"),
                                 now: Fixtures.instant("2026-11-21T20:01:00Z"), zone: Fixtures.tokyo,
                                 previousZone: Fixtures.tokyo)
        let ahead = Planner.plan(household(alarms: alarms), previous: tokyo.state,
                                 now: Fixtures.instant("2026-11-25T20:00:00Z"), zone: Fixtures.tokyo,
                                 previousZone: Fixtures.tokyo)
        XCTAssertTrue(ahead.state.memory.settledDates.contains(id: "alarm.prayer:fajr:2026-11-22"))
        let newYork = Planner.plan(household(alarms: alarms), previous: ahead.state,
                                   now: Fixtures.instant("2026-11-22T00:00:00Z"), zone: Fixtures.newYork,
                                   previousZone: Fixtures.tokyo)
        XCTAssertTrue(newYork.state.memory.settledDates.contains(id: "alarm.prayer:fajr:2026-11-22"))
        XCTAssertFalse(newYork.state.memory.settledDates.contains(id: "alarm.prayer:fajr:2026-11-23"))
        XCTAssertEqual(newYork.plan.pending.map(\.id), ["alarm.prayer:fajr:2026-11-23"])
        let morning = Planner.plan(household(alarms: alarms), previous: newYork.state,
                                   now: Fixtures.instant("2026-11-22T10:31:00Z"), zone: Fixtures.newYork,
                                   previousZone: Fixtures.newYork)
        XCTAssertEqual(morning.deliveries, [])
        XCTAssertEqual(morning.missed, [])
    }

    /// On the fall-back day the alarm at 02:30 rings at the first 02:30 (00:30Z) and never again that date:
    /// not at the second 02:30 (01:30Z), not after the clock is set back before the first one and runs past
    /// both again.
    func testAFoldDayAlarmRingsOnceAcrossBothOccurrencesAndAClockSetBackBeforeTheFirst() {
        let alarms = [Fixtures.alarm("night", at: "02:30")]
        var previous = state(lastRun: "2026-10-25T00:00:00Z")
        var delivered: [String] = []
        for now in ["2026-10-25T00:31:00Z", "2026-10-25T01:00:00Z", "2026-10-25T01:31:00Z", "2026-10-25T00:20:00Z",
                    "2026-10-25T00:40:00Z", "2026-10-25T01:35:00Z"] {
            let run = Planner.plan(household(alarms: alarms), previous: previous, now: Fixtures.instant(now),
                                   zone: berlin)
            XCTAssertEqual(run.missed, [], now)
            delivered += run.deliveries.map(\.notification.id)
            previous = run.state
        }
        XCTAssertEqual(delivered, ["alarm.prayer:night:2026-10-25"])
    }

    /// A run killed before saving leaves state.json as it was: the next run starts from the same state and
    /// decides exactly as the killed one would have (no half-applied forget).
    func testARunKilledBeforeSavingChangesNothingForTheNextRun() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]
        let ahead = Planner.plan(household(alarms: alarms), previous: state(lastRun: "2026-11-21T05:00:00Z"),
                                 now: Fixtures.instant("2026-11-25T05:00:00Z"), zone: berlin)
        let killed = Planner.plan(household(alarms: alarms), previous: ahead.state,
                                  now: Fixtures.instant("2026-11-21T05:01:00Z"), zone: berlin)
        let retried = Planner.plan(household(alarms: alarms), previous: ahead.state,
                                   now: Fixtures.instant("2026-11-21T05:02:00Z"), zone: berlin)
        XCTAssertEqual(killed.state.memory.ledger.keys.sorted(), retried.state.memory.ledger.keys.sorted())
        XCTAssertEqual(killed.state.memory.settledDates, retried.state.memory.settledDates)
        XCTAssertEqual(retried.plan.pending.map(\.id), ["alarm.prayer:fajr:2026-11-22"])
        let rings = Planner.plan(household(alarms: alarms), previous: retried.state,
                                 now: Fixtures.instant("2026-11-22T04:31:00Z"), zone: berlin)
        XCTAssertEqual(rings.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-22"])
    }

    /// Two steps back: the first keeps what its clock already passed, the second reopens from there on; each
    /// reopened date rings once at its time, the others stay silent.
    func testASecondStepBackReopensWhatTheFirstKeptAndEachDateRingsOnce() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]  // 04:30Z
        var current = Planner.plan(household(alarms: alarms), previous: state(lastRun: "2026-11-21T05:00:00Z"),
                                   now: Fixtures.instant("2026-12-01T05:00:00Z"), zone: berlin).state
        var delivered: [String] = []
        var pending: [[String]] = []
        for now in ["2026-11-25T05:00:00Z", "2026-11-23T05:00:00Z", "2026-11-24T04:31:00Z", "2026-11-25T04:31:00Z",
                    "2026-11-25T05:10:00Z"] {
            let run = Planner.plan(household(alarms: alarms), previous: current, now: Fixtures.instant(now),
                                   zone: berlin)
            XCTAssertEqual(run.missed, [], now)
            delivered += run.deliveries.map(\.notification.id)
            pending.append(run.plan.pending.map(\.id))
            current = run.state
        }
        XCTAssertEqual(pending[0], ["alarm.prayer:fajr:2026-11-26"], "the 22nd to the 25th stay missed")
        XCTAssertEqual(pending[1], ["alarm.prayer:fajr:2026-11-24"], "the 24th and 25th are ahead again")
        XCTAssertEqual(delivered, ["alarm.prayer:fajr:2026-11-24", "alarm.prayer:fajr:2026-11-25"])
    }

    /// On the spring-forward day 02:30 does not exist and rings at 03:00 (01:00Z), once, also after a clock set
    /// back before the gap that runs through it again.
    func testAGapDayAlarmRingsOnceAtTheEndOfTheGapAcrossAClockSetBackBeforeIt() {
        let alarms = [Fixtures.alarm("night", at: "02:30")]
        var previous = state(lastRun: "2026-03-29T00:00:00Z")
        var delivered: [(String, Date)] = []
        for now in ["2026-03-29T00:59:00Z", "2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z", "2026-03-29T00:30:00Z",
                    "2026-03-29T01:00:00Z", "2026-03-29T01:45:00Z"] {
            let run = Planner.plan(household(alarms: alarms), previous: previous, now: Fixtures.instant(now),
                                   zone: berlin)
            XCTAssertEqual(run.missed, [], now)
            delivered += run.deliveries.map { ($0.notification.id, $0.notification.fireAt) }
            previous = run.state
        }
        XCTAssertEqual(delivered.map(\.0), ["alarm.prayer:night:2026-03-29"])
        XCTAssertEqual(delivered.first?.1, Fixtures.instant("2026-03-29T01:00:00Z"))
    }

    /// A date delivered in Berlin, its ledger entry long pruned into the delivered dates, never rings again in New
    /// York after the clock is set back a month to before that date's New York instant.
    func testADateDeliveredInOneZoneNeverRingsInAnotherAfterAClockSetBackAMonth() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]
        let rung = Planner.plan(household(alarms: alarms), previous: state(lastRun: "2026-11-22T04:29:00Z"),
                                now: Fixtures.instant("2026-11-22T04:31:00Z"), zone: berlin)
        XCTAssertEqual(rung.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-22"])
        let month = Planner.plan(household(alarms: alarms), previous: rung.state,
                                 now: Fixtures.instant("2026-12-22T12:00:00Z"), zone: berlin)
        XCTAssertNil(month.state.memory.ledger["alarm.prayer:fajr:2026-11-22"])
        let newYork = Planner.plan(household(alarms: alarms), previous: month.state,
                                   now: Fixtures.instant("2026-11-22T05:00:00Z"), zone: Fixtures.newYork,
                                   previousZone: berlin)
        XCTAssertEqual(newYork.plan.pending.first?.id, "alarm.prayer:fajr:2026-11-23")
        let morning = Planner.plan(household(alarms: alarms), previous: newYork.state,
                                   now: Fixtures.instant("2026-11-22T10:31:00Z"), zone: Fixtures.newYork,
                                   previousZone: Fixtures.newYork)
        XCTAssertEqual(morning.deliveries, [])
        XCTAssertEqual(morning.missed, [])
    }

    /// Travel east with a clock that ran 50 minutes ahead, corrected on landing: the last Berlin run at 21:00Z
    /// (22:00 Berlin), the first Tokyo run at 20:10Z (05:10 on the 22nd in Tokyo). Tokyo's 05:00 (20:00Z, expiring
    /// 20:30Z) follows the previous run's wall clock and has not expired: due, although its instant lies before
    /// the Berlin run (docs/promises.md: no due occurrence is lost).
    func testAStepBackOnArrivalEastDoesNotLoseTheAlarmTheNewWallClockPassed() {
        let alarms = [Fixtures.alarm("fajr", at: "05:00")]
        let berlinRun = Planner.plan(household(alarms: alarms), previous: state(lastRun: "2026-11-21T20:40:00Z"),
                                     now: Fixtures.instant("2026-11-21T21:00:00Z"), zone: berlin)
        let tokyo = Planner.plan(household(alarms: alarms), previous: berlinRun.state,
                                 now: Fixtures.instant("2026-11-21T20:10:00Z"), zone: Fixtures.tokyo,
                                 previousZone: berlin)
        XCTAssertEqual(tokyo.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-22"])
        let next = Planner.plan(household(alarms: alarms), previous: tokyo.state,
                                now: Fixtures.instant("2026-11-21T20:11:00Z"), zone: Fixtures.tokyo,
                                previousZone: Fixtures.tokyo)
        XCTAssertEqual(next.deliveries, [], "once")
        XCTAssertEqual(next.missed, [])
    }

    /// Without travel, `DueWindow` alone keeps a daily occurrence from before the previous run
    /// silent, with no record. An alarm added at 05:41 for 05:30 (04:30Z) waits for tomorrow (docs/promises.md);
    /// a clock set back to 05:35, between its time and the previous runs, leaves it waiting (its fireAt is not
    /// ahead of the corrected clock), and nothing of it is recorded. Set back to 05:20 instead, before its
    /// time, it is due at that time (nothing was delivered).
    func testAnAlarmAddedAfterItsTimeStaysSilentAfterASetBackThatDoesNotGoBeforeIt() {
        let before = Fixtures.runs(household(alarms: []), from: Fixtures.state(lastRun: "2026-11-22T04:39:00Z"),
                                   ["2026-11-22T04:40:00Z"])
        let added = Fixtures.runs(household(alarms: [Fixtures.alarm("fajr", at: "05:30")]), from: before.state,
                                  ["2026-11-22T04:41:00Z", "2026-11-22T08:00:00Z"])
        XCTAssertEqual(added.delivered + added.missed, [])
        let between = Fixtures.runs(household(alarms: [Fixtures.alarm("fajr", at: "05:30")]), from: added.state,
                                    ["2026-11-22T04:35:00Z", "2026-11-22T04:36:00Z", "2026-11-22T05:10:00Z"])
        XCTAssertEqual(between.delivered + between.missed, [])
        XCTAssertEqual(between.state.missedTotal, 0)
        let beforeIt = Fixtures.runs(household(alarms: [Fixtures.alarm("fajr", at: "05:30")]), from: added.state,
                                     ["2026-11-22T04:20:00Z", "2026-11-22T04:30:00Z", "2026-11-22T04:31:00Z"])
        XCTAssertEqual(beforeIt.delivered, ["alarm.prayer:fajr:2026-11-22"])
    }

    /// A leave-time already expired when its trip was added (07:00Z, arrival 08:00Z; added at 09:00Z) is passed
    /// over as too old, recorded as seen, and stays so after a clock set back into its window, as a laundry stage
    /// does.
    func testALeaveTimeExpiredWhenItAppearedStaysSilentAfterASetBackIntoItsWindow() {
        let trip = Trip(id: "office", destination: "Office",
                        schedule: .recurring(arriveBy: Fixtures.time("09:00"), weekdays: Weekdays.everyDay),
                        bufferMinutes: 0, travelMinutes: 60)
        let empty = Household(settings: Fixtures.settings())
        let withTrip = Household(settings: Fixtures.settings(), trips: [trip])
        let before = Fixtures.runs(empty, from: state(lastRun: "2026-11-23T08:59:00Z"), ["2026-11-23T09:00:00Z"])
        let added = Fixtures.runs(withTrip, from: before.state, ["2026-11-23T09:01:00Z"])
        XCTAssertEqual(added.delivered + added.missed, [])
        let back = Fixtures.runs(withTrip, from: added.state, ["2026-11-23T07:30:00Z", "2026-11-23T07:31:00Z"])
        XCTAssertEqual(back.delivered + back.missed, [])
    }

    /// Seed 1795178446 of the differential month: a clock set back 19 days into a Monday morning, two data
    /// directories alike but for when they ran inside the excursion (every minute up to 07:45, or last at 07:30),
    /// the clock corrected before that morning's leave-time (07:55) came. The journeys recorded at the later
    /// clock counted once it was corrected, moved the instance to 07:35, and the two directories disagreed on
    /// what had happened to it: seen (after the run at 07:45) or missed (after the run at 07:30). An instance is
    /// now predicted from the journeys before its own arrival, whatever the clock: missed in both.
    func testTheRunsInsideAnExcursionDoNotDecideWhatALeaveTimeOfThatMorningBecomes() {
        let utc = Fixtures.utc
        let journeys = [("2026-03-10T08:00:00Z", 40), ("2026-03-11T08:00:00Z", 40), ("2026-03-12T08:00:00Z", 40),
                        ("2026-04-01T08:00:00Z", 60), ("2026-04-02T08:00:00Z", 60), ("2026-04-03T08:00:00Z", 60)]
        let trip = Trip(id: "office", destination: "Office",
                        schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: Weekdays.everyDay),
                        bufferMinutes: 10, travelMinutes: 25,
                        observations: journeys.map { TravelObservation(departedAt: Fixtures.instant($0.0),
                                                                       minutes: $0.1) })
        var settings = Fixtures.settings(zone: "UTC")
        settings.streaks.enabled = false
        let household = Household(settings: settings, trips: [trip])
        let later = Fixtures.state(lastRun: "2026-04-04T04:00:00Z", zone: "UTC")
        let id = "commute.leave:office:2026-03-16"
        var outcomes: [[String]] = []
        for lastInside in ["2026-03-16T07:45:00Z", "2026-03-16T07:30:00Z"] {
            let runs = Fixtures.runs(household, from: later, previousZone: utc, zone: utc,
                                     ["2026-03-16T04:53:00Z", "2026-03-16T07:30:00Z", lastInside,
                                      "2026-04-04T04:54:00Z"])
            XCTAssertEqual(runs.delivered.filter { $0 == id }, [])
            outcomes.append(runs.missed.filter { $0 == id })
        }
        XCTAssertEqual(outcomes, [[id], [id]])
    }
}
