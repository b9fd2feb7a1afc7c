import Foundation
import XCTest

/// `nudge act ID ACTION` from a terminal (docs/design.md, "Acting on a delivery"), and `snooze` without an id.
final class ActCommandTests: DataDirectoryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        assertRun(try dir.run(at: "2026-11-21T04:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T04:30:00Z"), delivers: ["alarm.prayer:fajr:2026-11-21"])
    }

    /// Snoozing again by `act` moves the one snooze and keeps its id, as `nudge snooze` does (docs/promises.md,
    /// one snooze per notification).
    func testSnoozeByPrefixIsPlannedAtOnceAndASecondSnoozeMovesIt() throws {
        let act = try dir.nudge("act", now: "2026-11-21T04:31:00Z", "alarm.prayer:fa", "SNOOZE")
        XCTAssertEqual(act.status, 0, act.summary)
        XCTAssertTrue(act.stdout.hasPrefix("Snoozed \"Morning Prayer Time\""), act.summary)
        XCTAssertTrue(try dir.plannedIDs().contains("alarm.prayer:fajr:2026-11-21:snooze-1"),
                      "the edit re-plans: plan.json shows the snooze without waiting for the next run")
        let again = try dir.nudge("act", now: "2026-11-21T04:32:00Z", "last", "SNOOZE")
        XCTAssertEqual(again.status, 0, again.summary)
        XCTAssertTrue(again.stdout.hasPrefix("Moved the snooze of \"Morning Prayer Time\""), again.summary)
        let snoozes = try XCTUnwrap(try dir.json("state.json")["snoozes"] as? [[String: Any]])
        XCTAssertEqual(snoozes.map { $0["id"] as? String }, ["alarm.prayer:fajr:2026-11-21:snooze-1"])
    }

    /// docs/design.md, "Acting on a delivery": a snooze that would not move says so and changes nothing. Before: "Moved the snooze of "Morning
    /// Prayer Time" from Sat 21 Nov 05:36 to Sat 21 Nov 05:36".
    func testASnoozeThatWouldNotMoveSaysAlreadySnoozed() throws {
        XCTAssertEqual(try dir.nudge("snooze", now: "2026-11-21T04:31:00Z", "last").status, 0)
        let again = try dir.nudge("act", now: "2026-11-21T04:31:30Z", "last", "SNOOZE")
        XCTAssertEqual(again.status, 0, again.summary)
        XCTAssertEqual(again.stdoutLines, ["\"Morning Prayer Time\" is already snoozed until Sat 21 Nov 05:36 "
                                           + "(alarm.prayer:fajr:2026-11-21:snooze-1): nothing changed."], again.summary)
        let snoozes = try XCTUnwrap(try dir.json("state.json")["snoozes"] as? [[String: Any]])
        XCTAssertEqual(snoozes.map { $0["fireAt"] as? String }, ["2026-11-21T04:36:00Z"])
    }

    /// docs/design.md, "Acting on a delivery": the id an alarm has in alarms.json names its latest delivery. Before: "fajr matches no
    /// delivered notification", exit 65.
    func testTheAlarmsOwnIdNamesItsLatestDelivery() throws {
        let act = try dir.nudge("act", now: "2026-11-21T04:31:00Z", "fajr", "SNOOZE")
        XCTAssertEqual(act.status, 0, act.summary)
        XCTAssertTrue(act.stdout.contains("(alarm.prayer:fajr:2026-11-21:snooze-1)"), act.summary)
        let snooze = try dir.nudge("snooze", now: "2026-11-21T04:32:00Z", "fajr", "--minutes", "20")
        XCTAssertEqual(snooze.status, 0, snooze.summary)
        XCTAssertTrue(snooze.stdout.hasPrefix("Moved the snooze of \"Morning Prayer Time\""), snooze.summary)
        let unknown = try dir.nudge("act", now: "2026-11-21T04:33:00Z", "isha", "SNOOZE")
        XCTAssertEqual(unknown.status, 65, unknown.summary)
    }

    /// A plain alarm (docs/files.md, "alarms.json"): the terminal shows its title as written and a snooze as its only action, and
    /// `act` refuses the prayer timer. Before: "Wake up Time", `alarm.prayer`, START_TIMER|SNOOZE.
    func testAPlainAlarmRingsAsWrittenWithASnoozeOnly() throws {
        try dir.write("alarms.json", """
            {"alarms": [{"id": "wake", "title": "Wake up", "time": "06:30", "body": "Time to get up"}]}
            """)
        let run = try dir.nudge("run", now: "2026-11-21T05:30:00Z")
        XCTAssertEqual(run.stdoutLines, ["[2026-11-21 06:30] Wake up — Time to get up (critical, alarm.plain) → nudge act "
                                         + "alarm.plain:wake:2026-11-21 SNOOZE"], run.summary)
        let timer = try dir.nudge("act", now: "2026-11-21T05:31:00Z", "wake", "START_TIMER")
        XCTAssertEqual(timer.status, 65, timer.summary)
        XCTAssertEqual(timer.stderr, "nudge act: alarm.plain:wake:2026-11-21 does not offer START_TIMER (offers: SNOOZE)\n")
    }

    func testSnoozeWithoutAnIdSnoozesTheLastDelivery() throws {
        let snooze = try dir.nudge("snooze", now: "2026-11-21T04:31:00Z")
        XCTAssertEqual(snooze.status, 0, snooze.summary)
        XCTAssertTrue(snooze.stdout.contains("(alarm.prayer:fajr:2026-11-21:snooze-1)"), snooze.summary)
    }

    func testAnActionNotOfferedAnUnknownActionAndAnUnknownIdAreRefused() throws {
        let notOffered = try dir.nudge("act", now: "2026-11-21T04:31:00Z", "last", "MARK_PLAYED")
        XCTAssertEqual(notOffered.status, 65, notOffered.summary)
        XCTAssertEqual(notOffered.stderr, "nudge act: alarm.prayer:fajr:2026-11-21 does not offer MARK_PLAYED "
            + "(offers: START_TIMER, SNOOZE)\n")
        let unknown = try dir.nudge("act", now: "2026-11-21T04:31:00Z", "last", "FOLD")
        XCTAssertEqual(unknown.status, 64, unknown.summary)
        let never = try dir.nudge("act", now: "2026-11-21T04:31:00Z", "laundry.", "SNOOZE")
        XCTAssertEqual(never.status, 65, never.summary)
        XCTAssertTrue(never.stderr.contains("matches no delivered notification"), never.summary)
    }

    func testAnAmbiguousPrefixNamesTheCandidates() throws {
        try dir.write("alarms.json", #"""
            { "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": "05:30" },
                          { "id": "fajr2", "title": "Second Prayer", "time": "05:30" } ] }
            """#)
        assertRun(try dir.run(at: "2026-11-22T04:30:00Z"),
                  delivers: ["alarm.prayer:fajr2:2026-11-22", "alarm.prayer:fajr:2026-11-22"])
        let act = try dir.nudge("act", now: "2026-11-22T04:31:00Z", "alarm.prayer:fajr", "SNOOZE")
        XCTAssertEqual(act.status, 65, act.summary)
        XCTAssertTrue(act.stderr.contains("matches 3 delivered notifications"), act.summary)
    }

    func testCheckAsksForNoProgramForTheDesktopChannel() throws {
        try dir.write("settings.json", #"{ "deliver": { "desktop": true } }"#)
        let empty = try makeDirectory()
        let check = try NudgeProcess.run(["check", "--data", dir.path],
                                         environment: ["PATH": empty.path, "DBUS_SESSION_BUS_ADDRESS": "",
                                                       "XDG_RUNTIME_DIR": empty.path])
        XCTAssertEqual(check.status, 0, check.summary)
        XCTAssertEqual(check.stderr, "", "nudge speaks D-Bus itself: nothing to install \(check.summary)")
    }
}
