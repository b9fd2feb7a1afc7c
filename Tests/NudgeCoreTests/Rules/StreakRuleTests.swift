import XCTest
@testable import NudgeCore

/// The daily streak reminder (games at risk on a local date), achievements and imports.
final class StreakRuleTests: XCTestCase {
    private let saturday = Fixtures.date("2026-11-21")
    private let berlin = WallClock(zone: Fixtures.berlin)

    private let wordle = Game(id: "wordle", name: "Wordle", streak: 12)
    private let connections = Game(id: "connections", name: "Connections", streak: 3)
    private let mini = Game(id: "mini", name: "Mini", streak: 40)
    private let strands = Game(id: "strands", name: "Strands", streak: 1)
    private let spelling = Game(id: "spelling-bee", name: "Spelling Bee", streak: 7)

    private func play(_ game: String, _ instant: String) -> Play {
        Play(game: game, at: Fixtures.instant(instant))
    }

    private func body(_ games: [Game], plays: [Play] = []) -> String? {
        StreakRule.reminder(on: saturday, at: Fixtures.time("19:00"), data: StreakData(games: games, plays: plays),
                            settings: Settings(), clock: berlin)?.body
    }

    func testReminderRecordForOneGameAtRisk() {
        let reminder = StreakRule.reminder(on: saturday, at: Fixtures.time("19:00"), data: StreakData(games: [wordle]),
                                           settings: Settings(), clock: berlin)
        XCTAssertEqual(reminder, NudgeCore.Notification(
            id: "streak.reminder:streaks:2026-11-21", kind: .streakReminder, source: "streaks",
            fireAt: Fixtures.instant("2026-11-21T18:00:00Z"), expiresAt: Fixtures.instant("2026-11-21T23:00:00Z"),
            title: "Streaks at risk", body: "Don't lose your 12-day Wordle streak!", priority: .medium,
            category: "STREAK_REMINDER", actions: ["REMIND_TOMORROW", "MARK_PLAYED"], sound: true,
            badge: true, recurrence: .daily(date: saturday, time: Fixtures.time("19:00"))))
        XCTAssertEqual(reminder?.deepLink, "nudge://streak/streaks")
    }

    func testPlayNowIsOfferedOnlyWhenTheFirstGameAtRiskHasAURL() {
        let withURL = Game(id: "wordle", name: "Wordle", streak: 12, url: "https://www.nytimes.com/games/wordle")
        let mini = Game(id: "mini", name: "Mini", streak: 3)
        func actions(_ games: [Game]) -> [String]? {
            StreakRule.reminder(on: saturday, at: Fixtures.time("19:00"), data: StreakData(games: games),
                                settings: Settings(), clock: berlin)?.actions
        }
        XCTAssertEqual(actions([withURL, mini]), ["PLAY_NOW", "REMIND_TOMORROW", "MARK_PLAYED"])
        XCTAssertEqual(actions([mini, withURL]), ["REMIND_TOMORROW", "MARK_PLAYED"], "the first at risk has none")
        XCTAssertEqual(actions([wordle]), ["REMIND_TOMORROW", "MARK_PLAYED"])
    }

    func testBodyNamesTwoOrThreeGamesInFileOrder() {
        XCTAssertEqual(body([wordle, connections]), "Keep your streaks alive: Wordle and Connections.")
        XCTAssertEqual(body([wordle, connections, mini]), "Keep your streaks alive: Wordle, Connections and Mini.")
        XCTAssertEqual(body([mini, wordle]), "Keep your streaks alive: Mini and Wordle.")
    }

    func testBodyCountsMoreThanThreeGames() {
        XCTAssertEqual(body([wordle, connections, mini, strands, spelling]),
                       "5 streaks at risk: Wordle, Connections and 3 more.")
        XCTAssertEqual(body([wordle, connections, mini, strands]), "4 streaks at risk: Wordle, Connections and 2 more.")
    }

    func testOneDayStreakIsAtRisk() {
        XCTAssertEqual(body([strands]), "Don't lose your 1-day Strands streak!")
    }

    func testGameWithoutStreakIsNeverAtRisk() {
        let none = Game(id: "chess", name: "Chess", streak: 0)
        XCTAssertNil(body([none]))
        XCTAssertEqual(body([none, connections, Game(id: "mini", name: "Mini", streak: 0)]),
                       "Don't lose your 3-day Connections streak!")
    }

    func testReminderBodyUsesTheDerivedStreak() {
        let derived = Game(id: "wordle", name: "Wordle")
        let fiveDays = ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"].map {
            play("wordle", "\($0)T19:00:00Z")
        }
        XCTAssertEqual(body([derived], plays: fiveDays), "Don't lose your 5-day Wordle streak!")
        XCTAssertEqual(body([derived, connections], plays: fiveDays),
                       "Keep your streaks alive: Wordle and Connections.")
        XCTAssertNil(body([derived], plays: fiveDays + [play("wordle", "2026-11-21T07:00:00Z")]))
    }

    func testTomorrowsReminderCountsTodaysPlay() {
        let data = StreakData(games: [Game(id: "wordle", name: "Wordle")],
                              plays: [play("wordle", "2026-11-20T19:00:00Z"), play("wordle", "2026-11-21T07:00:00Z")])
        let sunday = StreakRule.reminder(on: Fixtures.date("2026-11-22"), at: Fixtures.time("19:00"), data: data,
                                         settings: Settings(), clock: berlin)
        XCTAssertEqual(sunday?.body, "Don't lose your 2-day Wordle streak!")
    }

    func testADerivedStreakOfZeroIsNeverAtRisk() {
        let derived = Game(id: "wordle", name: "Wordle")
        XCTAssertNil(body([derived]))
        // Last played the day before yesterday: the streak is lost already.
        XCTAssertNil(body([derived], plays: [play("wordle", "2026-11-19T19:00:00Z")]))
        XCTAssertEqual(body([derived, connections], plays: [play("wordle", "2026-11-19T19:00:00Z")]),
                       "Don't lose your 3-day Connections streak!")
    }

    func testAGivenZeroIsNotAtRiskWhateverThePlays() {
        let given = Game(id: "wordle", name: "Wordle", streak: 0)
        XCTAssertNil(body([given], plays: [play("wordle", "2026-11-19T19:00:00Z"),
                                           play("wordle", "2026-11-20T19:00:00Z")]))
    }

    func testPlayedGamesAreNotAtRisk() {
        let morning = play("wordle", "2026-11-21T08:00:00Z")
        XCTAssertEqual(body([wordle, connections], plays: [morning]), "Don't lose your 3-day Connections streak!")
        XCTAssertNil(body([wordle, connections], plays: [morning, play("connections", "2026-11-21T09:00:00Z")]))
    }

    func testAnyPlayOnTheDateCountsAlsoAfterTheReminderTime() {
        // 21:30Z is 22:30 in Berlin, after the 19:00 reminder but still on the 21st.
        XCTAssertNil(body([wordle], plays: [play("wordle", "2026-11-21T21:30:00Z")]))
        // 23:30Z is 00:30 on the 22nd in Berlin.
        XCTAssertEqual(body([wordle], plays: [play("wordle", "2026-11-21T23:30:00Z")]),
                       "Don't lose your 12-day Wordle streak!")
        // Yesterday's play does not protect today.
        XCTAssertEqual(body([wordle], plays: [play("wordle", "2026-11-20T19:00:00Z")]),
                       "Don't lose your 12-day Wordle streak!")
    }

    func testPlayJustBeforeLocalMidnightProtectsItsOwnLocalDate() {
        let newYork = WallClock(zone: Fixtures.newYork)
        // 04:30Z on the 22nd is 23:30 EST on the 21st.
        let data = StreakData(games: [wordle], plays: [play("wordle", "2026-11-22T04:30:00Z")])
        let time = Fixtures.time("19:00")
        XCTAssertNil(StreakRule.reminder(on: Fixtures.date("2026-11-21"), at: time, data: data, settings: Settings(),
                                         clock: newYork))
        let sunday = StreakRule.reminder(on: Fixtures.date("2026-11-22"), at: time, data: data, settings: Settings(),
                                         clock: newYork)
        XCTAssertEqual(sunday?.id, "streak.reminder:streaks:2026-11-22")
        XCTAssertEqual(sunday?.fireAt, Fixtures.instant("2026-11-23T00:00:00Z"))  // 19:00 EST
        XCTAssertEqual(sunday?.expiresAt, Fixtures.instant("2026-11-23T05:00:00Z"))
        // In UTC the same play falls on the 22nd.
        XCTAssertNil(StreakRule.reminder(on: Fixtures.date("2026-11-22"), at: time, data: data, settings: Settings(),
                                         clock: WallClock(zone: Fixtures.utc)))
    }

    func testGamesAtRiskKeepFileOrder() {
        let data = StreakData(games: [mini, wordle, connections], plays: [play("wordle", "2026-11-21T10:00:00Z")])
        XCTAssertEqual(StreakRule.gamesAtRisk(on: saturday, data: data, clock: berlin), [mini, connections])
        XCTAssertEqual(StreakRule.gamesAtRisk(on: saturday, data: StreakData(), clock: berlin), [])
    }

    func testReminderInSpringForwardGapFiresAtGapEnd() {
        let reminder = StreakRule.reminder(on: Fixtures.date("2026-03-29"), at: Fixtures.time("02:30"),
                                           data: StreakData(games: [wordle]), settings: Settings(), clock: berlin)
        XCTAssertEqual(reminder?.fireAt, Fixtures.instant("2026-03-29T01:00:00Z"))  // 03:00 CEST
        XCTAssertEqual(reminder?.expiresAt, Fixtures.instant("2026-03-29T22:00:00Z"))  // a 23-hour day
        XCTAssertEqual(reminder?.recurrence, .daily(date: Fixtures.date("2026-03-29"), time: Fixtures.time("02:30")))
    }

    func testSoundAndBadgeComeFromSettings() {
        var settings = Settings()
        settings.notifications.sound = false
        settings.notifications.badge = false
        let reminder = StreakRule.reminder(on: saturday, at: Fixtures.time("19:00"), data: StreakData(games: [wordle]),
                                           settings: settings, clock: berlin)
        XCTAssertEqual(reminder?.sound, false)
        XCTAssertEqual(reminder?.badge, false)
        let achievement = StreakRule.achievement(
            Achievement(id: "a-1", title: "T", description: "D", unlockedAt: Fixtures.instant("2026-11-21T07:59:00Z")),
            settings: settings)
        XCTAssertFalse(achievement.sound)
        XCTAssertFalse(achievement.badge)
    }

    func testAchievementRecord() {
        let centurion = Achievement(id: "a-100", title: "Centurion", description: "100 days of Wordle",
                                    unlockedAt: Fixtures.instant("2026-11-21T07:59:00Z"))
        let notification = StreakRule.achievement(centurion, settings: Settings())
        XCTAssertEqual(notification, NudgeCore.Notification(
            id: "streak.achievement:a-100:unlocked", kind: .achievement, source: "a-100",
            fireAt: Fixtures.instant("2026-11-21T07:59:00Z"), expiresAt: Fixtures.instant("2026-11-28T07:59:00Z"),
            title: "Achievement unlocked: Centurion", body: "100 days of Wordle", priority: .low,
            category: "ACHIEVEMENT", actions: ["VIEW_ACHIEVEMENT"], sound: true, badge: true, recurrence: .once))
        XCTAssertEqual(notification.deepLink, "nudge://streak/a-100")
    }

    func testImportRecord() {
        let result = ResultImport(id: "i-77", game: "wordle", importedAt: Fixtures.instant("2026-11-21T07:58:00Z"),
                                  summary: "3/6")
        let notification = StreakRule.imported(result, gameName: "Wordle", settings: Settings())
        XCTAssertEqual(notification, NudgeCore.Notification(
            id: "streak.imported:i-77:imported", kind: .imported, source: "i-77",
            fireAt: Fixtures.instant("2026-11-21T07:58:00Z"), expiresAt: Fixtures.instant("2026-11-28T07:58:00Z"),
            title: "Result imported", body: "Wordle: 3/6", priority: .low, category: "RESULT_IMPORTED",
            actions: ["VIEW_RESULTS"], sound: true, badge: true, recurrence: .once))
        XCTAssertEqual(notification.deepLink, "nudge://streak/i-77")
    }
}
