import XCTest
@testable import NudgeCore

/// After travel, what the person's own clock passed between the runs falls due or is recorded missed, and a date
/// settled in one zone stays settled in another (docs/travelling.md), also when the clock is corrected on arrival.
final class PlannerTravelTests: XCTestCase {
    private let berlin = Fixtures.berlin
    private let tokyo = Fixtures.tokyo
    private func at(_ text: String) -> Date { Fixtures.instant(text) }

    private func household(alarms: [Alarm]) -> Household {
        Household(settings: Fixtures.settings(), pets: [], alarms: alarms)
    }

    /// Travel east without a clock step: after a Berlin run at 20:50Z, the first Tokyo run at 20:55Z finds
    /// Tokyo's 05:00 (20:00Z, expired 20:30Z) fallen due by the wall clock and expired: missed (docs/design.md,
    /// "When a notification is due"), although its instant lies before the Berlin run.
    func testAfterTravelEastAnExpiredAlarmTheNewWallClockPassedIsRecordedAsMissed() {
        let alarms = [Fixtures.alarm("fajr", at: "05:00")]
        let berlinRun = Planner.plan(household(alarms: alarms),
                                     previous: Fixtures.state(lastRun: "2026-11-21T20:40:00Z"),
                                     now: at("2026-11-21T20:50:00Z"), zone: berlin)
        let arrival = Planner.plan(household(alarms: alarms), previous: berlinRun.state,
                                   now: at("2026-11-21T20:55:00Z"), zone: tokyo, previousZone: berlin)
        XCTAssertEqual(arrival.missed.map(\.id), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(arrival.state.missedTotal, 1)
    }

    /// The mirror of travel east: a clock that ran ahead in Tokyo records the 22nd and the 23rd missed; it is
    /// corrected on arrival in Berlin at 22:00 on the 21st. The 22nd's Tokyo 05:30 (20:30Z on the 21st) has passed
    /// on the corrected clock too: truly missed there, it stays missed, though Berlin's 05:30 of the 22nd is still
    /// to come (one per local date). The 23rd lies ahead in both zones: it rings in Berlin and is not missed.
    func testADateMissedAheadInTokyoWhoseTimeTrulyPassedStaysMissedInBerlinAndTheNextRings() {
        let alarms = [Fixtures.alarm("fajr", at: "05:30")]
        let ahead = Planner.plan(household(alarms: alarms),
                                 previous: Fixtures.state(lastRun: "2026-11-21T05:00:00Z", zone: "Asia/Tokyo"),
                                 now: at("2026-11-23T06:00:00Z"), zone: tokyo)
        XCTAssertEqual(ahead.missed.map(\.id), ["alarm.prayer:fajr:2026-11-22", "alarm.prayer:fajr:2026-11-23"])
        let inBerlin = Fixtures.runs(household(alarms: alarms), from: ahead.state, previousZone: tokyo, zone: berlin,
                                     ["2026-11-21T21:00:00Z", "2026-11-22T04:31:00Z", "2026-11-23T04:31:00Z"])
        XCTAssertEqual(inBerlin.missed, [])
        XCTAssertEqual(inBerlin.delivered, ["alarm.prayer:fajr:2026-11-23"])
        XCTAssertEqual(inBerlin.state.recentMissed.map(\.id), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(inBerlin.state.missedTotal, 1)
    }

    /// A leave-time (`commute.leave:<trip>:<date>`, a one-off) is timed by the trip's local `arriveBy`, so its
    /// instant depends on the zone, like an alarm's. A Berlin clock that ran ahead to 04:00 on the 23rd (03:00Z)
    /// is corrected on arrival in Tokyo at 08:30 on the 23rd (23:30Z on the 22nd): the trip's 08:00 leave-time
    /// (23:00Z) has passed and its arrival, 09:00 (00:00Z), is still to come. No run has seen it (in Berlin it lay
    /// at 07:00Z, after the ahead clock), though its Tokyo instant lies before the Berlin runs: it is delivered
    /// late all the same, as it is without the step back (docs/promises.md).
    func testAStepBackOnArrivalEastDoesNotLoseTheLeaveTimeTheNewWallClockPassed() {
        let trip = Trip(id: "office", destination: "Office",
                        schedule: .recurring(arriveBy: Fixtures.time("09:00"), weekdays: Weekdays.everyDay),
                        bufferMinutes: 0, travelMinutes: 60)
        let household = Household(settings: Fixtures.settings(), trips: [trip])
        let id = "commute.leave:office:2026-11-23"
        let home = Fixtures.runs(household, from: Fixtures.state(lastRun: "2026-11-22T19:59:00Z"), previousZone: berlin,
                                 zone: berlin, ["2026-11-22T20:00:00Z"])
        let direct = Fixtures.runs(household, from: home.state, zone: tokyo, ["2026-11-22T23:30:00Z"])
        XCTAssertEqual(direct.delivered, [id], "without a clock step")
        let ahead = Fixtures.runs(household, from: home.state, ["2026-11-23T03:00:00Z"])
        XCTAssertEqual(ahead.delivered + ahead.missed, [])
        let corrected = Fixtures.runs(household, from: ahead.state, previousZone: berlin, zone: tokyo,
                                      ["2026-11-22T23:30:00Z", "2026-11-22T23:31:00Z"])
        XCTAssertEqual(corrected.delivered, [id], "delivered late")
        XCTAssertEqual(corrected.missed, [])
    }

    /// The good-morning message at 23:30 with quiet hours 23:00–07:00 is moved to 07:00 the next day. The last
    /// Berlin run is at 01:00 on the 23rd (00:00Z): the 22nd's message waits for 07:00 Berlin. The next run is in
    /// Tokyo at 14:00 on the 23rd (05:00Z): there the 22nd's message lies at 07:00 on the 23rd (22:00Z on the
    /// 22nd, before the last Berlin run) and expires at the end of the 23rd: the person's clock passed it between
    /// the runs, it has not expired, it was never delivered: due (docs/travelling.md). The travel rule reads the moved
    /// local time (07:00 on the 23rd), not the nominal one (23:30 on the 22nd, before the previous wall clock).
    func testAfterTravelEastAMessageMovedPastMidnightByQuietHoursIsNotLost() {
        var settings = Fixtures.settings()
        settings.personalized.enabled = true
        settings.personalized.firstName = "Ada"
        settings.personalized.time = Fixtures.time("23:30")
        settings.quietHours = QuietHours(start: Fixtures.time("23:00"), end: Fixtures.time("07:00"))
        let household = Household(settings: settings)
        let home = Fixtures.runs(household, from: Fixtures.state(lastRun: "2026-11-22T23:59:00Z"), previousZone: berlin,
                                 zone: berlin, ["2026-11-23T00:00:00Z"])
        XCTAssertEqual(home.delivered + home.missed, [])
        let ofThe22nd = Planner.plan(household, previous: home.state, now: at("2026-11-23T00:00:00Z"), zone: berlin)
            .plan.pending.map(\.id).filter { $0.hasSuffix(":2026-11-22") }
        XCTAssertEqual(ofThe22nd.count, 1, "the 22nd's message waits for 07:00 Berlin")
        let tokyoRun = Fixtures.runs(household, from: home.state, zone: tokyo, ["2026-11-23T05:00:00Z"])
        XCTAssertEqual(tokyoRun.delivered, ofThe22nd, "delivered late")
        XCTAssertEqual(tokyoRun.missed, [])
    }

    func testTravelEastRingsTheAlarmTheNewWallClockPassed() {
        // Last run in Berlin at 21:50 local (20:50Z); next run in Tokyo at 05:55 local (20:55Z). Tokyo's 05:30
        // on the 22nd (20:30Z) precedes the last run as an instant, but the person's wall clock passed it.
        let alarm = Fixtures.alarm(at: "05:30")
        let result = Planner.plan(household(alarms: [alarm]), previous: Fixtures.state(lastRun: "2026-11-21T20:50:00Z"),
                                  now: at("2026-11-21T20:55:00Z"), zone: tokyo,
                                  previousZone: berlin)
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(result.deliveries.first?.notification.fireAt, at("2026-11-21T20:30:00Z"))
        XCTAssertEqual(result.state.timeZone, "Asia/Tokyo")
    }

    func testWithoutTravelAnAlarmBeforeThePreviousRunIsNotDue() {
        let alarm = Fixtures.alarm(at: "21:30")  // 20:30Z in Berlin
        let result = Planner.plan(household(alarms: [alarm]), previous: Fixtures.state(lastRun: "2026-11-21T20:50:00Z"),
                                  now: at("2026-11-21T20:55:00Z"), zone: berlin)
        XCTAssertEqual(result.deliveries, [])
    }

    func testTravelWestNeverRingsTheSameLocalDateTwice() {
        // Fajr rang in Berlin for 2026-11-22; the person flies to New York where it is still 2026-11-21 evening
        // and then the morning of 2026-11-22 comes again.
        let alarm = Fixtures.alarm(at: "05:30")
        let berlinRun = Planner.plan(household(alarms: [alarm]), previous: Fixtures.state(lastRun: "2026-11-22T04:29:00Z"),
                                     now: at("2026-11-22T04:31:00Z"), zone: berlin)
        XCTAssertEqual(berlinRun.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-22"])
        let landed = Planner.plan(household(alarms: [alarm]), previous: berlinRun.state,
                                  now: at("2026-11-22T05:00:00Z"), zone: Fixtures.newYork,
                                  previousZone: berlin)
        XCTAssertEqual(landed.plan.pending.first?.id, "alarm.prayer:fajr:2026-11-23")
        let newYorkMorning = Planner.plan(household(alarms: [alarm]), previous: landed.state,
                                          now: at("2026-11-22T10:31:00Z"), zone: Fixtures.newYork,
                                          previousZone: Fixtures.newYork)
        XCTAssertEqual(newYorkMorning.deliveries, [])
    }

    /// The week (docs/travelling.md): a student in Tromsø with five prayer alarms (polar nearestDay, the
    /// midnight sun) and a weekday bus to the university whose trip names Europe/Oslo, in Istanbul from Wednesday
    /// noon to Sunday night, where settings.json then names Europe/Istanbul and Istanbul's place. Runs every five
    /// minutes: no leave-time or check-in while away, the bus on the days at home, and each prayer alarm exactly
    /// once on every local date of the week, wherever the date was lived. (Back at Sunday noon instead, Sunday
    /// would have no maghrib: Tromsø's, at 00:21, passed while she was in Istanbul, and Istanbul's, at 20:39,
    /// comes after she left; no sunset of that date is ahead of her in either place.)
    func testAWeekAbroadPausesTheCommuteAndRingsEveryPrayerOncePerLocalDate() {
        func settings(_ zone: String, _ latitude: Double, _ longitude: Double) -> Settings {
            var settings = Fixtures.settings(zone: zone)
            var prayer = PrayerSettings(latitude: latitude, longitude: longitude)
            prayer.polar = .nearestDay
            settings.prayerTimes = prayer
            return settings
        }
        let home = settings("Europe/Oslo", 69.65, 18.96), away = settings("Europe/Istanbul", 41.01, 28.98)
        let oslo = Fixtures.zone("Europe/Oslo"), istanbul = Fixtures.zone("Europe/Istanbul")
        let alarms = Prayer.allCases.filter { $0 != .sunrise }.map {
            Alarm(id: $0.rawValue, title: $0.rawValue, schedule: .prayer($0, offsetMinutes: 0))
        }
        var trip = Trip(id: "uni", destination: "University",
                        schedule: .recurring(arriveBy: Fixtures.time("08:15"), weekdays: Weekdays([.mon, .tue, .wed, .thu, .fri])),
                        travelMinutes: 25)
        trip.timeZone = "Europe/Oslo"
        let leaveAway = at("2026-06-17T12:00:00Z"), comeBack = at("2026-06-21T21:00:00Z")
        var state = Fixtures.state(lastRun: "2026-06-14T22:00:00Z", zone: "Europe/Oslo")
        var previousZone = oslo
        var delivered: [String] = [], missed: [String] = []
        var now = at("2026-06-14T22:02:00Z")
        while now < at("2026-06-22T22:00:00Z") {
            let abroad = now >= leaveAway && now < comeBack
            let zone = abroad ? istanbul : oslo
            let household = Household(settings: abroad ? away : home, alarms: alarms, trips: [trip])
            let run = Planner.plan(household, previous: state, now: now, zone: zone, previousZone: previousZone)
            delivered += run.deliveries.map(\.notification.id)
            missed += run.missed.map(\.id)
            state = run.state
            previousZone = zone
            now = now.addingTimeInterval(300)
        }
        XCTAssertEqual(missed, [])
        XCTAssertEqual(delivered.count, Set(delivered).count, "nothing twice")
        let leaves = delivered.filter { $0.hasPrefix("commute.leave:") }.sorted()
        XCTAssertEqual(leaves, ["commute.leave:uni:2026-06-15", "commute.leave:uni:2026-06-16",
                                "commute.leave:uni:2026-06-17", "commute.leave:uni:2026-06-22"],
                       "home on Monday, Tuesday, Wednesday morning and the next Monday; paused Thursday and Friday")
        for alarm in alarms {
            for day in 15...22 {
                let id = "alarm.prayer:\(alarm.id):2026-06-\(day)"
                XCTAssertEqual(delivered.filter { $0 == id }.count, 1, id)
            }
        }
    }

    /// Seed 1740404439 of the differential month: in New York the leave-time of 7 May (arriving 08:45, 12:45Z) is
    /// planned at 12:02Z; at 09:57Z the zone becomes UTC, where 08:45 of that date has passed (fireAt 07:40Z,
    /// arrival 08:45Z). A directory run every minute (last at 09:56Z) and one woken only when something was due
    /// (last at 06:21Z) must record the same: the leave-time fell due at no run's time, its planned time still
    /// ahead; it is seen, not missed, whichever ran last.
    func testALeaveTimeTheZoneMovedIntoThePastIsSeenWhateverRunCameBefore() {
        let trip = Trip(id: "office", destination: "Office",
                        schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: Weekdays.everyDay),
                        bufferMinutes: 10, travelMinutes: 25)
        let newYork = Fixtures.newYork
        let utc = Fixtures.utc
        var settings = Fixtures.settings(zone: "America/New_York")
        settings.streaks.enabled = false
        settings.personalized.enabled = false
        let household = Household(settings: settings, trips: [trip])
        let id = "commute.leave:office:2026-05-07"
        var recorded: [[String]] = []
        for lastInNewYork in ["2026-05-07T09:56:00Z", "2026-05-07T06:21:00Z"] {
            let home = Fixtures.runs(household, from: Fixtures.state(lastRun: "2026-05-07T06:00:00Z",
                                                                     zone: "America/New_York"),
                                     previousZone: newYork, zone: newYork, [lastInNewYork])
            XCTAssertEqual(home.state.plannedLeaveTimes[id], at("2026-05-07T12:10:00Z"))
            var moved = household
            moved.settings.timeZone = "UTC"
            let arrived = Planner.plan(moved, previous: home.state, now: at("2026-05-07T09:57:00Z"), zone: utc,
                                       previousZone: newYork)
            XCTAssertEqual(arrived.deliveries.map(\.notification.id).filter { $0 == id }, [])
            recorded.append([arrived.state.memory.ledger[id]?.outcome.rawValue ?? "none"]
                            + arrived.missed.map(\.id).filter { $0 == id })
        }
        XCTAssertEqual(recorded, [["seen"], ["seen"]])
    }
}
