import Foundation
import XCTest

/// `settings.json` end to end (docs/files.md, "settings.json"): zone, budget, master switch, quiet hours, the
/// desktop command, unknown keys.
final class SettingsTests: DataDirectoryTestCase {
    /// A mistyped zone falls back alone (docs/promises.md): the zone keeps its last good value, the rest of
    /// settings.json (here maxPending) applies as written, and the error names the closest IANA name.
    func testAMistypedZoneFallsBackAloneAndNamesTheClosestZone() throws {
        try dir.write("settings.json", #"{ "timeZone": "Europe/Istanbul", "maxPending": 64 }"#)
        try dir.write("alarms.json", Fixture.alarm(time: "09:00", durationMinutes: 60))  // 06:00Z in Istanbul
        assertRun(try dir.run(at: "2026-11-21T05:00:00Z"), delivers: [])
        try dir.write("settings.json", #"{ "timeZone": "Europe/Istambul", "maxPending": 1 }"#)
        let result = try dir.run(at: "2026-11-21T06:00:00Z")
        assertRun(result, exit: 65, delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(result.stderrLines, [
            "\(dir.path)/settings.json: timeZone: \"Europe/Istambul\" is not a known time zone (expected an IANA "
                + "name such as \"Europe/Berlin\"; did you mean Europe/Istanbul?)",
            "nudge: settings.json: timeZone keeps its last good value until it is fixed; the other settings apply",
        ])
        let plan = try dir.json("plan.json")
        XCTAssertEqual(plan["timeZone"] as? String, "Europe/Istanbul")
        XCTAssertEqual((plan["budget"] as? [String: Any])?["limit"] as? Int, 1, "maxPending applies as written")
    }

    /// An unknown key of any file is named, with the key it probably meant (docs/promises.md): by `run` once per
    /// change of the file (not every minute), and by `status` until it is gone.
    func testAnUnknownKeyOfAnyFileIsNamedOncePerChangeByRunAndAlwaysByStatus() throws {
        try dir.write("settings.json", Fixture.settings())
        // Beside the key it resembles, a near miss stays a note of the person's (a warning); without it, it is an
        // error (docs/promises.md, `testAMisspeltDeliverKeyIsAnErrorThatCheckRunStatusAndPlanName`).
        try dir.write("laundry.json", #"{ "pets": [ { "id": "snowy", "washMinutes": 30, "washMinuts": 30 } ] }"#)
        let warning = "laundry.json: pets[0].washMinuts: unknown key (ignored; did you mean washMinutes?)"
        let first = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(first, delivers: [])
        XCTAssertEqual(first.stderrLines, ["\(dir.path)/\(warning)"])
        XCTAssertEqual(try dir.run(at: "2026-11-21T08:01:00Z").stderr, "", "the same file again: no mail")
        let status = try dir.nudge("status", now: "2026-11-21T08:01:30Z")
        XCTAssertEqual(status.stdoutLines.first, "Warning: " + warning)
        XCTAssertEqual(try dir.status()["fileWarnings"] as? [String], [warning])
        try dir.write("laundry.json", #"{ "pets": [ { "id": "snowy", "washMinutes": 30, "washMinuts": 35 } ] }"#)
        XCTAssertEqual(try dir.run(at: "2026-11-21T08:02:00Z").stderrLines, ["\(dir.path)/\(warning)"],
                       "a changed file is named again")
    }

    func testBrokenSettingsKeepTheZoneOfTheirLastGoodVersion() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("alarms.json", Fixture.alarm(time: "09:00", durationMinutes: 60))  // 08:00Z in Berlin
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])

        try dir.write("settings.json", "{ \"timeZone\": \"Europe/Berlin\", }\n")
        let result = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(result, exit: 65, delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(result.jsonLines().first?["fireAt"] as? String, "2026-11-21T08:00:00Z")
        XCTAssertEqual(result.stderrLines, [
            "\(dir.path)/settings.json:1:30: trailing comma before '}': JSON allows no comma after the last member (remove it)",
            "nudge: using the last good version of settings.json until it is fixed",
        ])
        XCTAssertEqual(try dir.json("plan.json")["timeZone"] as? String, "Europe/Berlin")
    }

    func testUnknownKeysWarnInCheckAndOnTheFirstRunOfTheFileAndAreOtherwiseIgnored() throws {
        try dir.write("alarms.json", """
            { "version": 1, "colour": "red",
              "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": "08:00", "snooze": 3 } ] }
            """)
        let check = try NudgeProcess.run(["check", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(check.status, 0, check.summary)
        XCTAssertEqual(check.stderrLines, [
            "\(dir.path)/alarms.json: colour: unknown key (ignored)",
            "\(dir.path)/alarms.json: alarms[0].snooze: unknown key (ignored)",
        ])

        let run = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(run, delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(run.stderrLines, check.stderrLines)
        XCTAssertEqual(try dir.run(at: "2026-11-21T08:01:00Z").stderr, "")
    }
}
