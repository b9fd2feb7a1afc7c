import XCTest
@testable import NudgeCore

/// `DueWindow.passesOver` lets the planner skip a whole date of alarms: it may only say so for a date on which
/// no occurrence is upcoming, due or missed, whatever the previous run, the clock's direction or travel.
final class DueWindowTests: XCTestCase {
    func testPassedOverDatesHoldNothingUpcomingDueOrMissed() {
        let now = Fixtures.instant("2026-11-21T10:00:00Z")
        let previousRuns: [String?] = [nil, "2026-11-21T10:00:00Z", "2026-11-21T09:59:00Z", "2026-11-18T22:00:00Z",
                                       "2026-11-23T06:00:00Z", "2026-11-20T23:30:00Z"]
        var passedOver = 0
        for zone in [Fixtures.berlin, Fixtures.tokyo, Fixtures.losAngeles] {
            let clock = WallClock(zone: zone)
            for previousRun in previousRuns {
                for previousZone in ["Europe/Berlin", "Asia/Tokyo", "America/Los_Angeles"] {
                    var previous: RunState?
                    if let previousRun {
                        var state = RunState()
                        state.lastRunAt = Fixtures.instant(previousRun)
                        state.timeZone = previousZone
                        previous = state
                    }
                    let window = DueWindow(previous: previous, now: now, zone: zone,
                                           previousZone: Fixtures.zone(previousZone))
                    var date = Fixtures.date("2026-11-16")
                    while date <= Fixtures.date("2026-11-24") {
                        defer { date = date.adding(days: 1) }
                        guard window.passesOver(date, endingAt: clock.endOfDay(date)) else { continue }
                        passedOver += 1
                        for minute in stride(from: 0, to: 1_440, by: 10) {
                            let time = WallTime(hour: minute / 60, minute: minute % 60)!
                            let fireAt = clock.instant(on: date, at: time)
                            XCTAssertLessThanOrEqual(fireAt, now)
                            XCTAssertEqual(window.classify(fireAt: fireAt, expiresAt: fireAt.addingTimeInterval(1_800),
                                                           recurrence: .daily(date: date, time: time)), .notDue,
                                           "\(zone.identifier) \(previousRun ?? "first") \(previousZone) \(date) \(time)")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(passedOver, 50)
    }

    func testTheDayOfNowAndDaysAfterTheLastRunAreNotPassedOver() {
        var previous = RunState()
        previous.lastRunAt = Fixtures.instant("2026-11-19T12:00:00Z")
        previous.timeZone = "Europe/Berlin"
        let clock = WallClock(zone: Fixtures.berlin)
        let window = DueWindow(previous: previous, now: Fixtures.instant("2026-11-21T10:00:00Z"), zone: Fixtures.berlin,
                               previousZone: Fixtures.berlin)
        let passed = ["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"].map {
            window.passesOver(Fixtures.date($0), endingAt: clock.endOfDay(Fixtures.date($0)))
        }
        XCTAssertEqual(passed, [true, false, false, false])
    }
}
