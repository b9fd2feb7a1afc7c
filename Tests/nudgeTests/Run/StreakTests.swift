import Foundation
import XCTest

/// Streaks (docs/files.md, "streaks.json") end to end: achievements and imports announced once, the daily reminder only
/// while a streak (given or derived from the plays) is at risk (and gone after `nudge play`), and the learned
/// ("smart") reminder time.
///
/// Europe/Berlin in November is UTC+1: 19:00 local is 18:00Z, and the local day ends at 23:00Z.
/// 2026-11-20 is a Friday.
final class StreakTests: DataDirectoryTestCase {
    private let berlin = Fixture.settings(timeZone: "Europe/Berlin")

    private func planned(_ id: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let pending = try dir.json("plan.json")["pending"] as? [[String: Any]] ?? []
        return try XCTUnwrap(pending.first { $0["id"] as? String == id }, "\(id) is not in plan.json: "
                             + ((try? dir.text("plan.json")) ?? "<no plan.json>"), file: file, line: line)
    }

    /// `nudge play ARGUMENTS… --data DIR --now NOW`.
    @discardableResult
    private func play(_ arguments: String..., now: String) throws -> NudgeResult {
        try NudgeProcess.run(["play"] + arguments + ["--data", dir.path, "--now", now], workingDirectory: dir.url)
    }

    // MARK: - Achievements and imports

    func testAchievementIsDeliveredOnceAcrossRuns() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("streaks.json", """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 0 } ],
              "achievements": [ { "id": "a-100", "title": "Centurion", "description": "100 days of Wordle",
                                  "unlockedAt": "2026-11-21T07:59:00Z" } ] }
            """)
        let id = "streak.achievement:a-100:unlocked"

        assertRun(try dir.run(at: "2026-11-21T07:50:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [id])
        XCTAssertEqual(try planned(id)["fireAt"] as? String, "2026-11-21T07:59:00Z")

        let result = try dir.run(at: "2026-11-21T08:05:00Z")
        assertRun(result, delivers: [id])
        let record = try XCTUnwrap(result.jsonLines().first)
        XCTAssertEqual(record["kind"] as? String, "streak.achievement")
        XCTAssertEqual(record["source"] as? String, "a-100")
        XCTAssertEqual(record["title"] as? String, "Achievement unlocked: Centurion")
        XCTAssertEqual(record["body"] as? String, "100 days of Wordle")
        XCTAssertEqual(record["priority"] as? String, "low")
        XCTAssertEqual(record["category"] as? String, "ACHIEVEMENT")
        XCTAssertEqual(record["actions"] as? [String], ["VIEW_ACHIEVEMENT"])
        XCTAssertEqual(record["fireAt"] as? String, "2026-11-21T07:59:00Z")
        XCTAssertEqual(record["expiresAt"] as? String, "2026-11-28T07:59:00Z")
        XCTAssertEqual(record["lateSeconds"] as? Int, 360)

        assertRun(try dir.run(at: "2026-11-21T08:10:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-23T08:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [id])
        XCTAssertEqual(try dir.plannedIDs(), [])
    }

    func testImportIsDeliveredOnceAcrossRuns() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("streaks.json", """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 0 } ],
              "imports": [ { "id": "i-77", "game": "wordle", "importedAt": "2026-11-21T07:58:00Z", "summary": "3/6" } ] }
            """)
        let id = "streak.imported:i-77:imported"

        assertRun(try dir.run(at: "2026-11-21T07:50:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [id])
        XCTAssertEqual(try planned(id)["fireAt"] as? String, "2026-11-21T07:58:00Z")

        let result = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(result, delivers: [id])
        let record = try XCTUnwrap(result.jsonLines().first)
        XCTAssertEqual(record["kind"] as? String, "streak.imported")
        XCTAssertEqual(record["source"] as? String, "i-77")
        XCTAssertEqual(record["title"] as? String, "Result imported")
        XCTAssertEqual(record["body"] as? String, "Wordle: 3/6")
        XCTAssertEqual(record["priority"] as? String, "low")
        XCTAssertEqual(record["category"] as? String, "RESULT_IMPORTED")
        XCTAssertEqual(record["actions"] as? [String], ["VIEW_RESULTS"])
        XCTAssertEqual(record["expiresAt"] as? String, "2026-11-28T07:58:00Z")
        XCTAssertEqual(record["lateSeconds"] as? Int, 120)

        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-22T08:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [id])
    }

    func testAchievementAddedWithinItsWeekIsAnnouncedAtOnceButNotAfterTheWeek() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("streaks.json", #"{ "games": [] }"#)
        assertRun(try dir.run(at: "2026-11-24T08:00:00Z"), delivers: [])

        // Unlocked three days ago (still within 7 days) and ten days ago (expired).
        try dir.write("streaks.json", """
            { "games": [],
              "achievements": [
                { "id": "a-7", "title": "Week one", "description": "7 days", "unlockedAt": "2026-11-21T08:00:00Z" },
                { "id": "a-1", "title": "First", "description": "1 day", "unlockedAt": "2026-11-14T08:00:00Z" } ] }
            """)
        let result = try dir.run(at: "2026-11-24T08:01:00Z")
        assertRun(result, delivers: ["streak.achievement:a-7:unlocked"])
        XCTAssertEqual(result.jsonLines().first?["lateSeconds"] as? Int, 3 * 86_400 + 60)
        assertRun(try dir.run(at: "2026-11-24T08:02:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), ["streak.achievement:a-7:unlocked"])
    }

    // MARK: - Daily reminder

    /// Wordle with a 12-day streak, last played on Thursday evening; Connections without a streak.
    private let streakedWordle = """
        { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 },
                     { "id": "connections", "name": "Connections", "streak": 0 } ],
          "plays": [ { "game": "wordle", "at": "2026-11-19T19:42:11Z" } ] }
        """

    func testReminderIsPlannedAt1900LocalAndDeliveredWhenTheStreakIsAtRisk() throws {
        try dir.write("settings.json", berlin)
        try dir.write("streaks.json", streakedWordle)
        let today = "streak.reminder:streaks:2026-11-20"

        assertRun(try dir.run(at: "2026-11-20T10:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [today])
        let record = try planned(today)
        XCTAssertEqual(record["kind"] as? String, "streak.reminder")
        XCTAssertEqual(record["source"] as? String, "streaks")
        XCTAssertEqual(record["fireAt"] as? String, "2026-11-20T18:00:00Z")
        XCTAssertEqual(record["expiresAt"] as? String, "2026-11-20T23:00:00Z")
        XCTAssertEqual(record["title"] as? String, "Streaks at risk")
        XCTAssertEqual(record["body"] as? String, "Don't lose your 12-day Wordle streak!")
        XCTAssertEqual(record["priority"] as? String, "medium")
        XCTAssertEqual(record["category"] as? String, "STREAK_REMINDER")
        // No game has a `url`: nothing for Play Now to open, so it is not offered (docs/files.md, "streaks.json").
        XCTAssertEqual(record["actions"] as? [String], ["REMIND_TOMORROW", "MARK_PLAYED"])

        let result = try dir.run(at: "2026-11-20T18:00:00Z")
        assertRun(result, delivers: [today])
        XCTAssertEqual(result.jsonLines().first?["lateSeconds"] as? Int, 0)
        XCTAssertEqual(result.jsonLines().first?["actions"] as? [String], ["REMIND_TOMORROW", "MARK_PLAYED"])
        assertRun(try dir.run(at: "2026-11-20T18:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["streak.reminder:streaks:2026-11-21"])
        XCTAssertEqual(try planned("streak.reminder:streaks:2026-11-21")["fireAt"] as? String,
                       "2026-11-21T18:00:00Z")
        XCTAssertEqual(try dir.outboxIDs(), [today])
    }

    func testPlayRemovesTodaysReminderAndThePlanShowsTomorrows() throws {
        try dir.write("settings.json", berlin)
        try dir.write("streaks.json", streakedWordle)
        assertRun(try dir.run(at: "2026-11-20T10:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["streak.reminder:streaks:2026-11-20"])

        let played = try play("wordle", now: "2026-11-20T12:00:00Z")
        XCTAssertEqual(played.status, 0, played.summary)

        assertRun(try dir.run(at: "2026-11-20T12:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["streak.reminder:streaks:2026-11-21"])
        XCTAssertEqual(try planned("streak.reminder:streaks:2026-11-21")["fireAt"] as? String,
                       "2026-11-21T18:00:00Z")

        // 19:00 local passes without a reminder; Saturday's comes, Wordle not yet played that day.
        assertRun(try dir.run(at: "2026-11-20T18:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T18:00:00Z"), delivers: ["streak.reminder:streaks:2026-11-21"])
        XCTAssertEqual(try dir.outboxIDs(), ["streak.reminder:streaks:2026-11-21"])
    }

    func testReminderNamesEveryGameAtRisk() throws {
        try dir.write("settings.json", berlin)
        try dir.write("streaks.json", """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 },
                         { "id": "connections", "name": "Connections", "streak": 3 },
                         { "id": "mini", "name": "Mini", "streak": 0 } ],
              "plays": [] }
            """)
        assertRun(try dir.run(at: "2026-11-20T10:00:00Z"), delivers: [])
        XCTAssertEqual(try planned("streak.reminder:streaks:2026-11-20")["body"] as? String,
                       "Keep your streaks alive: Wordle and Connections.")

        // Wordle played (23:30 local on Thursday does not count for Friday; 00:10 local on Friday does).
        let thursday = try play("wordle", "--at", "2026-11-19T22:30:00Z", now: "2026-11-20T10:01:00Z")
        XCTAssertEqual(thursday.status, 0, thursday.summary)
        assertRun(try dir.run(at: "2026-11-20T10:02:00Z"), delivers: [])
        XCTAssertEqual(try planned("streak.reminder:streaks:2026-11-20")["body"] as? String,
                       "Keep your streaks alive: Wordle and Connections.")
        let friday = try play("wordle", "--at", "2026-11-19T23:10:00Z", now: "2026-11-20T10:03:00Z")
        XCTAssertEqual(friday.status, 0, friday.summary)
        assertRun(try dir.run(at: "2026-11-20T10:04:00Z"), delivers: [])
        XCTAssertEqual(try planned("streak.reminder:streaks:2026-11-20")["body"] as? String,
                       "Don't lose your 3-day Connections streak!")
    }

    func testPlayAddOnSuccessiveDaysDerivesTheStreakTheReminderNames() throws {
        try dir.write("settings.json", berlin)
        for day in ["2026-11-18", "2026-11-19", "2026-11-20"] {
            let played = try play("wordle", "--add", now: "\(day)T12:00:00Z")
            XCTAssertEqual(played.status, 0, played.summary)
        }
        let games = try XCTUnwrap(try dir.json("streaks.json")["games"] as? [[String: Any]])
        XCTAssertEqual(games.map { Set($0.keys) }, [["id", "name"]], "one game, its streak derived")
        let saturday = "streak.reminder:streaks:2026-11-21"

        // Played on the 18th, 19th and 20th, not yet on the 21st: three days at risk.
        assertRun(try dir.run(at: "2026-11-21T10:00:00Z"), delivers: [])
        XCTAssertEqual(try planned(saturday)["body"] as? String, "Don't lose your 3-day wordle streak!")
        let result = try dir.run(at: "2026-11-21T18:00:00Z")
        assertRun(result, delivers: [saturday])
        XCTAssertEqual(result.jsonLines().first?["body"] as? String, "Don't lose your 3-day wordle streak!")
        XCTAssertEqual(try dir.outboxIDs(), [saturday], "no reminder while the game was played each day")
    }

    // MARK: - Smart reminder time

    /// Plays of the last 30 days clustered 20:00–21:59 local (19:xxZ and 20:xxZ), one at 08:05 local, and one
    /// older than 30 days that no longer counts.
    private let eveningPlays = """
        { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 } ],
          "plays": [
            { "game": "wordle", "at": "2026-10-01T11:00:00Z" },
            { "game": "wordle", "at": "2026-11-15T19:10:00Z" },
            { "game": "wordle", "at": "2026-11-16T19:40:00Z" },
            { "game": "wordle", "at": "2026-11-17T20:15:00Z" },
            { "game": "wordle", "at": "2026-11-18T07:05:00Z" },
            { "game": "wordle", "at": "2026-11-19T20:50:00Z" } ] }
        """

    func testSmartReminderTimeIsLearnedFromPlaysAndShownInPlanAndStatus() throws {
        try dir.write("settings.json", """
            { "timeZone": "Europe/Berlin", "streaks": { "smart": true } }
            """)
        try dir.write("streaks.json", eveningPlays)
        let today = "streak.reminder:streaks:2026-11-20"

        // Window 20:00–21:59 local (4 of 5 plays, 80 %) → reminder 19:30 local = 18:30Z.
        assertRun(try dir.run(at: "2026-11-20T10:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [today])
        XCTAssertEqual(try planned(today)["fireAt"] as? String, "2026-11-20T18:30:00Z")
        let smart = try XCTUnwrap(try dir.status()["smartReminder"] as? [String: Any])
        XCTAssertEqual(smart["time"] as? String, "19:30")
        XCTAssertEqual(smart["windowStartHour"] as? Int, 20)
        XCTAssertEqual(smart["coveragePercent"] as? Int, 80)
        XCTAssertEqual(smart["playCount"] as? Int, 5)
        XCTAssertEqual(smart["computedAt"] as? String, "2026-11-20T10:00:00Z")

        // The human status names the learned time too.
        let human = try NudgeProcess.run(["status", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(human.status, 0, human.summary)
        XCTAssertTrue(human.stdout.contains("19:30"), human.summary)
        XCTAssertTrue(human.stdout.contains("80"), human.summary)

        let result = try dir.run(at: "2026-11-20T18:30:00Z")
        assertRun(result, delivers: [today])
        XCTAssertEqual(result.jsonLines().first?["fireAt"] as? String, "2026-11-20T18:30:00Z")
    }

    func testSmartReminderTimeIsRecomputedAtMostEveryTwoDays() throws {
        try dir.write("settings.json", """
            { "timeZone": "Europe/Berlin", "streaks": { "smart": true } }
            """)
        try dir.write("streaks.json", eveningPlays)
        assertRun(try dir.run(at: "2026-11-20T10:00:00Z"), delivers: [])

        // Six afternoon plays (15:00–16:59 local) now outnumber the evening ones.
        try dir.write("streaks.json", """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 } ],
              "plays": [
                { "game": "wordle", "at": "2026-10-01T11:00:00Z" },
                { "game": "wordle", "at": "2026-11-15T19:10:00Z" },
                { "game": "wordle", "at": "2026-11-16T19:40:00Z" },
                { "game": "wordle", "at": "2026-11-17T20:15:00Z" },
                { "game": "wordle", "at": "2026-11-18T07:05:00Z" },
                { "game": "wordle", "at": "2026-11-19T20:50:00Z" },
                { "game": "wordle", "at": "2026-11-17T14:05:00Z" },
                { "game": "wordle", "at": "2026-11-17T15:05:00Z" },
                { "game": "wordle", "at": "2026-11-18T14:30:00Z" },
                { "game": "wordle", "at": "2026-11-18T15:30:00Z" },
                { "game": "wordle", "at": "2026-11-19T14:45:00Z" },
                { "game": "wordle", "at": "2026-11-19T15:45:00Z" } ] }
            """)

        // A day later: the learned time is kept.
        assertRun(try dir.run(at: "2026-11-21T10:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["streak.reminder:streaks:2026-11-21"])
        XCTAssertEqual(try planned("streak.reminder:streaks:2026-11-21")["fireAt"] as? String, "2026-11-21T18:30:00Z")
        var smart = try XCTUnwrap(try dir.status()["smartReminder"] as? [String: Any])
        XCTAssertEqual(smart["time"] as? String, "19:30")
        XCTAssertEqual(smart["computedAt"] as? String, "2026-11-20T10:00:00Z")

        // Two days after the computation: window 15:00–16:59 (6 of 11 plays, 55 %) → 14:30 local = 13:30Z.
        assertRun(try dir.run(at: "2026-11-22T10:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["streak.reminder:streaks:2026-11-22"])
        XCTAssertEqual(try planned("streak.reminder:streaks:2026-11-22")["fireAt"] as? String, "2026-11-22T13:30:00Z")
        smart = try XCTUnwrap(try dir.status()["smartReminder"] as? [String: Any])
        XCTAssertEqual(smart["time"] as? String, "14:30")
        XCTAssertEqual(smart["windowStartHour"] as? Int, 15)
        XCTAssertEqual(smart["coveragePercent"] as? Int, 55)
        XCTAssertEqual(smart["playCount"] as? Int, 11)
        XCTAssertEqual(smart["computedAt"] as? String, "2026-11-22T10:00:00Z")
    }

    func testManualReminderTimeIsUsedWhenSmartIsOff() throws {
        try dir.write("settings.json", """
            { "timeZone": "Europe/Berlin", "streaks": { "time": "20:15", "smart": false } }
            """)
        try dir.write("streaks.json", eveningPlays)
        assertRun(try dir.run(at: "2026-11-20T10:00:00Z"), delivers: [])
        XCTAssertEqual(try planned("streak.reminder:streaks:2026-11-20")["fireAt"] as? String, "2026-11-20T19:15:00Z")
        XCTAssertNil(try dir.status()["smartReminder"] as? [String: Any])
    }
}
