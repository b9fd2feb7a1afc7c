import Foundation
import XCTest
@testable import NudgeCore

/// The six times of local dates at literal places, held against adhanpy and PyEphem (docs/prayer-times.md).
final class PrayerCalendarTests: XCTestCase {
    static func settings(_ latitude: Double, _ longitude: Double, method: String = "MWL",
                         rule: HighLatitudeRule = .angleBased) -> PrayerSettings {
        var settings = PrayerSettings(latitude: latitude, longitude: longitude)
        settings.method = PrayerMethod.named(method) ?? settings.method
        settings.highLatitude = rule
        return settings
    }

    static let berlin = settings(52.52, 13.405)
    static let tromso = settings(69.6492, 18.9553)

    func readings(_ settings: PrayerSettings, _ zone: Zone, _ date: String) -> [String] {
        guard let calendar = PrayerCalendar(settings: settings, clock: WallClock(zone: zone)) else { return [] }
        return Prayer.allCases.map { prayer in
            switch calendar.reading(of: prayer, on: Fixtures.date(date)) {
            case let .success(local): return local.date == Fixtures.date(date)
                ? String.hourMinute(local.hour, local.minute) : "\(local)"
            case .failure(.sun(.sunDoesNotSet)): return "sunDoesNotSet"
            case .failure(.sun(.sunDoesNotRise)): return "sunDoesNotRise"
            case let .failure(.sun(.twilightNotReached(angle))): return "twilightNotReached(\(angle))"
            case .failure(.sun(.asrNotReached)): return "asrNotReached"
            case let .failure(.otherDate(local)): return "otherDate(\(local))"
            }
        }
    }

    /// adhanpy (MWL, twilight-angle rule, no method minutes) gives 05:37 07:38 11:52 13:44 16:05 18:01; PyEphem
    /// sunrise 07:38:29, transit 11:52:13, sunset 16:05:27.
    func testBerlinInNovemberMatchesTheReferences() {
        XCTAssertEqual(readings(Self.berlin, Fixtures.berlin, "2026-11-21"),
                       ["05:37", "07:38", "11:52", "13:44", "16:05", "18:01"])
    }

    /// Summer time: the same computation read in CEST (adhanpy: 02:34 04:43 13:08 17:33 21:33 23:35).
    func testBerlinAtMidsummerReadsInSummerTime() {
        XCTAssertEqual(readings(Self.berlin, Fixtures.berlin, "2026-06-21"),
                       ["02:34", "04:43", "13:08", "17:33", "21:33", "23:35"])
    }

    func testHanafiAsrIsLaterThanStandard() {
        var hanafi = Self.berlin
        hanafi.asr = .hanafi
        XCTAssertEqual(readings(hanafi, Fixtures.berlin, "2026-11-21")[3], "14:17")
    }

    func testAdjustMinutesMoveOnePrayer() {
        var settings = Self.berlin
        settings.adjustMinutes[Prayer.isha.index] = 2
        XCTAssertEqual(readings(settings, Fixtures.berlin, "2026-11-21"),
                       ["05:37", "07:38", "11:52", "13:44", "16:05", "18:03"])
    }

    func testMakkahIshaIsNinetyMinutesAfterMaghrib() {
        let times = readings(Self.settings(52.52, 13.405, method: "Makkah"), Fixtures.berlin, "2026-11-21")
        XCTAssertEqual(times[4], "16:05")
        XCTAssertEqual(times[5], "17:35")
    }

    func testTehranMaghribIsAtFourAndAHalfDegrees() {
        let times = readings(Self.settings(35.6892, 51.389, method: "Tehran"), Fixtures.zone("Asia/Tehran"),
                             "2026-11-21")
        XCTAssertEqual(times[4] > "17:00", true)
        XCTAssertLessThan(readings(Self.settings(35.6892, 51.389), Fixtures.zone("Asia/Tehran"), "2026-11-21")[4],
                          times[4])
    }

    /// Midnight sun in Tromsø: no sunrise, maghrib or (bounded) fajr and isha; dhuhr and asr still come.
    func testMidnightSunLeavesOnlyDhuhrAndAsr() {
        let times = readings(Self.tromso, Fixtures.zone("Europe/Oslo"), "2026-06-21")
        XCTAssertEqual(times[0], "sunDoesNotSet")
        XCTAssertEqual(times[1], "sunDoesNotSet")
        XCTAssertEqual(times[2], "12:46")
        XCTAssertEqual(times[4], "sunDoesNotSet")
        XCTAssertEqual(times[5], "sunDoesNotSet")
    }

    /// Polar night: the sun never rises, yet its twilight reaches 18° and 17°, so fajr and isha keep their times.
    func testPolarNightKeepsTheTwilightPrayers() {
        let times = readings(Self.tromso, Fixtures.zone("Europe/Oslo"), "2026-12-21")
        XCTAssertEqual(times[1], "sunDoesNotRise")
        XCTAssertEqual(times[4], "sunDoesNotRise")
        XCTAssertEqual(times[3], "asrNotReached")
        XCTAssertTrue(times[0].hasPrefix("0"), times[0])
        XCTAssertTrue(times[5].hasPrefix("1"), times[5])
    }

    /// Without a high-latitude rule, a twilight the sun does not reach has no time (London in June, 18°).
    func testNoRuleLeavesAnUnreachedTwilightWithoutATime() {
        let times = readings(Self.settings(51.5074, -0.1278, method: "Karachi", rule: .none),
                             Fixtures.zone("Europe/London"), "2026-06-21")
        XCTAssertEqual(times[0], "twilightNotReached(18.0)")
        XCTAssertEqual(times[5], "twilightNotReached(18.0)")
    }

    /// Every day of two years in Longyearbyen and Tromsø: never a crash, and each time found for a local date
    /// rings on that date.
    func testPolarYearsRingOnlyOnTheirOwnDates() {
        for (settings, zone) in [(Self.settings(78.2232, 15.6267), Fixtures.zone("Arctic/Longyearbyen")),
                                 (Self.tromso, Fixtures.zone("Europe/Oslo"))] {
            for rule in HighLatitudeRule.allCases {
                var settings = settings
                settings.highLatitude = rule
                guard let calendar = PrayerCalendar(settings: settings, clock: WallClock(zone: zone)) else {
                    return XCTFail("no calendar")
                }
                var date = Fixtures.date("2026-01-01")
                while date < Fixtures.date("2028-01-01") {
                    for prayer in Prayer.allCases {
                        if case let .success((instant, time)) = calendar.ringing(prayer, on: date, offsetMinutes: -120) {
                            let local = WallClock(zone: zone).localDateTime(of: instant)
                            XCTAssertEqual(local.date, date, "\(prayer) \(date)")
                            XCTAssertEqual(WallTime(hour: local.hour, minute: local.minute), time)
                        }
                    }
                    date = date.adding(days: 1)
                }
            }
        }
    }

    /// Oslo in June, middle of the night: isha computed past midnight rings as the next date's occurrence, so
    /// each night still has its isha and no date has two.
    func testIshaAfterMidnightRingsOnTheDateItFallsOn() {
        let settings = Self.settings(59.9139, 10.7522, rule: .middleOfNight)
        let oslo = Fixtures.zone("Europe/Oslo")
        guard let calendar = PrayerCalendar(settings: settings, clock: WallClock(zone: oslo)) else {
            return XCTFail("no calendar")
        }
        guard case let .success(own) = calendar.reading(of: .isha, on: Fixtures.date("2026-06-21")) else {
            return XCTFail("no isha")
        }
        XCTAssertEqual(own.date, Fixtures.date("2026-06-22"))
        guard case let .success((instant, time)) = calendar.ringing(.isha, on: Fixtures.date("2026-06-22"),
                                                                    offsetMinutes: 0) else {
            return XCTFail("no isha on the 22nd")
        }
        XCTAssertEqual(time, WallTime(hour: own.hour, minute: own.minute))
        XCTAssertEqual(WallClock(zone: oslo).localDate(of: instant), Fixtures.date("2026-06-22"))
    }

    /// A place across the date line from its zone's noon still finds the solar day of the local date: Apia
    /// (UTC+13, 171.8° W) has its noon on the UT date before.
    func testDateLineNoonIsOnTheLocalDate() {
        let settings = Self.settings(-13.8333, -171.7667)
        guard let calendar = PrayerCalendar(settings: settings, clock: WallClock(zone: Fixtures.zone("Pacific/Apia"))),
              case let .success(noon) = calendar.reading(of: .dhuhr, on: Fixtures.date("2026-11-21")) else {
            return XCTFail("no dhuhr")
        }
        XCTAssertEqual(noon.date, Fixtures.date("2026-11-21"))
        XCTAssertEqual(noon.hour, 12)
    }

    /// The computed local time goes through WallClock like a typed time: a fajr computed in the second pass of
    /// the repeated hour (a place 50° E kept on Berlin time, on the night the clocks go back) rings at the first.
    func testComputedTimeInTheRepeatedHourRingsAtTheFirstPass() {
        let settings = Self.settings(52.52, 50)
        let clock = WallClock(zone: Fixtures.berlin)
        let date = Fixtures.date("2026-10-25")
        guard let calendar = PrayerCalendar(settings: settings, clock: clock),
              case let .success(local) = calendar.reading(of: .fajr, on: date),
              case let .success((instant, time)) = calendar.ringing(.fajr, on: date, offsetMinutes: 0) else {
            return XCTFail("no fajr")
        }
        XCTAssertEqual(local.hour, 2)
        XCTAssertEqual(time, WallTime(hour: local.hour, minute: local.minute))
        XCTAssertEqual(instant, clock.instant(on: date, at: time))
        guard case let .success(exact) = calendar.day(on: date)?.time(of: .fajr) else { return XCTFail("no day") }
        let computed = (exact / 60).rounded(.toNearestOrAwayFromZero) * 60
        XCTAssertEqual(instant.timeIntervalSince1970, computed - 3600)
    }
}
