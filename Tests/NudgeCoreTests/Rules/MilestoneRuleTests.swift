import XCTest
@testable import NudgeCore

/// Streak milestones (docs/files.md, "streaks.json"): reached once per game and milestone, a jump announces only the
/// highest, kept in state; the first run ever keeps them silently.
final class MilestoneRuleTests: XCTestCase {
    private let now = Fixtures.instant("2026-11-23T18:00:00Z")
    private let wordle = Game(id: "wordle", name: "Wordle", streak: 30)

    private func streak(_ value: Int, game: Game? = nil) -> GameStreak {
        GameStreak(game: game ?? wordle, value: value, isDerived: false)
    }

    func testReachingThirtyAfterSevenAnnouncesThirty() {
        let kept = [Milestone(game: "wordle", days: 7, announcedAt: Fixtures.instant("2026-10-31T18:00:00Z"))]
        let updated = MilestoneRule.update(kept, streaks: [streak(30)], settings: Settings(), now: now)
        XCTAssertEqual(updated.last, Milestone(game: "wordle", days: 30, announcedAt: now))
        let achievement = MilestoneRule.achievement(updated[1], unlockedAt: now, gameName: "Wordle", settings: Settings())
        XCTAssertEqual(achievement.id, "streak.achievement:wordle-streak-30")
        XCTAssertEqual(achievement.title, "Achievement unlocked: 30-day streak")
        XCTAssertEqual(achievement.body, "30 days of Wordle in a row")
        XCTAssertEqual(achievement.kind, .achievement)
        XCTAssertEqual(achievement.priority, .low)
        XCTAssertEqual(achievement.fireAt, now)
        XCTAssertEqual(achievement.expiresAt, Fixtures.instant("2026-11-30T18:00:00Z"))
        XCTAssertEqual(MilestoneRule.update(updated, streaks: [streak(31)], settings: Settings(), now: now), updated)
    }

    func testAJumpPastSeveralAnnouncesOnlyTheHighest() {
        let updated = MilestoneRule.update([], streaks: [streak(120)], settings: Settings(), now: now)
        XCTAssertEqual(updated.map(\.days), [7, 30, 100])
        XCTAssertEqual(updated.map(\.announcedAt), [nil, nil, now])
    }

    func testOffWithAnEmptyListAndSilentOnTheFirstRun() {
        var settings = Settings()
        settings.streaks.milestones = []
        XCTAssertEqual(MilestoneRule.update([], streaks: [streak(400)], settings: settings, now: now), [])
        let first = MilestoneRule.update([], streaks: [streak(8)], settings: Settings(), now: now, announcing: false)
        XCTAssertEqual(first, [Milestone(game: "wordle", days: 7, announcedAt: nil)])
    }

    func testALostStreakThatGrowsAgainIsNotAnnouncedTwice() {
        let once = MilestoneRule.update([], streaks: [streak(7)], settings: Settings(), now: now)
        let lost = MilestoneRule.update(once, streaks: [streak(0)], settings: Settings(), now: now)
        XCTAssertEqual(MilestoneRule.update(lost, streaks: [streak(7)], settings: Settings(), now: now), once)
    }

    func testPlannerAnnouncesADerivedSeventhDayAsOfTheRunsLocalDate() {
        // Plays on seven consecutive Berlin dates, the last at 00:30 on the 23rd local (23:30Z on the 22nd).
        let plays = (0..<7).map { day in
            Play(game: "wordle", at: Fixtures.instant("2026-11-16T23:30:00Z").addingTimeInterval(Double(day) * 86_400))
        }
        let data = StreakData(games: [Game(id: "wordle", name: "Wordle")], plays: plays)
        var previous = RunState()
        previous.lastRunAt = Fixtures.instant("2026-11-22T23:00:00Z")
        previous.timeZone = "Europe/Berlin"
        let household = Household(settings: Fixtures.settings(), streaks: data)
        let result = Planner.plan(household, previous: previous, now: Fixtures.instant("2026-11-22T23:31:00Z"),
                                  zone: Fixtures.berlin)
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["streak.achievement:wordle-streak-7"])
        XCTAssertEqual(result.deliveries.first?.notification.body, "7 days of Wordle in a row")
        let again = Planner.plan(household, previous: result.state, now: Fixtures.instant("2026-11-22T23:32:00Z"),
                                 zone: Fixtures.berlin)
        XCTAssertEqual(again.deliveries, [])

        var settings = Fixtures.settings()
        settings.streaks.milestones = []
        let off = Planner.plan(Household(settings: settings, streaks: data), previous: previous,
                               now: Fixtures.instant("2026-11-22T23:31:00Z"), zone: Fixtures.berlin)
        XCTAssertEqual(off.deliveries, [])
        XCTAssertEqual(off.state.milestones, [])
    }

    func testSettingsReadTheMilestonesSortedAndReportABadOneByItsKeyPath() {
        let (settings, _) = UserFileDecoder.settings(Array(#"{ "streaks": { "milestones": [30, 7, 30] } }"#.utf8),
                                                     zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(settings?.streaks.milestones, [7, 30])
        XCTAssertEqual(UserFileDecoder.settings(Array(#"{ "streaks": { "milestones": [] } }"#.utf8),
                                                zoneNamed: Fixtures.zoneNamed).0?
            .streaks.milestones, [])
        XCTAssertEqual(Settings().streaks.milestones, [7, 30, 100, 365])
        let (bad, report) = UserFileDecoder.settings(Array(#"{ "streaks": { "milestones": [7, 0] } }"#.utf8),
                                                     zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(bad?.streaks.milestones, [7, 30, 100, 365], "the invalid setting is at its default")
        XCTAssertEqual(report.brokenSettings, [.streaks])
        XCTAssertTrue(report.problems.map(\.description).joined().contains("streaks.milestones[1]"),
                      report.problems.map(\.description).joined())
    }
}
