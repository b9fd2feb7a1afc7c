import Foundation
import XCTest

/// Broken user files (docs/files.md): reported with path and place, exit 65, and never silencing the other files.
final class FileErrorTests: DataDirectoryTestCase {
    /// Line 3, column 20 is where the comma before `"name"` (column 21) belongs.
    private let malformedLaundry = """
        {
          "pets": [
            { "id": "snowy" "name": "Snowy" }
          ]
        }

        """

    func testMalformedLaundryJSONExits65NamingLineAndColumnWhileAlarmsStillDeliver() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", malformedLaundry)
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", durationMinutes: 30))

        let first = try dir.run(at: "2026-11-21T07:59:00Z")
        assertRun(first, exit: 65, delivers: [])
        let second = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(second, exit: 65, delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(second.stderrLines.first,
                       "\(dir.path)/laundry.json:3:20: missing ',' between object members (the next one starts at 3:21)")
        XCTAssertTrue(second.stderrLines.contains { $0.hasPrefix("\(dir.path)/laundry.json:3:20: ") }, second.summary)
        XCTAssertEqual(second.stderrLines.filter { $0.contains("alarms.json") }, [], second.summary)
        XCTAssertEqual(try dir.outboxIDs(), ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-22"])

        let status = try dir.status()
        XCTAssertEqual(status["fileErrors"] as? [String],
                       ["laundry.json:3:20: missing ',' between object members (the next one starts at 3:21)"])
        XCTAssertEqual(status["deliveredTotal"] as? Int, 1)

        // Fixed: exit 0 again, and the error is gone from status.
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.status()["fileErrors"] as? [String], [])
    }

    /// Entries stand alone (docs/promises.md): an edit that breaks one alarm and moves another plans the moved one as
    /// edited and the broken one from its last good version, until it is fixed.
    func testABrokenAlarmPlansFromItsLastGoodVersionWhileItsSiblingPlansAsEdited() throws {
        try dir.write("settings.json", Fixture.settings())
        let good = """
            { "alarms": [
                { "id": "fajr", "title": "Morning Prayer", "time": "08:00", "durationMinutes": 30 },
                { "id": "dhuhr", "title": "Noon Prayer", "time": "12:30", "durationMinutes": 15 } ] }

            """
        try dir.write("alarms.json", good)
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.text(".last-good/alarms.json"), good)

        // The user breaks the second alarm and moves the first to 08:05 in the same edit.
        try dir.write("alarms.json", """
            { "alarms": [
                { "id": "fajr", "title": "Morning Prayer", "time": "08:05", "durationMinutes": 30 },
                { "id": "dhuhr", "title": "Noon Prayer", "time": "25:00", "durationMinutes": 15 } ] }

            """)
        let broken = try dir.run(at: "2026-11-21T07:30:00Z")
        assertRun(broken, exit: 65, delivers: [])
        XCTAssertEqual(broken.stderrLines, [
            "\(dir.path)/alarms.json: alarms[1].time: \"25:00\" is not a time (HH:MM)",
            "nudge: alarms.json: alarms[1] (\"dhuhr\") plans from its last good version until it is fixed",
        ])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-21", "alarm.prayer:dhuhr:2026-11-21"])

        // fajr rings at its new time, dhuhr at its last good one.
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), exit: 65, delivers: [])
        let result = try dir.run(at: "2026-11-21T08:05:00Z")
        assertRun(result, exit: 65, delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(result.jsonLines().first?["fireAt"] as? String, "2026-11-21T08:05:00Z")
        assertRun(try dir.run(at: "2026-11-21T12:30:00Z"), exit: 65, delivers: ["alarm.prayer:dhuhr:2026-11-21"])
        XCTAssertEqual(try dir.outboxIDs(), ["alarm.prayer:fajr:2026-11-21", "alarm.prayer:dhuhr:2026-11-21"])
        // The last good copy is still the good file, not the broken one.
        XCTAssertEqual(try dir.text(".last-good/alarms.json"), good)
        XCTAssertEqual(try dir.status()["fileErrors"] as? [String],
                       ["alarms.json: alarms[1].time: \"25:00\" is not a time (HH:MM)"])
    }

    /// A broken entry that never was valid is not planned; its valid siblings ring (docs/promises.md: a new alarm with a
    /// typo next to two valid ones must not silence them).
    func testABrokenEntryWithoutAnEarlierGoodVersionIsNotPlannedAndItsSiblingsRing() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", """
            { "alarms": [
                { "id": "fajr", "title": "Morning Prayer", "time": "08:00" },
                { "id": "dhuhr", "title": "Noon Prayer", "time": "25:00" } ] }
            """)
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:15:00Z"))  // 08:00

        let result = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(result, exit: 65, delivers: ["alarm.prayer:fajr:2026-11-21", "laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(result.stderrLines, [
            "\(dir.path)/alarms.json: alarms[1].time: \"25:00\" is not a time (HH:MM)",
            "nudge: alarms.json: alarms[1] (\"dhuhr\") is not planned until it is fixed (it has no earlier valid version)",
        ])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertFalse(dir.exists(".last-good/alarms.json"))
    }

    /// A near miss of the main member (`"alarm"` for `"alarms"`) breaks the file instead of emptying it
    /// (docs/promises.md): with a last good version, every alarm still rings; `check` and `run` exit 65 and say why.
    func testANearMissOfTheMainMemberKeepsTheLastGoodVersionAndIsAnError() throws {
        try dir.write("settings.json", Fixture.settings())
        let good = Fixture.alarm(time: "08:00")
        try dir.write("alarms.json", good)
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])
        try dir.write("alarms.json", good.replacingOccurrences(of: "\"alarms\"", with: "\"alarm\""))
        let problem = "alarms.json: alarm: unknown key where \"alarms\" belongs (did you mean alarms?); without "
            + "\"alarms\" nothing of alarms.json would be planned, so the file is read as broken, not as empty"
        let check = try NudgeProcess.run(["check", "--data", dir.path])
        XCTAssertEqual(check.status, 65, check.summary)
        XCTAssertTrue(check.stderrLines.contains("\(dir.path)/\(problem)"), check.summary)
        XCTAssertFalse(check.stderr.contains("(ignored"), check.summary)
        let result = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(result, exit: 65, delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(result.stderrLines, ["\(dir.path)/\(problem)",
                                            "nudge: using the last good version of alarms.json until it is fixed"])
        let status = try dir.nudge("status", now: "2026-11-21T08:01:00Z")
        XCTAssertTrue(status.stdout.contains("  " + problem), status.summary)
    }

    func testCheckExits0ForValidFilesAnd65ListingEveryProblem() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        let valid = try NudgeProcess.run(["check", "--data", dir.path])
        XCTAssertEqual(valid.status, 0, valid.summary)
        XCTAssertEqual(valid.stderr, "")

        try dir.write("laundry.json", malformedLaundry)
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": "05:30" },
                          { "id": "dhuhr", "title": "Noon Prayer", "time": "25:00" } ] }
            """)
        let invalid = try NudgeProcess.run(["check", "--data", dir.path])
        XCTAssertEqual(invalid.status, 65, invalid.summary)
        XCTAssertEqual(Set(invalid.stderrLines), [
            "\(dir.path)/laundry.json:3:20: missing ',' between object members (the next one starts at 3:21)",
            "\(dir.path)/alarms.json: alarms[1].time: \"25:00\" is not a time (HH:MM)",
        ])
        XCTAssertEqual(invalid.stdoutLines.first, "2 problems in \(dir.path)")
        // Then, as settings.json pins the zone, that it does (docs/travelling.md, "The zone"), and the wake capability.
        XCTAssertTrue(invalid.stdoutLines.dropFirst().first?.hasPrefix("Zone: UTC, pinned by settings.json") == true,
                      invalid.summary)
        XCTAssertTrue(invalid.stdoutLines.last?.hasPrefix("Wake from suspend: ") == true, invalid.summary)
        // check only reads.
        XCTAssertFalse(dir.exists("state.json"))
        XCTAssertFalse(dir.exists("plan.json"))
    }

    func testMissingUserFilesMeanNothingOfThatKind() throws {
        let result = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(result, delivers: [])
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(try dir.plannedIDs(), [])
        XCTAssertTrue(try dir.json("plan.json")["nextWakeAt"] is NSNull)
    }
}
