import XCTest
@testable import NudgeCore

/// What an action does (docs/design.md, "Acting on a delivery"): resolved from values, once per notification.
final class ActionEffectTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)
    private let now = Fixtures.instant("2026-11-21T09:00:00Z")

    private func laundry(stage: LaundryCycle.Stage, cycleID: String = "c-9") -> Household {
        var household = Household()
        household.pets = [Pet(id: "snowy", name: "Snowy",
                              cycle: LaundryCycle(id: cycleID, stage: stage,
                                                  startedAt: Fixtures.instant("2026-11-21T08:00:00Z")))]
        return household
    }

    private func finished(_ kind: NotificationKind, in household: Household) throws -> NudgeCore.Notification {
        let all = LaundryRule.notifications(for: household.pets[0], settings: household.settings, clock: clock)
        return try XCTUnwrap(all.first { $0.kind == kind })
    }

    private func resolve(_ action: NotificationAction, _ notification: NudgeCore.Notification,
                         _ household: Household, state: RunState = RunState()) throws -> ActionResolver.Resolution {
        try ActionResolver.resolve(action, on: notification, household: household, state: state, now: now,
                                   clock: clock)
    }

    func testStartDryerAndMarkFolded() throws {
        let washing = laundry(stage: .wash)
        XCTAssertEqual(try resolve(.complete, finished(.washComplete, in: washing), washing),
                       .apply(.laundry(.start(.dry), pet: "snowy")))
        let drying = laundry(stage: .dry)
        XCTAssertEqual(try resolve(.complete, finished(.dryComplete, in: drying), drying),
                       .apply(.laundry(.fold, pet: "snowy")))
        XCTAssertEqual(try resolve(.complete, finished(.foldReminder, in: drying), drying),
                       .apply(.laundry(.fold, pet: "snowy")))
    }

    func testALateClickNeverTouchesANewerCycle() throws {
        let dryComplete = try finished(.dryComplete, in: laundry(stage: .dry, cycleID: "c-9"))
        guard case .nothing(let reason) = try resolve(.complete, dryComplete, laundry(stage: .wash, cycleID: "c-10"))
        else { return XCTFail("a new load must not be folded") }
        XCTAssertTrue(reason.contains("no longer under way"), reason)
        let washComplete = try finished(.washComplete, in: laundry(stage: .wash))
        guard case .nothing = try resolve(.complete, washComplete, laundry(stage: .dry)) else {
            return XCTFail("a cycle already in the dryer is not restarted")
        }
    }

    /// Every action applies once per notification, but snoozing: a second snooze moves the one snooze
    /// (docs/promises.md, one snooze per notification).
    func testAnActionAppliesOncePerNotificationAndASecondSnoozeMovesTheFirst() throws {
        let household = laundry(stage: .wash)
        let notification = try finished(.washComplete, in: household)
        var state = RunState()
        state.recordAction(.snoozeAction, on: notification.id, now: now)
        XCTAssertEqual(try resolve(.snoozeAction, notification, household, state: state), .apply(.snooze(minutes: 10)))
        XCTAssertEqual(try resolve(.complete, notification, household, state: state),
                       .apply(.laundry(.start(.dry), pet: "snowy")), "another action of it still applies")
        state.recordAction(.complete, on: notification.id, now: now)
        guard case .nothing(let reason) = try resolve(.complete, notification, household, state: state) else {
            return XCTFail("an action applied already changes nothing")
        }
        XCTAssertTrue(reason.contains("already applied"), reason)
    }

    func testSnoozeMinutesFollowTheSettings() throws {
        var household = Household(alarms: [Fixtures.alarm()])
        household.settings.alarms.snoozeMinutes = 7
        let alarm = try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                                       settings: household.settings, clock: clock))
        XCTAssertEqual(try resolve(.snooze, alarm, household), .apply(.snooze(minutes: 7)))
        let wash = try finished(.washComplete, in: laundry(stage: .wash))
        XCTAssertEqual(try resolve(.snoozeAction, wash, laundry(stage: .wash)), .apply(.snooze(minutes: 10)))
    }

    func testStartTimerPlansOneTimerPerAlarmOccurrence() throws {
        let household = Household(alarms: [Fixtures.alarm()])
        let alarm = try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                                       settings: household.settings, clock: clock))
        guard case .apply(.startTimer(let timer)) = try resolve(.startTimer, alarm, household) else {
            return XCTFail("no timer")
        }
        XCTAssertEqual(timer.id, "alarm.timerDone:fajr:2026-11-21")
        XCTAssertEqual(timer.kind, .timerDone)
        XCTAssertEqual(timer.fireAt, Fixtures.instant("2026-11-21T09:15:00Z"))
        XCTAssertEqual(timer.expiresAt, Fixtures.instant("2026-11-21T09:45:00Z"))
        XCTAssertEqual(timer.priority, .critical)
        XCTAssertEqual(timer.category, "PRAYER_TIMER")
        XCTAssertEqual(timer.actions, [])
        XCTAssertEqual(timer.deepLink, "nudge://alarm/fajr")
        XCTAssertEqual([timer.title, timer.body], ["Morning Prayer complete", "Your 15 minutes are up."])

        var state = RunState()
        state.userActions.timers = [timer]
        var snoozed = alarm
        snoozed.id += ":snooze-1"
        guard case .nothing = try resolve(.startTimer, snoozed, household, state: state) else {
            return XCTFail("the snooze of the same alarm occurrence has the same timer")
        }
    }

    /// A prayer's timer is started once, whatever became of it: rung, or missed while the machine slept. Three days
    /// later runs have pruned both ledger entries (the timer's date is kept in `deliveredDates` or `settledDates`)
    /// and the action applied; a clock then set back to within two days of the prayer's expiry lets `act` reach the
    /// prayer again. START_TIMER must then say "Nothing to do" both ways: a timer started for a date already
    /// settled would be dropped by every run (its date is handled), so "Timer started" would promise a timer
    /// that never rings.
    func testStartTimerAfterItsTimerWasPrunedIsNothingToDoWhetherItRangOrWasMissed() throws {
        let household = Household(settings: Fixtures.settings(), alarms: [Fixtures.alarm()])
        for (timerRang, wokeAt) in [(true, "2026-11-21T04:46:00Z"), (false, "2026-11-21T06:00:00Z")] {
            let first = Planner.plan(household, previous: Fixtures.state(lastRun: "2026-11-21T04:29:00Z"),
                                     now: Fixtures.instant("2026-11-21T04:30:00Z"), zone: Fixtures.berlin)
            var state = first.state
            let prayer = try XCTUnwrap(first.deliveries.first?.notification)
            let startedAt = Fixtures.instant("2026-11-21T04:31:00Z")
            let started = try ActionResolver.resolve(.startTimer, on: prayer, household: household, state: state,
                                                     now: startedAt, clock: clock)
            guard case .apply(.startTimer(let timer)) = started else { return XCTFail("\(started)") }
            state.userActions.timers.append(timer)
            state.recordAction(.startTimer, on: prayer.id, now: startedAt)
            let later = Fixtures.runs(household, from: state, [wokeAt, "2026-11-24T06:00:00Z"])
            XCTAssertEqual(later.delivered.contains(timer.id), timerRang)
            XCTAssertEqual(later.missed.contains(timer.id), !timerRang)
            XCTAssertNil(later.state.memory.ledger[timer.id], "pruned")
            XCTAssertEqual(later.state.userActions.timers, [])

            let setBack = Fixtures.instant("2026-11-22T12:00:00Z")
            let again = try ActionResolver.resolve(.startTimer, on: prayer, household: household, state: later.state,
                                                   now: setBack, clock: clock)
            XCTAssertEqual(again, .nothing("the timer of \(prayer.id) was started already: nothing changed"),
                           "timer rang: \(timerRang)")
            // Why it must: a second timer of that date, started now, would never ring.
            var acted = later.state
            let second = PrayerTimerRule.timer(for: Fixtures.alarm(), date: "2026-11-21", now: setBack,
                                               settings: household.settings)
            acted.userActions.timers.append(second)
            let atItsTime = Planner.plan(household, previous: acted, now: second.fireAt, zone: Fixtures.berlin)
            XCTAssertFalse(atItsTime.deliveries.contains { $0.notification.id == second.id }, "its date is handled")
        }
    }

    func testMarkPlayedAndPlayNowTakeTheGamesStillAtRisk() throws {
        var household = Household()
        household.streaks = StreakData(
            games: [Game(id: "wordle", name: "Wordle", streak: 12, url: "https://example.org/wordle"),
                    Game(id: "mini", name: "Mini", streak: 4)],
            plays: [], achievements: [], imports: [])
        let reminder = try XCTUnwrap(StreakRule.reminder(on: Fixtures.date("2026-11-21"), at: Fixtures.time("19:00"),
                                                         data: household.streaks, settings: household.settings,
                                                         clock: clock))
        XCTAssertEqual(try resolve(.markPlayed, reminder, household), .apply(.recordPlays(["wordle", "mini"])))
        XCTAssertEqual(try resolve(.playNow, reminder, household), .apply(.open(url: "https://example.org/wordle")))
        household.streaks.plays = [Play(game: "wordle", at: Fixtures.instant("2026-11-21T08:00:00Z"))]
        XCTAssertEqual(try resolve(.markPlayed, reminder, household), .apply(.recordPlays(["mini"])))
        XCTAssertThrowsError(try resolve(.playNow, reminder, household), "Mini has no url") { error in
            XCTAssertTrue("\(error)".contains("Mini has no \"url\""), "\(error)")
        }
    }

    func testMarkPlayedTakesADerivedStreakAtRiskAndNotADerivedZero() throws {
        var household = Household()
        household.streaks = StreakData(
            games: [Game(id: "wordle", name: "Wordle"), Game(id: "mini", name: "Mini")],
            plays: [Play(game: "wordle", at: Fixtures.instant("2026-11-20T19:00:00Z")),
                    Play(game: "mini", at: Fixtures.instant("2026-11-19T19:00:00Z"))])
        let reminder = try XCTUnwrap(StreakRule.reminder(on: Fixtures.date("2026-11-21"), at: Fixtures.time("19:00"),
                                                         data: household.streaks, settings: household.settings,
                                                         clock: clock))
        XCTAssertEqual(reminder.body, "Don't lose your 1-day Wordle streak!")
        XCTAssertEqual(try resolve(.markPlayed, reminder, household), .apply(.recordPlays(["wordle"])))
        household.streaks.plays.append(Play(game: "wordle", at: Fixtures.instant("2026-11-21T08:30:00Z")))
        guard case .nothing = try resolve(.markPlayed, reminder, household) else {
            return XCTFail("Wordle was played on the 21st; Mini's streak was lost on the 20th")
        }
    }

    /// PLAY_NOW once every game was played that day opens nothing; START_TIMER of an alarm gone from alarms.json
    /// is refused.
    func testPlayNowWithNothingAtRiskAndStartTimerOfARemovedAlarm() throws {
        var household = Household()
        household.streaks = StreakData(games: [Game(id: "wordle", name: "Wordle", streak: 3,
                                                    url: "https://example.org/wordle")],
                                       plays: [], achievements: [], imports: [])
        let reminder = try XCTUnwrap(StreakRule.reminder(on: Fixtures.date("2026-11-21"), at: Fixtures.time("19:00"),
                                                         data: household.streaks, settings: household.settings,
                                                         clock: clock))
        household.streaks.plays = [Play(game: "wordle", at: Fixtures.instant("2026-11-21T08:00:00Z"))]
        XCTAssertEqual(try resolve(.playNow, reminder, household),
                       .nothing("no game is at risk on 2026-11-21 any more: nothing to open"))

        let alarm = try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                                       settings: household.settings, clock: clock))
        XCTAssertThrowsError(try resolve(.startTimer, alarm, Household())) { error in
            XCTAssertEqual("\(error)", "alarms.json: unknown alarm \"fajr\"")
        }
    }

    /// LEAVING_NOW and ARRIVED record the trip's departure and arrival at the click.
    func testLeavingNowAndArrivedNameTheTrip() throws {
        let office = Trip(id: "office", destination: "Office",
                          schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: [.mon]), travelMinutes: 25)
        let household = Household(settings: Fixtures.settings(), trips: [office])
        let leave = CommuteRule.instance(of: office, arrival: Fixtures.instant("2026-11-23T07:45:00Z"),
                                         arrivalDate: Fixtures.date("2026-11-23"), settings: household.settings,
                                         clock: clock)
        XCTAssertEqual(try resolve(.leavingNow, leave, household), .apply(.depart(trip: "office")))
        let departure = Departure(trip: "office", at: Fixtures.instant("2026-11-23T07:08:00Z"))
        let check = ArrivalCheckRule.check(for: departure, trip: office, settings: household.settings, clock: clock)
        var state = RunState()
        state.departures = [departure]
        XCTAssertEqual(try resolve(.arrived, check, household, state: state), .apply(.arrive(trip: "office")))
        guard case .nothing = try resolve(.arrived, check, household) else {
            return XCTFail("an arrival whose departure is closed changes nothing")
        }
    }

    func testAnActionTheNotificationDoesNotOfferIsRefused() throws {
        let household = laundry(stage: .wash)
        let wash = try finished(.washComplete, in: household)
        XCTAssertThrowsError(try resolve(.startTimer, wash, household)) { error in
            XCTAssertEqual("\(error)", "laundry.washComplete:snowy:c-9 does not offer START_TIMER (offers: "
                + "COMPLETE_ACTION, SNOOZE_ACTION)")
        }
    }

    func testRemindTomorrowCancelsSnoozesAndKeepsTodaysReminderAway() throws {
        var household = Household()
        household.streaks = StreakData(games: [Game(id: "wordle", name: "Wordle", streak: 3)], plays: [],
                                       achievements: [], imports: [])
        let yesterday = try XCTUnwrap(StreakRule.reminder(on: Fixtures.date("2026-11-20"), at: Fixtures.time("19:00"),
                                                          data: household.streaks, settings: household.settings,
                                                          clock: clock))
        var state = RunState()
        state.userActions.snoozes = [SnoozeRule.snooze(yesterday, minutes: 10, now: now, existing: [])]
        let today = ActionResolver.todaysStreakReminder(household: household, state: state, now: now, clock: clock)
        XCTAssertEqual(today?.id, "streak.reminder:streaks:2026-11-21")
        XCTAssertEqual(state.remindTomorrow(today: today, now: now), 1)
        XCTAssertEqual(state.userActions.snoozes, [])
        XCTAssertEqual(state.memory.ledger["streak.reminder:streaks:2026-11-21"]?.outcome, .suppressed)
        let result = Planner.plan(household, previous: state, now: Fixtures.instant("2026-11-21T18:30:00Z"),
                                  zone: Fixtures.berlin)
        XCTAssertFalse(result.plan.pending.contains { $0.id == "streak.reminder:streaks:2026-11-21" })
        XCTAssertTrue(result.plan.pending.contains { $0.id == "streak.reminder:streaks:2026-11-22" })
    }
}
