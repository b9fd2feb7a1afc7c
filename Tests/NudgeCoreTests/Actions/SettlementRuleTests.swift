import XCTest
@testable import NudgeCore

/// Whether a delivered notification is settled (docs/desktop.md, "Handled notifications close"): by any route
/// that applied one of its actions, or because what its main button is about moved on without it.
final class SettlementRuleTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)
    private let now = Fixtures.instant("2026-11-23T07:20:00Z")

    private let office = Trip(id: "office", destination: "Office",
                              schedule: .recurring(arriveBy: Fixtures.time("08:45"),
                                                   weekdays: [.mon, .tue, .wed, .thu, .fri]),
                              bufferMinutes: 10, travelMinutes: 25)

    private func settlement(_ notification: NudgeCore.Notification, _ household: Household, _ state: RunState,
                            forSnoozing: Bool = false) -> Settlement? {
        SettlementRule.settlement(of: notification, household: household, state: state, now: now, clock: clock,
                                  forSnoozing: forSnoozing)
    }

    private func laundry(_ stage: LaundryCycle.Stage?, cycleID: String = "c-9") -> Household {
        Household(pets: [Pet(id: "snowy", name: "Snowy", cycle: stage.map {
            LaundryCycle(id: cycleID, stage: $0, startedAt: Fixtures.instant("2026-11-23T05:00:00Z"))
        })])
    }

    private func stage(_ kind: NotificationKind, of household: Household) throws -> NudgeCore.Notification {
        try XCTUnwrap(LaundryRule.notifications(for: household.pets[0], settings: household.settings, clock: clock)
            .first { $0.kind == kind })
    }

    /// `laundry start snowy dry` (or the same edit by hand) settles "Wash Complete!"; `laundry fold` settles
    /// "Dry Complete!" and its fold reminder, the sibling with the same "Mark Folded".
    func testALaundryStageIsSettledOnceItsCycleMovesOn() throws {
        let washing = laundry(.wash)
        let washComplete = try stage(.washComplete, of: washing)
        XCTAssertNil(settlement(washComplete, washing, RunState()))
        XCTAssertEqual(settlement(washComplete, laundry(.dry), RunState()),
                       .movedOn("Snowy's cycle c-9 is in the dryer already"))
        XCTAssertEqual(settlement(washComplete, laundry(.wash, cycleID: "c-10"), RunState()),
                       .movedOn("Snowy's cycle c-9 is no longer under way"))

        let drying = laundry(.dry)
        let folded = laundry(nil)
        for kind in [NotificationKind.dryComplete, .foldReminder] {
            let notification = try stage(kind, of: drying)
            XCTAssertNil(settlement(notification, drying, RunState()), "\(kind)")
            XCTAssertEqual(settlement(notification, folded, RunState()),
                           .movedOn("Snowy's cycle c-9 is no longer under way"), "\(kind)")
            XCTAssertEqual(settlement(notification, Household(), RunState()),
                           .movedOn("laundry.json has no pet \"snowy\" any more"), "\(kind)")
        }
    }

    /// A typed `nudge trip depart office` settles the day's "Time to Leave", whenever it is typed during the
    /// journey and whatever time it gives with `--at`; a departure of the day before does not, nor does the
    /// journey once recorded for another day.
    func testALeaveTimeIsSettledByADepartureOfItsInstance() throws {
        let household = Household(settings: Fixtures.settings(), trips: [office])
        let leave = CommuteRule.instance(of: office, arrival: Fixtures.instant("2026-11-23T07:45:00Z"),
                                         arrivalDate: Fixtures.date("2026-11-23"), settings: household.settings,
                                         clock: clock)
        var state = RunState()
        XCTAssertNil(settlement(leave, household, state))
        state.departures = [Departure(trip: "office", at: Fixtures.instant("2026-11-20T07:05:00Z"))]
        XCTAssertNil(settlement(leave, household, state), "Friday's departure is not Monday's")
        state.departures = [Departure(trip: "office", at: Fixtures.instant("2026-11-23T07:08:00Z"))]
        XCTAssertEqual(settlement(leave, household, state),
                       .movedOn("you left for Office at 2026-11-23 08:08 already"))
        XCTAssertEqual(settlement(leave, household, state, forSnoozing: true),
                       .movedOn("you left for Office at 2026-11-23 08:08 already"), "LEAVING_NOW settles")

        // Arrived: the departure left state, and the journey is in trips.json.
        var arrived = household
        arrived.trips[0].observations = [TravelObservation(departedAt: Fixtures.instant("2026-11-23T07:08:00Z"),
                                                           minutes: 31)]
        XCTAssertNotNil(settlement(leave, arrived, RunState()))
        XCTAssertEqual(try ActionResolver.resolve(.leavingNow, on: leave, household: arrived, state: RunState(),
                                                  now: now, clock: clock),
                       .nothing("you left for Office at 2026-11-23 08:08 already: nothing changed"))
    }

    func testAnArrivalCheckIsSettledOnceItsDepartureIsClosed() throws {
        let household = Household(settings: Fixtures.settings(), trips: [office])
        let departure = Departure(trip: "office", at: Fixtures.instant("2026-11-23T07:08:00Z"))
        let check = ArrivalCheckRule.check(for: departure, trip: office, settings: household.settings, clock: clock)
        var state = RunState()
        state.departures = [departure]
        XCTAssertNil(settlement(check, household, state))
        state.departures = []
        guard case .movedOn = settlement(check, household, state) else { return XCTFail("the trip arrived") }
    }

    /// A second `nudge trip depart office` replaces the open departure: the first one's "Arrived at Office?" is
    /// settled, and a late "I'm here" on it records nothing (it would measure the journey from the second one).
    func testASecondDepartureSettlesTheFirstArrivalCheck() throws {
        let household = Household(settings: Fixtures.settings(), trips: [office])
        var state = RunState()
        let first = Departure(trip: "office", at: Fixtures.instant("2026-11-23T07:02:00Z"))
        _ = TripRecorder.depart("office", at: first.at, trips: household.trips, settings: household.settings,
                                state: &state, clock: clock)
        let check = ArrivalCheckRule.check(for: first, trip: office, settings: household.settings, clock: clock)
        XCTAssertNil(settlement(check, household, state))
        _ = TripRecorder.depart("office", at: Fixtures.instant("2026-11-23T07:10:00Z"), trips: household.trips,
                                settings: household.settings, state: &state, clock: clock)
        let replaced = "the departure \(check.id) asks about is no longer open (arrived or replaced already)"
        XCTAssertEqual(settlement(check, household, state), .movedOn(replaced))
        XCTAssertEqual(try ActionResolver.resolve(.arrived, on: check, household: household, state: state, now: now,
                                                  clock: clock),
                       .nothing(replaced + ": nothing changed"))
    }

    /// The streak reminder is settled when no game of the day is at risk any more (`nudge play` of the last),
    /// not while one is.
    func testAStreakReminderIsSettledOnceNoGameIsAtRisk() throws {
        var household = Household()
        household.streaks = StreakData(games: [Game(id: "wordle", name: "Wordle", streak: 12),
                                               Game(id: "mini", name: "Mini", streak: 4)],
                                       plays: [], achievements: [], imports: [])
        let reminder = try XCTUnwrap(StreakRule.reminder(on: Fixtures.date("2026-11-23"), at: Fixtures.time("19:00"),
                                                         data: household.streaks, settings: household.settings,
                                                         clock: clock))
        household.streaks.plays = [Play(game: "wordle", at: Fixtures.instant("2026-11-23T08:00:00Z"))]
        XCTAssertNil(settlement(reminder, household, RunState()), "Mini is still at risk")
        household.streaks.plays.append(Play(game: "mini", at: Fixtures.instant("2026-11-23T08:05:00Z")))
        XCTAssertEqual(settlement(reminder, household, RunState()),
                       .movedOn("every game of the reminder has a play on 2026-11-23 already"))
    }

    /// Any action applied to the notification itself settles it on screen — a snooze too — but a snooze asks
    /// only about the settling actions: snoozing again moves the one snooze, and a running prayer timer does not
    /// keep the prayer from being snoozed.
    func testAppliedActionsSettleTheScreenAndOnlySettlingOnesTheSnooze() throws {
        let household = Household(alarms: [Fixtures.alarm()])
        let prayer = try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-23"),
                                                        settings: household.settings, clock: clock))
        var state = RunState()
        XCTAssertNil(settlement(prayer, household, state))
        state.recordAction(.snooze, on: prayer.id, now: now)
        XCTAssertEqual(settlement(prayer, household, state), .action(.snooze, at: now))
        XCTAssertNil(settlement(prayer, household, state, forSnoozing: true))

        state = RunState()
        state.userActions.timers = [PrayerTimerRule.timer(for: Fixtures.alarm(), date: "2026-11-23", now: now,
                                                          settings: household.settings)]
        XCTAssertEqual(settlement(prayer, household, state),
                       .movedOn("the timer of \(prayer.id) was started already"), "started from its snooze")
        XCTAssertNil(settlement(prayer, household, state, forSnoozing: true))
    }

    /// "Leaving now" on the snooze settles the original still on screen, and the other way round.
    func testASettlingActionOnASnoozeSettlesTheOriginal() throws {
        let household = Household(settings: Fixtures.settings(), trips: [office])
        let leave = CommuteRule.instance(of: office, arrival: Fixtures.instant("2026-11-23T07:45:00Z"),
                                         arrivalDate: Fixtures.date("2026-11-23"), settings: household.settings,
                                         clock: clock)
        let snooze = SnoozeRule.snooze(leave, minutes: 5, now: Fixtures.instant("2026-11-23T07:11:00Z"), existing: [])
        var state = RunState()
        state.recordAction(.leavingNow, on: snooze.id, now: now)
        XCTAssertEqual(settlement(leave, household, state), .action(.leavingNow, at: now))
        XCTAssertEqual(try ActionResolver.resolve(.snooze, on: leave, household: household, state: state, now: now,
                                                  clock: clock),
                       .nothing("\"Time to Leave\" was settled by LEAVING_NOW at 2026-11-23 08:20: it is not snoozed"))
    }
}
