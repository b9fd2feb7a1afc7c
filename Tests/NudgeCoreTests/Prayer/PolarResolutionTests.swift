import XCTest
@testable import NudgeCore

/// `prayerTimes.polar` (docs/prayer-times.md) with literal places and dates: only the missing times are
/// resolved, together, from the nearest latitude or date at which all of them exist.
final class PolarResolutionTests: XCTestCase {
    /// Tromsø, 69.65° N: midnight sun from late May to late July, polar night from late November to mid-January.
    private func tromsø(_ polar: PolarResolution, rule: HighLatitudeRule = .angleBased) -> PrayerSettings {
        var settings = PrayerSettings(latitude: 69.65, longitude: 18.96)
        settings.polar = polar
        settings.highLatitude = rule
        return settings
    }

    private let midsummer = LocalDate(year: 2026, month: 6, day: 21)!
    private let midwinter = LocalDate(year: 2026, month: 12, day: 21)!

    private func seconds(_ settings: PrayerSettings, _ date: LocalDate, _ prayer: Prayer) -> Double? {
        guard case let .success(value) = PrayerDay(solarDate: date, settings: settings)!.time(of: prayer) else {
            return nil
        }
        return value
    }

    func testNoneLeavesTheMissingTimesMissing() {
        let day = PrayerDay(solarDate: midsummer, settings: tromsø(.none))!
        for prayer in [Prayer.fajr, .sunrise, .maghrib, .isha] {
            XCTAssertEqual(day.time(of: prayer), .failure(.sunDoesNotSet), "\(prayer)")
            XCTAssertNil(day.resolution(of: prayer))
        }
        XCTAssertNotNil(seconds(tromsø(.none), midsummer, .dhuhr))
    }

    func testNearestLatitudeTakesTheMissingTimesTogetherFromTheFirstHalfDegreeStepWhereTheyExist() {
        let day = PrayerDay(solarDate: midsummer, settings: tromsø(.nearestLatitude))!
        // 69.65 − 8 × 0.5: the first latitude with a sunset (and so a night for fajr and isha) that day.
        let source = 65.65
        var there = tromsø(.none)
        there.latitude = source
        var nearer = tromsø(.none)
        nearer.latitude = source + 0.5
        XCTAssertNil(seconds(nearer, midsummer, .maghrib), "66.15° N has no sunset on the solstice")
        for prayer in [Prayer.fajr, .sunrise, .maghrib, .isha] {
            XCTAssertEqual(day.resolution(of: prayer)?.source, .latitude(source), "\(prayer)")
            XCTAssertEqual(day.resolution(of: prayer)?.gap, .sunDoesNotSet, "\(prayer)")
            XCTAssertEqual(seconds(tromsø(.nearestLatitude), midsummer, prayer), seconds(there, midsummer, prayer))
        }
        // The times the place has stay its own.
        for prayer in [Prayer.dhuhr, .asr] {
            XCTAssertNil(day.resolution(of: prayer))
            XCTAssertEqual(seconds(tromsø(.nearestLatitude), midsummer, prayer), seconds(tromsø(.none), midsummer, prayer))
        }
    }

    func testNearestLatitudeInTheSouthStepsNorth() {
        var settings = PrayerSettings(latitude: -77.85, longitude: 166.67)
        settings.polar = .nearestLatitude
        let day = PrayerDay(solarDate: midsummer, settings: settings)!   // the southern winter: polar night
        guard case let .latitude(source)? = day.resolution(of: .sunrise)?.source else {
            return XCTFail("sunrise at McMurdo in June should be resolved")
        }
        XCTAssertLessThan(source, 0)
        XCTAssertGreaterThan(source, -77.85)
        XCTAssertEqual((source + 77.85).truncatingRemainder(dividingBy: 0.5), 0, accuracy: 1e-9)
    }

    func testNearestDayTakesTheTimesOfTheNearestDateMovedByWholeDays() {
        let settings = tromsø(.nearestDay)
        let day = PrayerDay(solarDate: midsummer, settings: settings)!
        guard case let .date(source)? = day.resolution(of: .maghrib)?.source else {
            return XCTFail("maghrib on the solstice should be resolved")
        }
        // Every missing time comes from that one date, at its universal time of day.
        let shift = Double(midsummer.daysSinceEpoch - source.daysSinceEpoch) * 86_400
        for prayer in [Prayer.fajr, .sunrise, .maghrib, .isha] {
            XCTAssertEqual(day.resolution(of: prayer)?.source, .date(source), "\(prayer)")
            XCTAssertEqual(seconds(settings, midsummer, prayer), seconds(tromsø(.none), source, prayer).map { $0 + shift })
        }
        // No nearer date has all four (2026-05-18 has a sunset but no night for fajr); the day keeps its order.
        let distance = abs(midsummer.daysSinceEpoch - source.daysSinceEpoch)
        for days in 1..<distance {
            for date in [midsummer.adding(days: -days), midsummer.adding(days: days)] {
                let all = [Prayer.fajr, .sunrise, .maghrib, .isha].allSatisfy { seconds(tromsø(.none), date, $0) != nil }
                XCTAssertFalse(all, "\(date) has all four, nearer than \(source)")
            }
        }
        let times = Prayer.allCases.compactMap { seconds(settings, midsummer, $0) }
        XCTAssertEqual(times, times.sorted(), "fajr, sunrise, dhuhr, asr, maghrib, isha in order")
    }

    func testNearestDayTakesTheNearerEndOfAGapAndTheEarlierOnATie() {
        // Asr at 69.65° N has no time from late November (the sun no longer clears the horizon at noon) to
        // mid-January: each date of that gap takes the nearer end, the earlier on a tie.
        let settings = tromsø(.nearestDay)
        let own = tromsø(.none)
        var date = LocalDate(year: 2026, month: 11, day: 1)!
        while seconds(own, date, .asr) != nil { date = date.adding(days: 1) }
        let before = date.adding(days: -1)
        var gap: [LocalDate] = []
        while seconds(own, date, .asr) == nil {
            gap.append(date)
            date = date.adding(days: 1)
        }
        let after = date
        XCTAssertGreaterThan(gap.count, 40, "from \(before) to \(after)")
        var ties = 0
        for missing in gap {
            let back = missing.daysSinceEpoch - before.daysSinceEpoch, ahead = after.daysSinceEpoch - missing.daysSinceEpoch
            if back == ahead { ties += 1 }
            let source = PrayerDay(solarDate: missing, settings: settings)!.resolution(of: .asr)?.source
            XCTAssertEqual(source, .date(back <= ahead ? before : after), "\(missing)")
        }
        XCTAssertEqual(ties, gap.count % 2, "a gap of odd length has one date in its middle")
    }

    func testAReferenceLatitudeIsTakenOnThePlacesSide() {
        let day = PrayerDay(solarDate: midwinter, settings: tromsø(.referenceLatitude(48.5)))!
        XCTAssertEqual(day.resolution(of: .sunrise)?.source, .latitude(48.5))
        XCTAssertEqual(day.resolution(of: .sunrise)?.gap, .sunDoesNotRise)
        var there = tromsø(.none)
        there.latitude = 48.5
        XCTAssertEqual(seconds(tromsø(.referenceLatitude(48.5)), midwinter, .sunrise), seconds(there, midwinter, .sunrise))
        XCTAssertNil(day.resolution(of: .fajr), "fajr exists in Tromsø's polar night: it stays her own")

        var south = PrayerSettings(latitude: -77.85, longitude: 166.67)
        south.polar = .referenceLatitude(48.5)
        XCTAssertEqual(PrayerDay(solarDate: midsummer, settings: south)!.resolution(of: .sunrise)?.source,
                       .latitude(-48.5))
    }

    func testAdjustMinutesApplyToResolvedTimes() {
        var adjusted = tromsø(.nearestLatitude)
        adjusted.adjustMinutes = [0, 0, 0, 0, 3, 0]
        XCTAssertEqual(seconds(adjusted, midsummer, .maghrib),
                       seconds(tromsø(.nearestLatitude), midsummer, .maghrib).map { $0 + 180 })
    }

    /// The published Adhan case (adhan-js test/adhan.test.ts, "calculating times for the polar circle"):
    /// Arjeplog, 66.7222444° N 17.7189° E, 2020-06-21, MWL, seventhOfNight, `AqrabYaum`: sunrise 00:54 and
    /// maghrib 23:36 (Europe/Stockholm). Adhan takes the whole day from the nearest date with a sunrise and
    /// sunset on it and the next day, trying the later date first; nudge takes only the missing times, from the
    /// nearest date with all of them, the earlier first. The dates differ by a day or two at most, and the
    /// times at the edge of the midnight sun change by minutes a day: within 15 minutes of Adhan's.
    func testArjeplogAgreesWithAdhansPublishedAqrabYaum() {
        var settings = PrayerSettings(latitude: 66.7222444, longitude: 17.7189)
        settings.highLatitude = .seventhOfNight
        settings.polar = .nearestDay
        let clock = WallClock(zone: Fixtures.zone("Europe/Stockholm"))
        let calendar = PrayerCalendar(settings: settings, clock: clock)!
        let date = LocalDate(year: 2020, month: 6, day: 21)!
        XCTAssertNotNil(calendar.resolution(of: .sunrise, on: date), "sunrise on 2020-06-21 is resolved")
        for (prayer, expected) in [(Prayer.sunrise, (date, 0, 54)), (.maghrib, (date, 23, 36))] {
            guard case let .success(local) = calendar.reading(of: prayer, on: date) else {
                return XCTFail("\(prayer) has no time")
            }
            let minutes = (local.date.daysSinceEpoch - expected.0.daysSinceEpoch) * 1440
                + local.hour * 60 + local.minute - (expected.1 * 60 + expected.2)
            XCTAssertLessThanOrEqual(abs(minutes), 15, "\(prayer): \(local) against Adhan's \(expected)")
        }
    }
}
