import Foundation
import XCTest

/// Times as people type them (docs/promises.md): every option that takes a time (`--now`, `--at`, `--departed`)
/// also takes `19:30` (today) and `2026-11-25T08:00`, read in the data directory's zone, and an instant with any
/// offset, seconds optional. The processes run with TZ=UTC: the zone that counts is settings.json's.
final class LocalTimeOptionTests: DataDirectoryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("streaks.json", #"{ "games": [ { "id": "wordle", "name": "Wordle" } ], "plays": [] }"# + "\n")
        try dir.write("trips.json", TripCommandTests.trips)
    }

    /// The `at` of the last play in streaks.json.
    private func lastPlay() throws -> String? {
        ((try dir.json("streaks.json")["plays"] as? [[String: Any]])?.last)?["at"] as? String
    }

    /// `nudge play wordle --at AT` at `now`; asserts it succeeded and returns the instant recorded.
    private func played(at: String, now: String = "2026-11-25T08:00:00Z", line: UInt = #line) throws -> String? {
        let result = try dir.nudge("play", now: now, "wordle", "--at", at)
        XCTAssertEqual(result.status, 0, result.summary, line: line)
        return try lastPlay()
    }

    func testATimeOfDayIsTodayInTheDataDirectorysZone() throws {
        let result = try dir.nudge("play", now: "2026-11-25T08:00:00Z", "wordle", "--at", "19:30")
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdoutLines.first, "Recorded a play of wordle at 2026-11-25 19:30.")
        XCTAssertEqual(try lastPlay(), "2026-11-25T18:30:00Z")
        // 00:30 on the 26th in Berlin is still the 25th in UTC: today is Berlin's date; later than now is today.
        XCTAssertEqual(try played(at: "19:30", now: "2026-11-25T23:30:00Z"), "2026-11-26T18:30:00Z")
        XCTAssertEqual(try played(at: "07:05:09"), "2026-11-25T06:05:09Z")
    }

    func testALocalDateTimeIsReadInTheZoneAndAnOffsetOrZIsTheInstantItNames() throws {
        XCTAssertEqual(try played(at: "2026-11-24T08:00"), "2026-11-24T07:00:00Z")
        XCTAssertEqual(try played(at: "2026-11-24T08:00:30"), "2026-11-24T07:00:30Z")
        XCTAssertEqual(try played(at: "2026-11-24 21:15"), "2026-11-24T20:15:00Z")
        XCTAssertEqual(try played(at: "2026-11-24T08:00+03:00"), "2026-11-24T05:00:00Z")
        XCTAssertEqual(try played(at: "2026-11-24T08:00Z"), "2026-11-24T08:00:00Z")
        XCTAssertEqual(try played(at: "2026-11-24T08:00:00-05:30"), "2026-11-24T13:30:00Z")
    }

    func testTheWallClockRuleAppliesInTheGapAndTheFold() throws {
        // 2026-03-29 02:30 does not exist in Berlin: the first instant after the gap, 03:00 CEST.
        XCTAssertEqual(try played(at: "2026-03-29T02:30"), "2026-03-29T01:00:00Z")
        // 2026-10-25 02:30 happens twice: the first, still CEST.
        XCTAssertEqual(try played(at: "2026-10-25T02:30"), "2026-10-25T00:30:00Z")
    }

    func testNowTakesALocalTimeInEveryCommand() throws {
        let run = try NudgeProcess.run(["run", "--json", "--data", dir.path, "--now", "2026-11-25T08:00"])
        XCTAssertEqual(run.status, 0, run.summary)
        XCTAssertEqual(try dir.status()["lastRunAt"] as? String, "2026-11-25T07:00:00Z")
        for arguments in [["plan", "--now", "19:30"], ["status", "--now", "2026-11-25T19:30"],
                          ["play", "wordle", "--now", "2026-11-25T19:30+01:00"],
                          ["trip", "depart", "office", "--now", "07:58"]] {
            let result = try NudgeProcess.run(arguments + ["--data", dir.path])
            XCTAssertEqual(result.status, 0, result.summary)
        }
        XCTAssertEqual(try lastPlay(), "2026-11-25T18:30:00Z")
    }

    /// A broken settings.json: runs plan in the zone of its last good version, and a typed time is read there too
    /// (before, commands read settings.json alone, fell back to the defaults, and so to the system's zone).
    func testABrokenSettingsFileReadsTypedTimesInTheZoneRunsPlanIn() throws {
        XCTAssertEqual(try dir.run(at: "2026-11-25T07:00:00Z").status, 0, "the run that saves the last good copy")
        for broken in [#"{ "timeZone": "Europe/Berlin", }"#, #"{ "timeZone": "Europe/Berlinn" }"#] {
            try dir.write("settings.json", broken + "\n")
            let plan = try dir.nudge("plan", now: "2026-11-25T08:00:00Z")
            XCTAssertTrue(plan.stdout.contains("Europe/Berlin (settings.json)"), plan.summary)
            XCTAssertEqual(try played(at: "19:30"), "2026-11-25T18:30:00Z", broken)
            let depart = try dir.nudge("trip", now: "2026-11-23T07:30:00Z", "depart", "office", "--at", "07:58")
            XCTAssertTrue(depart.stdout.hasPrefix("Office: left at 2026-11-23 07:58"), depart.summary)
        }
    }

    func testTripTimesAreReadTheSameWay() throws {
        let depart = try dir.nudge("trip", now: "2026-11-23T07:30:00Z", "depart", "office", "--at", "07:58")
        XCTAssertEqual(depart.status, 0, depart.summary)
        XCTAssertTrue(depart.stdout.hasPrefix("Office: left at 2026-11-23 07:58"), depart.summary)
        let log = try dir.nudge("trip", now: "2026-11-23T08:00:00Z", "log", "office", "31", "--departed",
                                "2026-11-22T07:40")
        XCTAssertEqual(log.status, 0, log.summary)
        let trips = try XCTUnwrap(try dir.json("trips.json")["trips"] as? [[String: Any]])
        let observation = try XCTUnwrap((trips[0]["observations"] as? [[String: Any]])?.last)
        XCTAssertEqual(observation["departedAt"] as? String, "2026-11-22T06:40:00Z")
    }

    func testBadTimesAreUsageErrorsThatChangeNothing() throws {
        let before = try dir.snapshot()
        for text in ["tomorrow", "25:00", "7:30", "19:30:60", "2026-11-25T08", "2026-02-30T08:00", "2026-11-25T08:00+3",
                     "1999-12-31T23:00", "2026-11-25T08:00:00+24:00", ""] {
            let result = try dir.nudge("play", now: "2026-11-25T08:00:00Z", "wordle", "--at", text)
            XCTAssertEqual(result.status, 64, result.summary)
            XCTAssertEqual(result.stdout, "", result.summary)
            XCTAssertTrue(result.stderr.hasPrefix("nudge play: --at expects a time such as 19:30 (today), "
                + "2026-11-25T08:00 or 2026-11-25T08:00:00Z"), result.summary)
            XCTAssertTrue(result.stderr.hasSuffix("not \"\(text)\"\n"), result.summary)
        }
        let now = try NudgeProcess.run(["run", "--data", dir.path, "--now", "soon"])
        XCTAssertEqual(now.status, 64, now.summary)
        XCTAssertTrue(now.stderr.contains("--now expects a time such as 19:30"), now.summary)
        XCTAssertEqual(try dir.snapshot(), before)
    }

    func testTheHelpAndTheManualSayWhatATimeMayBe() throws {
        for command in ["play", "trip", "run"] {
            let help = try NudgeProcess.run([command, "--help"])
            XCTAssertTrue(help.stdout.contains("19:30"), help.summary)
            XCTAssertTrue(help.stdout.contains("the data directory's zone"), help.summary)
        }
        let manual = try NudgeProcess.run(["man"])
        XCTAssertTrue(manual.stdout.contains("25T08:00"), "the manual names the local form")
        XCTAssertTrue(manual.stdout.contains("the data directory's zone"), "and the zone it is read in")
    }
}
