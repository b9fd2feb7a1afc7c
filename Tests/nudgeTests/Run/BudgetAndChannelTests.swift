import Foundation
import XCTest

/// Budget, master switch, quiet hours and the desktop command end to end (docs/files.md, "settings.json").
final class BudgetAndChannelTests: DataDirectoryTestCase {
    func testBudgetCapsThePlanByPriorityAndDefersTheRest() throws {
        try dir.write("settings.json", "{ \"timeZone\": \"UTC\", \"maxPending\": 2 }\n")
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "a", "title": "A", "time": "09:00" }, { "id": "b", "title": "B", "time": "10:00" } ] }
            """)
        // Dry completes 07:00 (delivered by the first run, exactly then); its medium fold reminder is due 07:30.
        try dir.write("laundry.json", """
            { "pets": [ { "id": "snowy", "name": "Snowy", "dryMinutes": 60,
                          "cycle": { "id": "c-1", "stage": "dry", "startedAt": "2026-11-21T06:00:00Z" } } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: ["laundry.dryComplete:snowy:c-1"])

        // The two critical alarms fill the plan; the sooner medium reminder is deferred.
        let plan = try dir.json("plan.json")
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
        let deferred = try XCTUnwrap(plan["deferred"] as? [[String: Any]])
        XCTAssertEqual(deferred.map { $0["id"] as? String }, ["laundry.foldReminder:snowy:c-1"])
        XCTAssertEqual(deferred.first?["reason"] as? String, "budget")
        let budget = try XCTUnwrap(plan["budget"] as? [String: Any])
        XCTAssertEqual(budget["pending"] as? Int, 2)
        XCTAssertEqual(budget["limit"] as? Int, 2)
        XCTAssertEqual(budget["status"] as? String, "atLimit")
        XCTAssertEqual(budget["message"] as? String, "Notification limit reached. Complete cycles to free up space.")
        // The next wake is the deferred reminder's: a run then delivers it.
        XCTAssertEqual(plan["nextWakeAt"] as? String, "2026-11-21T07:30:00Z")

        // The budget limits the plan, never delivery.
        assertRun(try dir.run(at: "2026-11-21T07:30:00Z"), delivers: ["laundry.foldReminder:snowy:c-1"])
    }

    func testMasterSwitchOffPlansButDeliversNothingAndDoesNotReplayWhenSwitchedOn() throws {
        try dir.write("settings.json", "{ \"timeZone\": \"UTC\", \"notifications\": { \"enabled\": false } }\n")
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-21"])  // still planned

        let off = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(off, delivers: [])
        XCTAssertFalse(off.stderr.isEmpty, "run must say that notifications are off")
        XCTAssertEqual(try dir.outboxLines(), [])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-22"])

        // Switched back on: what fell due while off is not replayed.
        try dir.write("settings.json", Fixture.settings())
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxLines(), [])
    }

    func testQuietHoursMoveAMediumReminderToTheirEndButNeverACriticalAlarm() throws {
        try dir.write("settings.json", """
            { "timeZone": "UTC", "quietHours": { "start": "22:00", "end": "07:00" } }
            """)
        try dir.write("alarms.json", Fixture.alarm(time: "23:00", id: "isha"))
        // Dry completes 21:45 (critical); the fold reminder (medium) would be 22:15.
        try dir.write("laundry.json", """
            { "pets": [ { "id": "snowy", "name": "Snowy", "dryMinutes": 60,
                          "cycle": { "id": "c-1", "stage": "dry", "startedAt": "2026-11-21T20:45:00Z" } } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T21:30:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T21:45:00Z"), delivers: ["laundry.dryComplete:snowy:c-1"])

        let pending = try XCTUnwrap(try dir.json("plan.json")["pending"] as? [[String: Any]])
        XCTAssertEqual(pending.map { $0["id"] as? String },
                       ["alarm.prayer:isha:2026-11-21", "laundry.foldReminder:snowy:c-1"])
        XCTAssertEqual(pending.map { $0["fireAt"] as? String }, ["2026-11-21T23:00:00Z", "2026-11-22T07:00:00Z"])
        XCTAssertEqual(pending.last?["expiresAt"] as? String, "2026-11-23T07:00:00Z")

        assertRun(try dir.run(at: "2026-11-21T22:15:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T23:00:00Z"), delivers: ["alarm.prayer:isha:2026-11-21"])
        assertRun(try dir.run(at: "2026-11-22T07:00:00Z"), delivers: ["laundry.foldReminder:snowy:c-1"])
    }

    func testDeliverCommandRunsOncePerDeliveryWithPlaceholdersAndEnvironment() throws {
        let log = dir.fileURL("channel.log").path
        let settings: [String: Any] = [
            "timeZone": "UTC",
            "deliver": ["command": ["/bin/sh", "-c", "printf '%s|%s|%s|%s\\n' \"$1\" \"$NUDGE_ID\" \"$NUDGE_KIND\" "
                                    + "\"$NUDGE_BADGE\" >> \"$2\"", "nudge-test", "{title} ({id})", log]],
        ]
        try JSONSerialization.data(withJSONObject: settings).write(to: dir.fileURL("settings.json"))
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: ["alarm.prayer:fajr:2026-11-21"])
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])

        XCTAssertTrue(FileManager.default.fileExists(atPath: log), "the deliver command never ran")
        let lines = NudgeResult.lines((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        XCTAssertEqual(lines, ["Morning Prayer Time (alarm.prayer:fajr:2026-11-21)|alarm.prayer:fajr:2026-11-21|"
                               + "alarm.prayer|1"])
    }
}
