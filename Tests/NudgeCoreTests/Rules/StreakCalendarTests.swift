import XCTest
@testable import NudgeCore

/// Each game's streak on a local date, given or derived from the plays, and the games at risk (docs/files.md).
/// 2026-11-21 is a Saturday; Europe/Berlin is UTC+1 in November.
final class StreakCalendarTests: XCTestCase {
    private let saturday = Fixtures.date("2026-11-21")
    private let berlin = WallClock(zone: Fixtures.berlin)
    private let wordle = Game(id: "wordle", name: "Wordle")

    private func plays(_ game: String = "wordle", _ instants: String...) -> [Play] {
        instants.map { Play(game: game, at: Fixtures.instant($0)) }
    }

    /// The streaks of `games` on `date`.
    private func streaks(_ games: [Game], _ plays: [Play], on date: LocalDate,
                         clock: WallClock) -> [GameStreak] {
        StreakCalendar(StreakData(games: games, plays: plays), clock: clock).streaks(on: date)
    }

    /// The derived streak of Wordle on `date`.
    private func derived(_ plays: [Play], on date: String, clock: WallClock? = nil) -> Int? {
        streaks([wordle], plays, on: Fixtures.date(date), clock: clock ?? berlin).first?.value
    }

    // MARK: - Derived

    func testDerivedStreakEndsTodayWhenPlayedToday() {
        let days = plays("wordle", "2026-11-18T19:00:00Z", "2026-11-19T19:00:00Z", "2026-11-20T19:00:00Z",
                         "2026-11-21T08:00:00Z")
        XCTAssertEqual(streaks([wordle], days, on: saturday, clock: berlin),
                       [GameStreak(game: wordle, value: 4, isDerived: true)])
    }

    func testDerivedStreakEndsYesterdayWhenNotPlayedToday() {
        XCTAssertEqual(derived(plays("wordle", "2026-11-18T19:00:00Z", "2026-11-19T19:00:00Z", "2026-11-20T19:00:00Z"),
                               on: "2026-11-21"), 3)
    }

    func testDerivedStreakIsZeroWhenPlayedNeitherTodayNorYesterday() {
        XCTAssertEqual(derived(plays("wordle", "2026-11-17T19:00:00Z", "2026-11-18T19:00:00Z", "2026-11-19T19:00:00Z"),
                               on: "2026-11-21"), 0)
        XCTAssertEqual(derived([], on: "2026-11-21"), 0)
        // Plays after the date do not count for it.
        XCTAssertEqual(derived(plays("wordle", "2026-11-22T19:00:00Z"), on: "2026-11-21"), 0)
    }

    func testAGapEndsTheRun() {
        let days = plays("wordle", "2026-11-14T19:00:00Z", "2026-11-15T19:00:00Z", "2026-11-16T19:00:00Z",
                         "2026-11-18T19:00:00Z", "2026-11-19T19:00:00Z", "2026-11-20T19:00:00Z")
        XCTAssertEqual(derived(days, on: "2026-11-21"), 3)
        XCTAssertEqual(derived(days, on: "2026-11-17"), 3)
        XCTAssertEqual(derived(days, on: "2026-11-18"), 1)
    }

    func testSeveralPlaysOnOneDateCountItOnce() {
        let days = plays("wordle", "2026-11-20T19:00:00Z", "2026-11-20T07:00:00Z", "2026-11-20T22:59:59Z",
                         "2026-11-19T23:00:00Z", "2026-11-21T09:00:00Z", "2026-11-21T10:00:00Z")
        XCTAssertEqual(derived(days, on: "2026-11-21"), 2)
    }

    func testPlaysCountOnTheirLocalDateNotTheirUTCDate() {
        // 04:30Z is 23:30 EST on the date before: local dates 18, 19 and 20; UTC dates 19, 20 and 21.
        let lateEvenings = plays("wordle", "2026-11-19T04:30:00Z", "2026-11-20T04:30:00Z", "2026-11-21T04:30:00Z")
        XCTAssertEqual(derived(lateEvenings, on: "2026-11-20", clock: WallClock(zone: Fixtures.newYork)), 3)
        XCTAssertEqual(derived(lateEvenings, on: "2026-11-20", clock: WallClock(zone: Fixtures.utc)), 2)
        XCTAssertEqual(derived(lateEvenings, on: "2026-11-22", clock: WallClock(zone: Fixtures.newYork)), 0)
        XCTAssertEqual(derived(lateEvenings, on: "2026-11-22", clock: WallClock(zone: Fixtures.utc)), 3)
        // 23:30Z is 00:30 on the next date in Berlin.
        XCTAssertEqual(derived(plays("wordle", "2026-11-19T23:30:00Z", "2026-11-20T23:30:00Z"), on: "2026-11-21"), 2)
    }

    func testDaylightSavingDaysInBerlin() {
        // 2026-03-29 has 23 hours: 00:30 CET on the 28th and 29th, 23:59:59 CEST on the 29th, 00:30 CEST on
        // the 30th. In UTC the same plays fall on the 27th, 28th and 29th.
        let spring = plays("wordle", "2026-03-27T23:30:00Z", "2026-03-28T23:30:00Z", "2026-03-29T21:59:59Z",
                           "2026-03-29T22:30:00Z")
        XCTAssertEqual(derived(spring, on: "2026-03-31"), 3)
        XCTAssertEqual(derived(spring, on: "2026-03-31", clock: WallClock(zone: Fixtures.utc)), 0)
        XCTAssertEqual(derived(spring, on: "2026-03-30", clock: WallClock(zone: Fixtures.utc)), 3)
        // 2026-10-25 has 25 hours: 02:30 comes twice (00:30Z CEST and 01:30Z CET), 23:59:59 CET is 22:59:59Z.
        let autumn = plays("wordle", "2026-10-24T12:00:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z",
                           "2026-10-25T22:59:59Z", "2026-10-25T23:00:00Z")
        XCTAssertEqual(derived(autumn, on: "2026-10-26"), 3)
        XCTAssertEqual(derived(Array(autumn.prefix(4)), on: "2026-10-26"), 2)
    }

    func testAZoneChangeRedatesTheSamePlays() {
        // In Auckland (UTC+13) the plays fall on the 19th (23:30), 20th (00:30) and 21st (00:30), and `now`
        // on the 21st; in Los Angeles (UTC−8) on the 19th twice and the 20th, and `now` on the 20th.
        let travelled = plays("wordle", "2026-11-19T10:30:00Z", "2026-11-19T11:30:00Z", "2026-11-20T11:30:00Z")
        let now = Fixtures.instant("2026-11-20T12:00:00Z")
        let auckland = WallClock(zone: Fixtures.auckland)
        let losAngeles = WallClock(zone: Fixtures.losAngeles)
        XCTAssertEqual(auckland.localDate(of: now), Fixtures.date("2026-11-21"))
        XCTAssertEqual(losAngeles.localDate(of: now), Fixtures.date("2026-11-20"))
        XCTAssertEqual(StreakRule.streaks(on: auckland.localDate(of: now), data: StreakData(games: [wordle],
                                                                                              plays: travelled),
                                          clock: auckland).map(\.value), [3])
        XCTAssertEqual(StreakRule.streaks(on: losAngeles.localDate(of: now), data: StreakData(games: [wordle],
                                                                                                plays: travelled),
                                          clock: losAngeles).map(\.value), [2])
    }

    func testEachGameCountsOnlyItsOwnPlays() {
        let mini = Game(id: "mini", name: "Mini")
        let both = plays("wordle", "2026-11-19T19:00:00Z", "2026-11-20T19:00:00Z")
            + plays("mini", "2026-11-18T19:00:00Z", "2026-11-21T08:00:00Z")
        XCTAssertEqual(streaks([mini, wordle], both, on: saturday, clock: berlin).map(\.value), [1, 2])
    }

    func testTenYearsOfDailyPlays() {
        let start = Fixtures.instant("2016-11-22T19:00:00Z")
        let daily = (0..<3_652).map { Play(game: "wordle", at: start.addingTimeInterval(Double($0) * 86_400)) }
        XCTAssertEqual(derived(daily.reversed(), on: "2026-11-21"), 3_652)
    }

    // MARK: - Given

    func testAGivenStreakIsUsedAsGivenWhateverThePlays() {
        let zero = Game(id: "wordle", name: "Wordle", streak: 0)
        let seven = Game(id: "mini", name: "Mini", streak: 7)
        let days = plays("wordle", "2026-11-20T19:00:00Z", "2026-11-21T08:00:00Z")
        XCTAssertEqual(streaks([zero, seven], days, on: saturday, clock: berlin), [
            GameStreak(game: zero, value: 0, isDerived: false), GameStreak(game: seven, value: 7, isDerived: false),
        ])
        let calendar = StreakCalendar(StreakData(games: [zero, seven], plays: days), clock: berlin)
        XCTAssertEqual(calendar.atRisk(on: saturday), [GameStreak(game: seven, value: 7, isDerived: false)])
    }

    // MARK: - At risk

    func testADerivedStreakAtRiskIsTheRunEndingTheDayBefore() {
        let calendar = StreakCalendar(StreakData(games: [wordle], plays: plays(
            "wordle", "2026-11-18T19:00:00Z", "2026-11-19T19:00:00Z", "2026-11-20T19:00:00Z")), clock: berlin)
        XCTAssertEqual(calendar.atRisk(on: saturday), [GameStreak(game: wordle, value: 3, isDerived: true)])
        // Played on the 20th: safe that day.
        XCTAssertEqual(calendar.atRisk(on: Fixtures.date("2026-11-20")), [])
        // Not played on the 21st: nothing is left to lose on the 22nd.
        XCTAssertEqual(calendar.atRisk(on: Fixtures.date("2026-11-22")), [])
    }

    func testADerivedZeroIsNeverAtRisk() {
        let old = plays("wordle", "2026-11-18T19:00:00Z", "2026-11-19T19:00:00Z")
        XCTAssertEqual(StreakCalendar(StreakData(games: [wordle], plays: old), clock: berlin).atRisk(on: saturday), [])
        XCTAssertEqual(StreakCalendar(StreakData(games: [wordle]), clock: berlin).atRisk(on: saturday), [])
    }

    func testGivenAndDerivedAtRiskKeepFileOrder() {
        let mini = Game(id: "mini", name: "Mini", streak: 40)
        let chess = Game(id: "chess", name: "Chess", streak: 2)
        let data = StreakData(games: [wordle, mini, chess],
                              plays: plays("wordle", "2026-11-20T19:00:00Z") + plays("chess", "2026-11-21T10:00:00Z"))
        XCTAssertEqual(StreakCalendar(data, clock: berlin).atRisk(on: saturday), [
            GameStreak(game: wordle, value: 1, isDerived: true), GameStreak(game: mini, value: 40, isDerived: false),
        ])
    }
}
