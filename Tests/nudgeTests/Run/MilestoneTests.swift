import Foundation
import XCTest

/// Streak milestones on the built binary (docs/files.md, "streaks.json"): announced once per game and milestone, the
/// highest of a jump only, remembered in state.json while streaks.json stays the user's.
final class MilestoneTests: DataDirectoryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
    }

    private func deliveredTitles(_ result: NudgeResult) -> [String] {
        result.stdoutLines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["title"] as? String
        }
    }

    func testTheSeventhDayOfADerivedStreakUnlocksItOnce() throws {
        let plays = (17...22).map { #"{ "game": "wordle", "at": "2026-11-\#($0)T19:00:00Z" }"# }
        try dir.write("streaks.json", #"{ "games": [ { "id": "wordle", "name": "Wordle" } ], "plays": [ "#
            + plays.joined(separator: ", ") + " ] }\n")
        try dir.run(at: "2026-11-23T06:00:00Z")
        XCTAssertEqual(try dir.outboxIDs(), [], "six days: nothing yet")

        let play = try dir.nudge("play", now: "2026-11-23T19:00:00Z", "wordle")
        XCTAssertEqual(play.status, 0, play.summary)
        XCTAssertEqual(try dir.outboxIDs(), ["streak.achievement:wordle-streak-7"])
        let outbox = try XCTUnwrap(try dir.outboxLines().first)
        XCTAssertTrue(outbox.contains("\"title\":\"Achievement unlocked: 7-day streak\""), outbox)
        XCTAssertTrue(outbox.contains("\"body\":\"7 days of Wordle in a row\""), outbox)
        let streaks = try dir.data("streaks.json")

        let later = try dir.run(at: "2026-11-24T19:00:00Z")
        XCTAssertEqual(deliveredTitles(later).filter { $0.hasPrefix("Achievement") }, [])
        XCTAssertEqual(try dir.data("streaks.json"), streaks, "the run writes nothing into streaks.json")
        let kept = try XCTUnwrap(try dir.json("state.json")["milestones"] as? [[String: Any]])
        XCTAssertEqual(kept.map { "\($0["game"] as? String ?? "") \($0["days"] as? Int ?? 0)" }, ["wordle 7"])
    }

    func testAGivenStreakJumpingPastSeveralAnnouncesOnlyTheHighestAndAnEmptyListTurnsThemOff() throws {
        try dir.write("streaks.json", #"{ "games": [ { "id": "wordle", "name": "Wordle", "streak": 3 } ] }"#)
        try dir.run(at: "2026-11-23T06:00:00Z")
        try dir.write("streaks.json", #"{ "games": [ { "id": "wordle", "name": "Wordle", "streak": 120 } ] }"#)
        let run = try dir.run(at: "2026-11-23T07:00:00Z")
        XCTAssertEqual(deliveredTitles(run), ["Achievement unlocked: 100-day streak"])

        let other = try makeDirectory()
        try other.write("settings.json", #"{ "timeZone": "Europe/Berlin", "streaks": { "milestones": [] } }"#)
        try other.write("streaks.json", #"{ "games": [ { "id": "wordle", "name": "Wordle", "streak": 3 } ] }"#)
        try other.run(at: "2026-11-23T06:00:00Z")
        try other.write("streaks.json", #"{ "games": [ { "id": "wordle", "name": "Wordle", "streak": 400 } ] }"#)
        XCTAssertEqual(deliveredTitles(try other.run(at: "2026-11-23T07:00:00Z")), [])
    }
}
