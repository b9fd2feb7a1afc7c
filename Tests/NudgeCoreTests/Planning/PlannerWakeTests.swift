import XCTest
@testable import NudgeCore

/// `nextWakeAt` is a complete schedule (docs/promises.md, "Woken only when something is due"): each cause of a
/// wake, with a literal `now` and zone.
final class PlannerWakeTests: XCTestCase {
    private let berlin = Fixtures.berlin

    private func settings(_ change: (inout Settings) -> Void = { _ in }) -> Settings {
        var settings = Fixtures.settings()
        change(&settings)
        return settings
    }

    private func plan(_ household: Household, lastRun: String, now: String, zone: Zone? = nil,
                      state: (inout RunState) -> Void = { _ in }) -> PlanResult {
        let zone = zone ?? berlin
        var previous = Fixtures.state(lastRun: lastRun, zone: zone.identifier)
        state(&previous)
        return Planner.plan(household, previous: previous, now: Fixtures.instant(now), zone: zone)
    }

    func testARecordTheBudgetDeferredWakesAtItsFireAt() {
        // One slot: the critical 12:00 alarm holds it; the low 07:10 message is deferred, and still delivered.
        let household = Household(settings: settings {
            $0.maxPending = 1
            $0.personalized.enabled = true
            $0.personalized.firstName = "Sam"
            $0.personalized.time = Fixtures.time("07:10")
        }, alarms: [Fixtures.alarm("dhuhr", at: "12:00")])
        let result = plan(household, lastRun: "2026-11-21T05:59:00Z", now: "2026-11-21T06:00:00Z")
        XCTAssertEqual(result.plan.pending.map(\.id), ["alarm.prayer:dhuhr:2026-11-21"])
        XCTAssertEqual(result.plan.deferred.map(\.id), ["daily.personalized:personalized:2026-11-21"])
        XCTAssertEqual(result.plan.nextWakeAt, Fixtures.instant("2026-11-21T06:10:00Z"))   // 07:10 CET
    }

    func testARecordInsideQuietHoursWakesWhenTheyEnd() {
        // The 23:00 message falls in quiet hours (22:00-07:00) and rings at 07:00 the next morning.
        let household = Household(settings: settings {
            $0.quietHours = QuietHours(start: Fixtures.time("22:00"), end: Fixtures.time("07:00"))
            $0.personalized.enabled = true
            $0.personalized.firstName = "Sam"
            $0.personalized.time = Fixtures.time("23:00")
        })
        let result = plan(household, lastRun: "2026-11-21T21:29:00Z", now: "2026-11-21T21:30:00Z")
        XCTAssertEqual(result.plan.nextWakeAt, Fixtures.instant("2026-11-22T06:00:00Z"))   // 07:00 CET
    }

    func testASnoozeWakesAtItsTime() throws {
        let household = Household(settings: settings(), alarms: [Fixtures.alarm("fajr", at: "05:30")])
        let rung = plan(household, lastRun: "2026-11-21T04:29:00Z", now: "2026-11-21T04:30:00Z")
        let delivered = try XCTUnwrap(rung.deliveries.first?.notification)
        var state = rung.state
        state.userActions.snoozes = [SnoozeRule.snooze(delivered, minutes: 10,
                                                       now: Fixtures.instant("2026-11-21T04:31:00Z"), existing: [])]
        let result = Planner.plan(household, previous: state, now: Fixtures.instant("2026-11-21T04:31:00Z"),
                                  zone: berlin)
        // The next alarm is tomorrow's; the snooze rings first.
        XCTAssertEqual(result.plan.nextWakeAt, Fixtures.instant("2026-11-21T04:41:00Z"))
    }

    func testAPrayerTheSunSkipsBeyondTheDaysPlannedWakesWhenTheFirstDayBeyondThemStarts() {
        // Tromsø at midsummer: the sun does not set, so isha has no time until late July. Nothing is planned; the
        // next run must come when the days looked at move on, at the start of the ninth day ahead.
        let oslo = Fixtures.zone("Europe/Oslo")
        var prayerTimes = PrayerSettings(latitude: 69.65, longitude: 18.96)
        prayerTimes.polar = PolarResolution.none
        let household = Household(settings: settings {
            $0.timeZone = "Europe/Oslo"
            $0.prayerTimes = prayerTimes
        }, alarms: [Alarm(id: "isha", title: "Isha", schedule: .prayer(.isha, offsetMinutes: 0))])
        let result = plan(household, lastRun: "2026-06-21T09:59:00Z", now: "2026-06-21T10:00:00Z", zone: oslo)
        XCTAssertEqual(result.plan.pending, [])
        XCTAssertEqual(result.plan.nextWakeAt, Fixtures.instant("2026-06-29T22:00:00Z"))   // 30 June 00:00 CEST
    }

    func testTheNextDaysPrayerIsTheWakeAfterTodaysHasRung() {
        // Berlin, after isha: tomorrow's fajr, computed from the sun, is the next wake.
        var prayerTimes = PrayerSettings(latitude: 52.52, longitude: 13.405)
        prayerTimes.polar = PolarResolution.none
        let fajr = Alarm(id: "fajr", title: "Fajr", schedule: .prayer(.fajr, offsetMinutes: 0))
        let household = Household(settings: settings { $0.prayerTimes = prayerTimes }, alarms: [fajr])
        let result = plan(household, lastRun: "2026-11-21T20:59:00Z", now: "2026-11-21T21:00:00Z")
        XCTAssertEqual(result.plan.pending.map(\.id), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(result.plan.nextWakeAt, result.plan.pending.first?.fireAt)
        XCTAssertGreaterThan(result.plan.nextWakeAt ?? .distantPast, Fixtures.instant("2026-11-22T03:00:00Z"))
    }

    func testOnTheSpringForwardDayAnAlarmInTheGapWakesAtTheGapsEnd() {
        // Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST; 02:30 does not exist and rings at 03:00 CEST.
        let household = Household(settings: settings(), alarms: [Fixtures.alarm("night", at: "02:30")])
        let result = plan(household, lastRun: "2026-03-28T23:29:00Z", now: "2026-03-28T23:30:00Z")
        XCTAssertEqual(result.plan.nextWakeAt, Fixtures.instant("2026-03-29T01:00:00Z"))
        // The next day's, after it rang, at 02:30 CEST.
        let after = Planner.plan(household, previous: result.state, now: Fixtures.instant("2026-03-29T01:00:00Z"),
                                 zone: berlin)
        XCTAssertEqual(after.deliveries.map(\.notification.id), ["alarm.prayer:night:2026-03-29"])
        XCTAssertEqual(after.plan.nextWakeAt, Fixtures.instant("2026-03-30T00:30:00Z"))
    }

    func testOnTheFallBackDayAnAlarmInTheRepeatedHourWakesAtItsFirstPass() {
        // Berlin, 25 October 2026: 02:30 happens twice and rings at the first, 02:30 CEST.
        let household = Household(settings: settings(), alarms: [Fixtures.alarm("night", at: "02:30")])
        let result = plan(household, lastRun: "2026-10-24T22:29:00Z", now: "2026-10-24T22:30:00Z")
        XCTAssertEqual(result.plan.nextWakeAt, Fixtures.instant("2026-10-25T00:30:00Z"))
    }

    func testTheLearnedReminderTimeIsLearnedAgainTwoDaysAfterIt() {
        // Learned 46.5 hours ago; today's reminder is settled by today's play, tomorrow's comes after the
        // instant at which the time is learned again (and may move).
        let played = Play(game: "wordle", at: Fixtures.instant("2026-11-21T09:00:00Z"))
        let household = Household(settings: settings { $0.streaks.smart = true },
                                  streaks: StreakData(games: [Game(id: "wordle", name: "Wordle")], plays: [played]))
        let result = plan(household, lastRun: "2026-11-21T19:59:00Z", now: "2026-11-21T20:00:00Z") { state in
            state.smartReminder = SmartReminder(
                result: SmartReminderTime.Result(time: Fixtures.time("18:30"), windowStartHour: 19,
                                                 coveragePercent: 100, playCount: 1),
                computedAt: Fixtures.instant("2026-11-19T21:30:00Z"))
        }
        XCTAssertEqual(result.plan.pending.first?.id, "streak.reminder:streaks:2026-11-22")
        XCTAssertEqual(result.plan.nextWakeAt, Fixtures.instant("2026-11-21T21:30:00Z"))
    }

    /// Seed 1795178446 of the differential month: the 8 weeks of journeys ended at the run's clock, so a
    /// comparable journey leaving them at 07:30 on the instance's own morning left too few similar ones, the
    /// prediction fell back to every journey (two of 300 min) and the leave-time jumped from 08:05 to 03:35,
    /// delivered 3 h 55 min late by every run alike. The 8 weeks now end at the arrival: the leave-time is
    /// 03:35 from the evening before, and runs only at each `nextWakeAt` deliver it at its second.
    func testALeaveTimeRingsOnTimeWhenAJourneyOfItsEightWeeksIsOlderThanTheMorning() {
        let utc = Fixtures.utc
        let journeys = [("2026-09-28T07:30:00Z", 30), ("2026-11-16T07:40:00Z", 30), ("2026-11-18T07:50:00Z", 30),
                        ("2026-11-17T15:00:00Z", 300), ("2026-11-19T15:00:00Z", 300)]
        let trip = Trip(id: "office", destination: "Office",
                        schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: Weekdays.everyDay),
                        bufferMinutes: 10, travelMinutes: 25,
                        observations: journeys.map { TravelObservation(departedAt: Fixtures.instant($0.0),
                                                                       minutes: $0.1) })
        let household = Household(settings: settings { $0.timeZone = "UTC"; $0.streaks.enabled = false },
                                  trips: [trip])
        var state = Fixtures.state(lastRun: "2026-11-22T19:59:00Z", zone: "UTC")
        var now: Date? = Fixtures.instant("2026-11-22T20:00:00Z")
        var delivered: [Delivery] = []
        while let runAt = now, runAt < Fixtures.instant("2026-11-23T09:00:00Z") {
            let run = Planner.plan(household, previous: state, now: runAt, zone: utc, previousZone: utc)
            delivered += run.deliveries
            state = run.state
            now = run.plan.nextWakeAt
        }
        let leave = delivered.first { $0.notification.id == "commute.leave:office:2026-11-23" }
        XCTAssertEqual(leave?.notification.fireAt, Fixtures.instant("2026-11-23T03:35:00Z"))
        XCTAssertEqual(leave?.deliveredAt, Fixtures.instant("2026-11-23T03:35:00Z"))
        XCTAssertEqual(leave?.lateSeconds, 0)
    }

    /// The wakes armed ahead are critical only for what their own run delivers: the 05:10 good-morning message
    /// ten minutes after the 05:00 alarm is a low wake, planned from the state the 05:00 run leaves (the alarm
    /// delivered), so no `WakeSystem=` instant is armed for it (docs/systemd.md).
    func testALowMessageMinutesAfterAnAlarmIsNoCriticalWakeAhead() {
        let household = Household(settings: settings {
            $0.personalized.enabled = true
            $0.personalized.firstName = "Sam"
            $0.personalized.time = Fixtures.time("05:10")
        }, alarms: [Fixtures.alarm("fajr", at: "05:00")])
        let result = plan(household, lastRun: "2026-11-20T23:59:00Z", now: "2026-11-21T00:00:00Z")
        let upcoming = Planner.upcomingWakes(from: result.plan.nextWakeAt, state: result.state,
                                             household: household, zone: berlin, count: 4)
        XCTAssertEqual(upcoming.map { RFC3339.format($0.at) }, ["2026-11-21T04:00:00Z", "2026-11-21T04:10:00Z",
                                                                 "2026-11-22T04:00:00Z", "2026-11-22T04:10:00Z"])
        XCTAssertEqual(upcoming.map(\.isCritical), [true, false, true, false],
                       "the 05:10 run delivers only the low message: the alarm rang at 05:00")
    }

    func testNothingAheadIsNoWake() {
        let result = plan(Household(settings: settings { $0.streaks.enabled = false }),
                          lastRun: "2026-11-21T07:59:00Z", now: "2026-11-21T08:00:00Z")
        XCTAssertNil(result.plan.nextWakeAt)
    }

    func testADeliveryTheChannelsFailedToShowIsRetriedAMinuteLater() {
        let household = Household(settings: settings(), alarms: [Fixtures.alarm("fajr", at: "05:30")])
        let now = Fixtures.instant("2026-11-21T04:30:00Z")
        var result = plan(household, lastRun: "2026-11-21T04:29:00Z", now: "2026-11-21T04:30:00Z")
        XCTAssertEqual(result.plan.nextWakeAt, Fixtures.instant("2026-11-22T04:30:00Z"))
        XCTAssertFalse(result.plan.wakeToRetry([], now: now))
        let delivery = Delivery(notification: result.deliveries[0].notification, deliveredAt: now)
        let failed = QueuedDelivery(delivery: delivery, attempts: 1, lastError: "exit 1")
        XCTAssertTrue(result.plan.wakeToRetry([failed], now: now))
        XCTAssertEqual(result.plan.nextWakeAt, Fixtures.instant("2026-11-21T04:31:00Z"))
        // Once expired (30 minutes after 05:30), it is not retried.
        var later = result.plan
        later.nextWakeAt = Fixtures.instant("2026-11-22T04:30:00Z")
        XCTAssertFalse(later.wakeToRetry([failed], now: Fixtures.instant("2026-11-21T05:10:00Z")))
    }
}
