import XCTest
@testable import NudgeCore

final class AlarmRuleTests: XCTestCase {
    func testOccurrenceAtLocalTimeWithTextsAndId() throws {
        let clock = WallClock(zone: Fixtures.berlin)
        let occurrence = try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                                            settings: Settings(), clock: clock))
        XCTAssertEqual(occurrence.id, "alarm.prayer:fajr:2026-11-21")
        XCTAssertEqual(occurrence.kind, .prayer)
        XCTAssertEqual(occurrence.fireAt, Fixtures.instant("2026-11-21T04:30:00Z"))
        XCTAssertEqual(occurrence.expiresAt, Fixtures.instant("2026-11-21T05:00:00Z"))  // at least 30 min
        XCTAssertEqual(occurrence.title, "Morning Prayer Time")
        XCTAssertEqual(occurrence.body, "Take 15 minutes to pray")
        XCTAssertEqual(occurrence.priority, .critical)
        XCTAssertEqual(occurrence.category, "PRAYER_ALARM")
        XCTAssertEqual(occurrence.actions, ["START_TIMER", "SNOOZE"])
        XCTAssertEqual(occurrence.deepLink, "nudge://alarm/fajr")
        XCTAssertTrue(occurrence.badge)
        XCTAssertEqual(occurrence.recurrence, .daily(date: Fixtures.date("2026-11-21"), time: Fixtures.time("05:30")))
    }

    /// An alarm that is not a prayer is a plain alarm (docs/files.md, "alarms.json"): its title as written, kind
    /// `alarm.plain`, category `ALARM`, a snooze only; in a run too, beside a prayer alarm. Before it was shown as
    /// "Wake up Time", kind `alarm.prayer`, with a "Start Timer" button.
    func testAnAlarmWithItsOwnBodyAndNoPrayerIsAPlainAlarm() throws {
        let decoded = UserFileDecoder.alarms(Array("""
            { "alarms": [ { "id": "wake", "title": "Wake up", "time": "06:30", "body": "Time to get up" },
                          { "id": "fajr", "title": "Morning Prayer", "time": "05:30" },
                          { "id": "empty", "title": "E", "time": "07:00", "body": " " },
                          { "id": "long", "title": "L", "time": "07:00", "body": "\(String(repeating: "x", count: 201))" } ] }
            """.utf8))
        let alarms = try XCTUnwrap(decoded.0)
        XCTAssertEqual(alarms.map(\.id), ["wake", "fajr"], "a bad body takes down only its alarm")
        XCTAssertEqual(decoded.1.problems.map(\.description), [
            "alarms.json: alarms[2].body: must not be empty (leave it out for \"Take 15 minutes to pray\")",
            "alarms.json: alarms[3].body: is 201 characters long (at most 200)",
        ])
        let household = Household(settings: Fixtures.settings(), alarms: alarms)
        let run = Fixtures.runs(household, from: Fixtures.state(lastRun: "2026-11-21T04:00:00Z"),
                                ["2026-11-21T04:30:00Z", "2026-11-21T05:30:00Z"])
        XCTAssertEqual(run.delivered, ["alarm.prayer:fajr:2026-11-21", "alarm.plain:wake:2026-11-21"])
        let wake = try XCTUnwrap(AlarmRule.occurrence(of: alarms[0], on: Fixtures.date("2026-11-21"),
                                                      settings: Settings(), clock: WallClock(zone: Fixtures.berlin)))
        XCTAssertEqual(wake.id, "alarm.plain:wake:2026-11-21")
        XCTAssertEqual(wake.kind, .plainAlarm)
        XCTAssertEqual(wake.title, "Wake up")
        XCTAssertEqual(wake.body, "Time to get up")
        XCTAssertEqual(wake.category, "ALARM")
        XCTAssertEqual(wake.actions, ["SNOOZE"])
        XCTAssertEqual(wake.priority, .critical)
        XCTAssertEqual(NotificationAction.buttons(for: wake, canPlay: false).map(\.action), [.snooze])
        let planned = Planner.plan(household, previous: Fixtures.state(lastRun: "2026-11-21T04:00:00Z"),
                                   now: Fixtures.instant("2026-11-21T04:10:00Z"), zone: Fixtures.berlin)
        XCTAssertEqual(planned.plan.pending.first { $0.id == "alarm.plain:wake:2026-11-21" }?.body, "Time to get up")
        XCTAssertEqual(planned.plan.pending.first { $0.id == "alarm.prayer:fajr:2026-11-21" }?.body,
                       "Take 15 minutes to pray")
    }

    /// An alarm that follows a prayer stays a prayer alarm with a body of its own, and one without a body too.
    func testAPrayerAlarmWithItsOwnBodyStaysAPrayerAlarm() throws {
        let following = Alarm(id: "asr", title: "Asr", schedule: .prayer(.asr, offsetMinutes: 0),
                              body: "Asr, then tea")
        XCTAssertFalse(following.isPlain)
        XCTAssertFalse(Fixtures.alarm().isPlain)
        XCTAssertEqual(AlarmRule.title(following), "Asr Time")
    }

    func testLongAlarmExpiresAfterItsDuration() throws {
        let occurrence = try XCTUnwrap(AlarmRule.occurrence(
            of: Fixtures.alarm(duration: 45), on: Fixtures.date("2026-11-21"), settings: Settings(),
            clock: WallClock(zone: Fixtures.berlin)))
        XCTAssertEqual(occurrence.expiresAt, Fixtures.instant("2026-11-21T05:15:00Z"))
        XCTAssertEqual(occurrence.body, "Take 45 minutes to pray")
    }

    /// `AlarmRule.title` writes the title's bytes itself: any title, short or long, ASCII or not.
    func testTitleIsTheAlarmsTitleAndTime() {
        for title in ["Fajr", "", "Zoë ❄️", "A title longer than fifteen bytes"] {
            let alarm = Alarm(id: "a", title: title, time: Fixtures.time("05:30"))
            XCTAssertEqual(AlarmRule.title(alarm), title + " Time")
        }
    }

    /// `AlarmSeries` writes the id's bytes itself: it must read as `occurrenceID(kind, source, date.description)`
    /// for any source text and any date, and ring on exactly the listed weekdays.
    func testSeriesIdsAndWeekdaysMatchTheGeneralRules() throws {
        let clock = WallClock(zone: Fixtures.berlin)
        let days: [Weekdays] = [Weekdays.everyDay, [.mon], [.sat, .sun], [.tue, .thu, .fri]]
        for (source, weekdays) in zip(["fajr", "a00001", "Zoë-❄️", "with:colon", "x"], days + [[.wed]]) {
            let alarm = Alarm(id: source, title: "T", time: Fixtures.time("05:30"), weekdays: weekdays)
            let series = try XCTUnwrap(AlarmSeries(alarm, title: "T Time", body: "B", sound: true, badge: false,
                                                      hasPrayerTimes: false))
            for text in ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21",
                         "2026-11-22", "0999-01-05", "0001-01-01", "9999-12-31"] {
                let date = Fixtures.date(text)
                let ringing = series.ringing(on: date, clock: clock, prayerTimes: nil)
                XCTAssertEqual(ringing != nil, weekdays.contains(date.weekday), "\(source) \(text)")
                guard let (fireAt, time) = ringing else { continue }
                let record = series.occurrence(on: date, at: fireAt, time: time)
                XCTAssertEqual(record.id, Notification.occurrenceID(.prayer, source, date.description))
                XCTAssertEqual(record.fireAt, clock.instant(on: date, at: Fixtures.time("05:30")))
                XCTAssertEqual(record, AlarmRule.occurrence(of: alarm, on: date, settings: settings(sound: true,
                                                                                                 badge: false),
                                                            clock: clock, title: "T Time", body: "B"))
            }
        }
        XCTAssertNil(AlarmSeries(Alarm(id: "off", title: "T", time: Fixtures.time("05:30"), enabled: false),
                                 title: "", body: "", sound: true, badge: true, hasPrayerTimes: false))
    }

    private func settings(sound: Bool, badge: Bool) -> Settings {
        var settings = Settings()
        settings.notifications.sound = sound
        settings.notifications.badge = badge
        return settings
    }

    func testOnlyListedWeekdaysRing() {
        let clock = WallClock(zone: Fixtures.berlin)
        let fridays = Fixtures.alarm(weekdays: [.fri])
        XCTAssertNil(AlarmRule.occurrence(of: fridays, on: Fixtures.date("2026-11-21"), settings: Settings(),
                                          clock: clock))  // a Saturday
        XCTAssertNotNil(AlarmRule.occurrence(of: fridays, on: Fixtures.date("2026-11-20"), settings: Settings(),
                                             clock: clock))
    }

    func testDisabledAlarmHasNoOccurrence() {
        var alarm = Fixtures.alarm()
        alarm.enabled = false
        XCTAssertNil(AlarmRule.occurrence(of: alarm, on: Fixtures.date("2026-11-21"), settings: Settings(),
                                          clock: WallClock(zone: Fixtures.berlin)))
    }

    func testSpringForwardGapRingsAtGapEndAndFallBackRingsOnce() throws {
        let clock = WallClock(zone: Fixtures.berlin)
        let alarm = Fixtures.alarm(at: "02:30")
        let spring = try XCTUnwrap(AlarmRule.occurrence(of: alarm, on: Fixtures.date("2026-03-29"),
                                                        settings: Settings(), clock: clock))
        XCTAssertEqual(spring.fireAt, Fixtures.instant("2026-03-29T01:00:00Z"))  // 03:00 CEST
        let autumn = try XCTUnwrap(AlarmRule.occurrence(of: alarm, on: Fixtures.date("2026-10-25"),
                                                        settings: Settings(), clock: clock))
        XCTAssertEqual(autumn.fireAt, Fixtures.instant("2026-10-25T00:30:00Z"))  // the first 02:30 (CEST)
    }

    func testSoundAndBadgeComeFromSettings() throws {
        var settings = Settings()
        settings.notifications.sound = false
        settings.notifications.badge = false
        let occurrence = try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                                            settings: settings, clock: WallClock(zone: Fixtures.utc)))
        XCTAssertFalse(occurrence.sound)
        XCTAssertFalse(occurrence.badge)
    }
}
