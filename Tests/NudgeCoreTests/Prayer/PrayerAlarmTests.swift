import Foundation
import XCTest
@testable import NudgeCore

/// Alarms that follow the sun, planned (docs/prayer-times.md): computed times through `WallClock`, one
/// occurrence per local date with the ids of any alarm.
final class PrayerAlarmTests: XCTestCase {
    private func household(_ prayer: Prayer, offset: Int = 0, latitude: Double = 52.52, longitude: Double = 13.405,
                           rule: HighLatitudeRule = .angleBased) -> Household {
        var settings = Settings()
        var prayerTimes = PrayerSettings(latitude: latitude, longitude: longitude)
        prayerTimes.highLatitude = rule
        settings.prayerTimes = prayerTimes
        let alarm = Alarm(id: prayer.rawValue, title: "Prayer", schedule: .prayer(prayer, offsetMinutes: offset))
        return Household(settings: settings, alarms: [alarm])
    }

    func testPlanHoldsTheComputedTimeMovedByTheOffset() {
        let result = Planner.plan(household(.maghrib, offset: -5), previous: nil,
                                  now: Fixtures.instant("2026-11-21T10:00:00Z"), zone: Fixtures.berlin)
        XCTAssertEqual(result.plan.pending.map(\.id), ["alarm.prayer:maghrib:2026-11-21"])
        XCTAssertEqual(result.plan.pending.first?.fireAt, Fixtures.instant("2026-11-21T15:00:00Z"))
        XCTAssertEqual(result.plan.pending.first?.category, "PRAYER_ALARM")
        XCTAssertEqual(result.plan.pending.first?.priority, .critical)
    }

    /// After today's sunset the next occurrence is tomorrow's, at tomorrow's (earlier) time.
    func testNextOccurrenceIsTomorrowsComputedTime() {
        let result = Planner.plan(household(.maghrib), previous: nil, now: Fixtures.instant("2026-11-21T16:00:00Z"),
                                  zone: Fixtures.berlin)
        XCTAssertEqual(result.plan.pending.map(\.id), ["alarm.prayer:maghrib:2026-11-22"])
        XCTAssertEqual(result.plan.pending.first?.fireAt, Fixtures.instant("2026-11-22T15:04:00Z"))
    }

    /// Midnight sun in Tromsø: maghrib has no occurrence on any planned day, and nothing else is made up.
    func testMidnightSunPlansNoSunsetAlarm() {
        let result = Planner.plan(household(.maghrib, latitude: 69.6492, longitude: 18.9553), previous: nil,
                                  now: Fixtures.instant("2026-06-21T10:00:00Z"), zone: Fixtures.zone("Europe/Oslo"))
        XCTAssertEqual(result.plan.pending, [])
    }

    /// Runs every 90 minutes through a year in Oslo, where isha under the middle-of-the-night rule crosses
    /// midnight in summer: every occurrence that falls due (delivered, or missed between the sparse runs) is on
    /// the local date of its id, and no id falls due twice.
    func testAYearOfRunsRingsOncePerLocalDateOnThatDate() {
        let oslo = Fixtures.zone("Europe/Oslo")
        let clock = WallClock(zone: oslo)
        let household = household(.isha, latitude: 59.9139, longitude: 10.7522, rule: .middleOfNight)
        var state: RunState?
        var now = Fixtures.instant("2026-01-01T00:00:00Z")
        var ids = Set<String>()
        var dates = Set<LocalDate>()
        while now < Fixtures.instant("2027-01-01T00:00:00Z") {
            let result = Planner.plan(household, previous: state, now: now, zone: oslo)
            let fallenDue = result.deliveries.filter { $0.notification.kind != .missedDigest }
                .map { ($0.notification.id, $0.notification.fireAt) }
                + result.missed.map { ($0.id, $0.fireAt) }
            for (id, fireAt) in fallenDue {
                XCTAssertTrue(ids.insert(id).inserted, "twice: \(id)")
                let date = clock.localDate(of: fireAt)
                XCTAssertEqual(id, "alarm.prayer:isha:\(date)")
                dates.insert(date)
            }
            state = result.state
            now = now.addingTimeInterval(5_400)
        }
        XCTAssertGreaterThanOrEqual(dates.count, 362)
    }
}
