import XCTest
@testable import NudgeCore

/// What `nudge times` and `nudge status` say about prayer times (docs/files.md, "Prayer times").
final class PrayerTimetableTests: XCTestCase {
    private let oslo = WallClock(zone: Fixtures.zone("Europe/Oslo"))

    private func settings(_ latitude: Double?, _ longitude: Double?) -> Settings {
        var settings = Settings()
        settings.prayerTimes = PrayerSettings(latitude: latitude, longitude: longitude)
        return settings
    }

    private let alarms = [
        Alarm(id: "maghrib", title: "Sunset Prayer", schedule: .prayer(.maghrib, offsetMinutes: -5)),
        Alarm(id: "dhuhr", title: "Noon Prayer", schedule: .prayer(.dhuhr, offsetMinutes: 0)),
        Alarm(id: "isha", title: "Night Prayer", schedule: .prayer(.isha, offsetMinutes: 0), enabled: false),
        Alarm(id: "fajr", title: "Morning Prayer", schedule: .prayer(.fajr, offsetMinutes: 0), weekdays: [.mon]),
        Alarm(id: "fixed", title: "Fixed", time: Fixtures.time("05:30")),
    ]

    /// Tromsø on Sunday 21 June: the enabled alarms of that weekday that need a sunset, with the reason.
    func testSilentAlarmsAreTheEnabledOnesOfTheDayTheSunDoesNotAllow() {
        XCTAssertEqual(SilentPrayerAlarms.lines(alarms, settings: settings(69.6492, 18.9553),
                                                    on: Fixtures.date("2026-06-21"), clock: oslo),
                       ["Sunset Prayer (maghrib): the sun does not set that day (midnight sun)"])
        XCTAssertEqual(SilentPrayerAlarms.lines(alarms, settings: settings(59.9139, 10.7522),
                                                    on: Fixtures.date("2026-06-21"), clock: oslo), [])
    }

    func testSilentAlarmsWithoutAPlaceSaySo() {
        XCTAssertEqual(SilentPrayerAlarms.lines(alarms, settings: settings(nil, 18.9), on: Fixtures.date("2026-06-22"),
                                                    clock: oslo).first,
                       "Sunset Prayer (maghrib): settings.json has no prayerTimes.latitude and longitude")
    }

    func testHeadingNamesPlaceMethodAndAdjustments() {
        var prayerTimes = PrayerSettings(latitude: -33.9249, longitude: -18.5)
        prayerTimes.method = PrayerMethod(fajrAngle: 19, isha: .minutes(75))
        prayerTimes.asr = .hanafi
        prayerTimes.adjustMinutes[Prayer.isha.index] = 2
        prayerTimes.adjustMinutes[Prayer.fajr.index] = -3
        XCTAssertEqual(PrayerTimetable.heading(prayerTimes), "33.9249° S, 18.5° W — custom (fajr 19°, isha 75 min "
            + "after maghrib), asr hanafi, highLatitude angleBased, adjustMinutes fajr -3 isha +2")
    }

    /// Oslo at midsummer under the middle-of-the-night rule: isha past midnight is marked "+1".
    func testTimesPastMidnightAreMarked() throws {
        var prayerTimes = PrayerSettings(latitude: 59.9139, longitude: 10.7522)
        prayerTimes.highLatitude = .middleOfNight
        let calendar = try XCTUnwrap(PrayerCalendar(settings: prayerTimes, clock: oslo))
        let text = PrayerTimetable.text(calendar, from: Fixtures.date("2026-06-21"), days: 1)
        XCTAssertTrue(text.hasSuffix("+1"), text)
    }
}
