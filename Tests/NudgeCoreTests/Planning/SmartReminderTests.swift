import XCTest
@testable import NudgeCore

/// Keeping the learned streak reminder time in state (docs/files.md): recomputed at most every two days.
final class SmartReminderTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)

    private func settings(smart: Bool) -> Settings {
        var settings = Fixtures.settings()
        settings.streaks.smart = smart
        return settings
    }

    private func plays(atLocalHour hour: Int, days: ClosedRange<Int>) -> [Play] {
        days.map { day in
            Play(game: "wordle", at: clock.instant(on: Fixtures.date("2026-11-01").adding(days: day),
                                                   at: WallTime(hour: hour, minute: 10)!))
        }
    }

    func testLearnedTimeIsKeptForTwoDaysThenRecomputed() throws {
        let now = Fixtures.instant("2026-11-21T10:00:00Z")
        let evening = StreakData(games: [Game(id: "wordle", name: "Wordle", streak: 3)],
                                 plays: plays(atLocalHour: 20, days: 0...19))
        let first = try XCTUnwrap(SmartReminder.update(nil, streaks: evening, settings: settings(smart: true),
                                                       now: now, clock: clock))
        // Every play at 20:xx: windows 19–21 and 20–22 tie; the earliest start wins → 18:30.
        XCTAssertEqual(first.result.time, Fixtures.time("18:30"))
        XCTAssertEqual(first.computedAt, now)

        let morning = StreakData(games: evening.games, plays: plays(atLocalHour: 9, days: 0...19))
        let nextDay = SmartReminder.update(first, streaks: morning, settings: settings(smart: true),
                                           now: now.addingTimeInterval(86_400), clock: clock)
        XCTAssertEqual(nextDay, first)
        let twoDaysLater = try XCTUnwrap(SmartReminder.update(
            first, streaks: morning, settings: settings(smart: true), now: now.addingTimeInterval(2 * 86_400),
            clock: clock))
        XCTAssertEqual(twoDaysLater.result.time, Fixtures.time("07:30"))
    }

    func testManualTimeAppliesWhenSmartIsOffOrNothingWasLearned() throws {
        var manual = settings(smart: false)
        manual.streaks.time = Fixtures.time("20:15")
        let kept = SmartReminder(result: SmartReminderTime.Result(time: Fixtures.time("18:30"), windowStartHour: 19,
                                                                  coveragePercent: 100, playCount: 20),
                                 computedAt: Fixtures.instant("2026-11-21T10:00:00Z"))
        XCTAssertEqual(SmartReminder.reminderTime(kept, settings: manual), Fixtures.time("20:15"))
        XCTAssertEqual(SmartReminder.reminderTime(nil, settings: settings(smart: true)), Fixtures.time("19:00"))
        XCTAssertEqual(SmartReminder.reminderTime(kept, settings: settings(smart: true)), Fixtures.time("18:30"))
        XCTAssertNil(SmartReminder.update(nil, streaks: StreakData(), settings: settings(smart: true),
                                          now: Fixtures.instant("2026-11-21T10:00:00Z"), clock: clock))
    }

    func testPlanUsesTheLearnedTimeAndStateKeepsIt() {
        var household = Household(settings: settings(smart: true))
        household.streaks = StreakData(games: [Game(id: "wordle", name: "Wordle", streak: 12)],
                                       plays: plays(atLocalHour: 20, days: 0...19))
        var previous = RunState()
        previous.lastRunAt = Fixtures.instant("2026-11-21T09:59:00Z")
        let result = Planner.plan(household, previous: previous, now: Fixtures.instant("2026-11-21T10:00:00Z"),
                                  zone: Fixtures.berlin)
        let reminder = result.plan.pending.first { $0.kind == .streakReminder }
        XCTAssertEqual(reminder?.id, "streak.reminder:streaks:2026-11-21")
        XCTAssertEqual(reminder?.fireAt, Fixtures.instant("2026-11-21T17:30:00Z"))  // 18:30 Berlin
        XCTAssertEqual(reminder?.body, "Don't lose your 12-day Wordle streak!")
        XCTAssertEqual(result.state.smartReminder?.result.time, Fixtures.time("18:30"))
        XCTAssertEqual(result.state.smartReminder?.computedAt, Fixtures.instant("2026-11-21T10:00:00Z"))
    }

    func testAPlayTodayRemovesTodaysReminder() {
        var household = Household(settings: settings(smart: false))
        household.streaks = StreakData(games: [Game(id: "wordle", name: "Wordle", streak: 12)],
                                       plays: [Play(game: "wordle", at: Fixtures.instant("2026-11-21T09:00:00Z"))])
        var previous = RunState()
        previous.lastRunAt = Fixtures.instant("2026-11-21T09:59:00Z")
        let result = Planner.plan(household, previous: previous, now: Fixtures.instant("2026-11-21T10:00:00Z"),
                                  zone: Fixtures.berlin)
        XCTAssertEqual(result.plan.pending.filter { $0.kind == .streakReminder }.map(\.id),
                       ["streak.reminder:streaks:2026-11-22"])
    }
}
