import XCTest
@testable import NudgeCore

/// Recording journeys (docs/files.md): a departure silences its instance's leave-time reminder and cancels its
/// snoozes; an arrival closes the open departure with whole minutes from 1 to 600; the arrival check lives
/// while the departure is open.
final class TripRecorderTests: XCTestCase {
    private let berlin = WallClock(zone: Fixtures.berlin)

    private let office = Trip(id: "office", destination: "Office",
                              schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: [.mon, .tue, .wed, .thu, .fri]),
                              bufferMinutes: 10, travelMinutes: 25)

    private func state(lastRun: String = "2026-11-23T06:00:00Z") -> RunState {
        var state = RunState()
        state.lastRunAt = Fixtures.instant(lastRun)
        state.timeZone = "Europe/Berlin"
        return state
    }

    private func depart(at: String, state: inout RunState) -> TripRecorder.DepartureOutcome? {
        try? TripRecorder.depart("office", at: Fixtures.instant(at), trips: [office], settings: Settings(),
                                 state: &state, clock: berlin).get()
    }

    // MARK: - Departing

    func testDepartureBeforeTheReminderRecordsItsLeaveTimeAsDepartedNotMissed() throws {
        var state = state()
        // Mon 23 Nov: arrive 08:45 Berlin (07:45Z), reminder 08:10 (07:10Z); left at 08:00 Berlin.
        let outcome = try XCTUnwrap(depart(at: "2026-11-23T07:00:00Z", state: &state))
        XCTAssertEqual(outcome.silencedReminder?.id, "commute.leave:office:2026-11-23")
        XCTAssertEqual(state.memory.ledger["commute.leave:office:2026-11-23"]?.outcome, .departed)
        XCTAssertEqual(state.departures, [Departure(trip: "office", at: Fixtures.instant("2026-11-23T07:00:00Z"))])

        let household = Household(settings: Fixtures.settings(), trips: [office])
        let result = Planner.plan(household, previous: state, now: Fixtures.instant("2026-11-23T07:11:00Z"),
                                  zone: Fixtures.berlin)
        XCTAssertEqual(result.deliveries.map(\.notification.id), [])
        XCTAssertEqual(result.missed, [])
        XCTAssertFalse(result.plan.pending.contains { $0.id == "commute.leave:office:2026-11-23" })
        XCTAssertEqual(result.plan.pending.first?.id, "commute.arrival:office:20261123T070000Z")
    }

    func testDepartureCancelsAPendingSnoozeOfItsReminder() throws {
        var state = state()
        let reminder = CommuteRule.instance(of: office, arrival: Fixtures.instant("2026-11-23T07:45:00Z"),
                                            arrivalDate: Fixtures.date("2026-11-23"), settings: Settings(),
                                            clock: berlin)
        state.memory.record(reminder, .delivered, at: Fixtures.instant("2026-11-23T07:10:00Z"))
        state.userActions.snoozes = [SnoozeRule.snooze(reminder, minutes: 5,
                                                       now: Fixtures.instant("2026-11-23T07:11:00Z"), existing: [])]
        let outcome = try XCTUnwrap(depart(at: "2026-11-23T07:12:00Z", state: &state))
        XCTAssertNil(outcome.silencedReminder, "a delivered reminder stays delivered")
        XCTAssertEqual(outcome.cancelledSnoozes, 1)
        XCTAssertEqual(state.userActions.snoozes, [])
        XCTAssertEqual(state.memory.ledger[reminder.id]?.outcome, .delivered)
    }

    /// `trip depart --at` days back, for an instance whose leave-time was missed: the departure changes nothing
    /// about the reminder, whether or not runs have pruned its ledger entry into `settledDates` meanwhile. Recorded
    /// again as departed, `trip depart` would say "… will not come" of a reminder missed days ago, and the next
    /// pruning would keep "departed" instead of the missed mark.
    func testADepartureLongAfterAMissedLeaveTimeLeavesItMissedBeforeAndAfterPruning() throws {
        let household = Household(settings: Fixtures.settings(), trips: [office])
        // Mon 23 Nov: the reminder at 07:10Z is missed while the machine sleeps until 09:00Z.
        let missed = Fixtures.runs(household, from: state(), ["2026-11-23T09:00:00Z"])
        XCTAssertEqual(missed.missed, ["commute.leave:office:2026-11-23"])
        let pruned = Fixtures.runs(household, from: missed.state, ["2026-11-26T09:00:00Z"]).state
        XCTAssertNil(pruned.memory.ledger["commute.leave:office:2026-11-23"])
        for var remembered in [missed.state, pruned] {
            let before = remembered.memory
            let outcome = try XCTUnwrap(depart(at: "2026-11-23T07:00:00Z", state: &remembered))
            XCTAssertNil(outcome.silencedReminder, "nothing to silence: it was missed")
            XCTAssertEqual(remembered.memory, before)
        }
    }

    func testASecondDepartureReplacesTheOpenOne() throws {
        var state = state()
        _ = depart(at: "2026-11-23T06:50:00Z", state: &state)
        let outcome = try XCTUnwrap(depart(at: "2026-11-23T07:00:00Z", state: &state))
        XCTAssertEqual(outcome.replaced?.at, Fixtures.instant("2026-11-23T06:50:00Z"))
        XCTAssertEqual(state.departures.map(\.at), [Fixtures.instant("2026-11-23T07:00:00Z")])
    }

    func testDepartingForAnUnknownTripFailsAndChangesNothing() {
        var state = state()
        let before = state
        let result = TripRecorder.depart("gym", at: Fixtures.instant("2026-11-23T07:00:00Z"), trips: [office],
                                         settings: Settings(), state: &state, clock: berlin)
        XCTAssertEqual(result, .failure(.unknownTrip("gym", known: ["office"])))
        XCTAssertEqual(state, before)
    }

    // MARK: - Arriving

    func testArrivalRoundsToWholeMinutes() throws {
        var state = state()
        _ = depart(at: "2026-11-23T07:00:00Z", state: &state)
        let arrival = try TripRecorder.arrival("office", at: Fixtures.instant("2026-11-23T07:31:30Z"), trips: [office],
                                               state: state).get()
        XCTAssertEqual(arrival.minutes, 32)
        XCTAssertEqual(arrival.departure.at, Fixtures.instant("2026-11-23T07:00:00Z"))
        let shorter = try TripRecorder.arrival("office", at: Fixtures.instant("2026-11-23T07:31:29Z"),
                                               trips: [office], state: state).get()
        XCTAssertEqual(shorter.minutes, 31)
    }

    func testArrivalWithoutDepartureFailsWithTheHintToLog() {
        let result = TripRecorder.arrival("office", at: Fixtures.instant("2026-11-23T07:30:00Z"), trips: [office],
                                          state: state())
        XCTAssertEqual(result.map(\.minutes), .failure(.noOpenDeparture(trip: "office")))
        XCTAssertTrue(TripRecorder.Failure.noOpenDeparture(trip: "office").description
            .contains("nudge trip log office MINUTES"))
    }

    func testArrivalTwentyHoursLaterIsRefused() {
        var state = state()
        _ = depart(at: "2026-11-23T07:00:00Z", state: &state)
        let result = TripRecorder.arrival("office", at: Fixtures.instant("2026-11-24T03:00:00Z"), trips: [office],
                                          state: state)
        XCTAssertEqual(result.map(\.minutes), .failure(.minutesOutOfRange(trip: "office", minutes: 1200)))
    }

    func testArrivalWithinTheSameMinuteIsRefused() {
        var state = state()
        _ = depart(at: "2026-11-23T07:00:00Z", state: &state)
        let result = TripRecorder.arrival("office", at: Fixtures.instant("2026-11-23T07:00:20Z"), trips: [office],
                                          state: state)
        XCTAssertEqual(result.map(\.minutes), .failure(.minutesOutOfRange(trip: "office", minutes: 0)))
    }

    func testArrivalBeforeTheDepartureHasNoOpenDeparture() {
        var state = state()
        _ = depart(at: "2026-11-23T07:00:00Z", state: &state)
        let result = TripRecorder.arrival("office", at: Fixtures.instant("2026-11-23T06:30:00Z"), trips: [office],
                                          state: state)
        XCTAssertEqual(result.map(\.minutes), .failure(.noOpenDeparture(trip: "office")))
    }

    // MARK: - The arrival check

    func testArrivalCheckFiresAtDeparturePlusPredictedTravelAndExpiresThreeHoursAfterDeparture() {
        let departure = Departure(trip: "office", at: Fixtures.instant("2026-11-23T07:00:00Z"))
        let check = ArrivalCheckRule.check(for: departure, trip: office, settings: Settings(), clock: berlin)
        XCTAssertEqual(check.id, "commute.arrival:office:20261123T070000Z")
        XCTAssertEqual(check.kind, .arrival)
        XCTAssertEqual(check.source, "office")
        XCTAssertEqual(check.fireAt, Fixtures.instant("2026-11-23T07:25:00Z"))
        XCTAssertEqual(check.expiresAt, Fixtures.instant("2026-11-23T10:00:00Z"))
        XCTAssertEqual(check.title, "Arrived at Office?")
        XCTAssertEqual(check.body, "Tap when you get there: it teaches nudge your travel time.")
        XCTAssertEqual(check.priority, .medium)
        XCTAssertEqual(check.category, "ARRIVAL_CHECK")
        XCTAssertEqual(check.actions, ["ARRIVED"])
    }

    func testClosedDepartureLeavesThePlanAndOldDeparturesArePruned() {
        var state = state()
        _ = depart(at: "2026-11-23T07:00:00Z", state: &state)
        let household = Household(settings: Fixtures.settings(), trips: [office])
        var result = Planner.plan(household, previous: state, now: Fixtures.instant("2026-11-23T07:05:00Z"),
                                  zone: Fixtures.berlin)
        XCTAssertTrue(result.plan.pending.contains { $0.kind == .arrival })
        result.state.departures = []
        result = Planner.plan(household, previous: result.state, now: Fixtures.instant("2026-11-23T07:06:00Z"),
                              zone: Fixtures.berlin)
        XCTAssertFalse(result.plan.pending.contains { $0.kind == .arrival })

        _ = depart(at: "2026-11-23T07:00:00Z", state: &state)
        result = Planner.plan(household, previous: state, now: Fixtures.instant("2026-11-23T19:00:00Z"),
                              zone: Fixtures.berlin)
        XCTAssertEqual(result.state.departures, [], "12 hours after the departure it is no longer open")
    }

    func testLeaveTimeOffersLeavingNowThenSnooze() {
        let reminder = CommuteRule.instance(of: office, arrival: Fixtures.instant("2026-11-23T07:45:00Z"),
                                            arrivalDate: Fixtures.date("2026-11-23"), settings: Settings(),
                                            clock: berlin)
        XCTAssertEqual(reminder.actions, ["LEAVING_NOW", "SNOOZE"])
        XCTAssertEqual(NotificationAction.buttons(for: reminder, canPlay: false).map(\.label), ["Leaving now", "Snooze"])
    }

    func testStateKeepsDeparturesAndMilestonesAcrossARoundTrip() throws {
        var state = state()
        state.departures = [Departure(trip: "office", at: Fixtures.instant("2026-11-23T07:00:00Z"))]
        state.milestones = [Milestone(game: "wordle", days: 7, announcedAt: Fixtures.instant("2026-11-23T07:00:00Z")),
                            Milestone(game: "wordle", days: 30, announcedAt: nil)]
        XCTAssertEqual(try RunState.decode(state.fileContent), state)
    }
}
