import Foundation
import XCTest

/// What a person sees right after acting (docs/design.md; docs/systemd.md, "When a run is stale"): editing commands
/// re-plan at once, `status` lists the last deliveries with their ids, names a stale run, warns about misspelt settings
/// keys and shows streaks.
final class StatusAndReplanTests: DataDirectoryTestCase {
    private func planIDs() throws -> [String] {
        let plan = try dir.json("plan.json")
        return (plan["pending"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    // MARK: - Editing commands re-plan

    func testLaundryStartIsInPlanJsonAtOnceAndStopTakesItOut() throws {
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        try dir.run(at: "2026-11-21T08:00:00Z")
        XCTAssertEqual(try planIDs(), [])

        let start = try dir.nudge("laundry", now: "2026-11-21T08:01:00Z", "start", "snowy", "wash")
        XCTAssertEqual(start.status, 0, start.summary)
        let pending = try planIDs()
        XCTAssertEqual(pending.count, 1, "\(pending)")
        XCTAssertTrue(pending.first?.hasPrefix("laundry.washComplete:snowy:") ?? false, "\(pending)")
        let shown = try NudgeProcess.run(["plan", "--data", dir.path, "--now", "2026-11-21T08:02:00Z"],
                                         workingDirectory: dir.url)
        XCTAssertTrue(shown.stdout.contains("Wash Complete!"), shown.summary)

        XCTAssertEqual(try dir.nudge("laundry", now: "2026-11-21T08:03:00Z", "stop", "snowy").status, 0)
        XCTAssertEqual(try planIDs(), [])
    }

    func testAPlayTakesTodaysStreakReminderOutOfThePlanAtOnce() throws {
        try dir.write("settings.json", #"{ "timeZone": "UTC", "streaks": { "time": "19:00" } }"#)
        try dir.write("streaks.json", #"{ "games": [ { "id": "wordle", "name": "Wordle", "streak": 4 } ] }"#)
        try dir.run(at: "2026-11-21T08:00:00Z")
        XCTAssertTrue(try planIDs().contains("streak.reminder:streaks:2026-11-21"))

        XCTAssertEqual(try dir.nudge("play", now: "2026-11-21T08:01:00Z", "wordle").status, 0)
        let after = try planIDs()
        XCTAssertFalse(after.contains("streak.reminder:streaks:2026-11-21"), "\(after)")
    }

    func testASnoozeIsInPlanJsonAtOnce() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        try dir.run(at: "2026-11-21T07:59:00Z")
        try dir.run(at: "2026-11-21T08:00:00Z")
        XCTAssertEqual(try dir.nudge("snooze", now: "2026-11-21T08:01:00Z").status, 0)
        let pending = try planIDs()
        XCTAssertTrue(pending.contains("alarm.prayer:fajr:2026-11-21:snooze-1"), "\(pending)")
    }

    // MARK: - status

    func testStatusListsTheLastTenDeliveriesNewestLastWithTheirIds() throws {
        let alarms = (0..<12).map { minute in
            #"{ "id": "a\#(minute)", "title": "Alarm \#(minute)", "time": "05:\#(minute < 10 ? "0" : "")\#(minute)" }"#
        }
        try dir.write("alarms.json", #"{ "alarms": [ \#(alarms.joined(separator: ", ")) ] }"#)
        try dir.run(at: "2026-11-21T04:00:00Z")
        XCTAssertEqual(try dir.run(at: "2026-11-21T05:20:00Z").deliveredIDs().count, 12)

        let status = try dir.nudge("status", now: "2026-11-21T05:21:00Z")
        XCTAssertEqual(status.status, 0, status.summary)
        let rows = status.stdoutLines.filter { $0.hasPrefix("  Sat 21 Nov 05:20  alarm.prayer:") }
        XCTAssertEqual(rows.count, 10, status.summary)
        XCTAssertTrue(rows.first?.contains("alarm.prayer:a2:2026-11-21") ?? false, status.summary)
        XCTAssertTrue(rows.last?.contains("alarm.prayer:a11:2026-11-21  Alarm 11 Time") ?? false, status.summary)
        let json = try dir.status()
        XCTAssertEqual((json["recentDeliveries"] as? [[String: Any]])?.last?["id"] as? String,
                       "alarm.prayer:a11:2026-11-21")
    }

    /// docs/promises.md, "A typo is a mistake, not a note": a near miss of a known key that is absent is an error, at any level. Before,
    /// `"dekstop": true` was a warning: `check` said OK, `run` exited 0 and the desktop stayed off in silence.
    func testAMisspeltDeliverKeyIsAnErrorThatCheckRunStatusAndPlanName() throws {
        try dir.write("settings.json", #"{ "deliver": { "dekstop": true } }"#)
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        let line = "settings.json: deliver.dekstop: unknown key where \"desktop\" belongs (did you mean desktop?); a key "
            + "this close to a known one is read as a mistake, not as a note of yours"
        let check = try NudgeProcess.run(["check", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(check.status, 65, check.summary)
        XCTAssertTrue(check.stderrLines.contains("\(dir.path)/\(line)"), check.summary)
        let run = try dir.run(at: "2026-11-21T07:00:00Z")
        XCTAssertEqual(run.status, 65, run.summary)
        XCTAssertEqual(run.stderrLines, ["\(dir.path)/\(line)",
                                         "nudge: settings.json: deliver is at its default until it is fixed; the other "
                                             + "settings apply"], run.summary)
        let status = try dir.nudge("status", now: "2026-11-21T07:01:00Z")
        XCTAssertTrue(status.stdout.contains("deliver.dekstop: unknown key where \"desktop\" belongs"), status.summary)
        XCTAssertEqual(try dir.status()["settingsWarnings"] as? [String], [])
        let plan = try NudgeProcess.run(["plan", "--data", dir.path, "--now", "2026-11-21T07:02:00Z"],
                                        workingDirectory: dir.url)
        XCTAssertEqual(plan.status, 65, plan.summary)
        XCTAssertTrue(plan.stderrLines.contains("\(dir.path)/\(line)"), plan.summary)
    }

    /// docs/promises.md, "Named until fixed": `plan` names every broken file as `status` and `run` do. Before, with alarms.json broken by a
    /// trailing comma, `nudge plan` printed "Nothing pending." and exited 0 without a word about it.
    func testPlanNamesABrokenFileAndExits65() throws {
        try dir.write("alarms.json", #"{ "alarms": [ { "id": "fajr", "title": "Fajr", "time": "08:00" }, ] }"#)
        XCTAssertEqual(try dir.run(at: "2026-11-21T07:00:00Z").status, 65)
        let plan = try NudgeProcess.run(["plan", "--data", dir.path, "--now", "2026-11-21T07:01:00Z"],
                                        workingDirectory: dir.url)
        let stored = try NudgeProcess.run(["plan", "--data", dir.path], workingDirectory: dir.url)
        for result in [plan, stored] {
            XCTAssertEqual(result.status, 65, result.summary)
            XCTAssertTrue(result.stderrLines.first?.hasPrefix("\(dir.path)/alarms.json:1:") ?? false, result.summary)
            XCTAssertTrue(result.stderrLines.contains("nudge: alarms.json has no earlier valid version: nothing from it "
                                                      + "is planned until it is fixed"), result.summary)
        }
        XCTAssertTrue(stored.stdout.contains("Nothing pending."), stored.summary)
    }

    /// `status` says what the run did about a broken file or entry, in the words `run` said it: an entry that
    /// never was valid is not planned; a file that is not JSON falls back to its last good version whole.
    func testStatusSaysWhatTheRunDidAboutABrokenFileOrEntry() throws {
        try dir.write("alarms.json", #"{ "alarms": [ { "id": "fajr", "time": "25:00" } ] }"#)
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        let first = try dir.run(at: "2026-11-21T07:00:00Z")
        let entryNote = #"alarms.json: alarms[0] ("fajr") is not planned until it is fixed (it has no earlier valid version)"#
        XCTAssertTrue(first.stderr.contains("nudge: " + entryNote), first.summary)
        var status = try dir.nudge("status", now: "2026-11-21T07:01:00Z")
        XCTAssertTrue(status.stdout.contains("  " + entryNote), status.summary)
        XCTAssertEqual(try dir.status()["fileNotes"] as? [String], [entryNote])

        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        try dir.write("laundry.json", "{ \"pets\": [ ")
        let second = try dir.run(at: "2026-11-21T07:02:00Z")
        XCTAssertTrue(second.stderr.contains("nudge: using the last good version of laundry.json until it is fixed"),
                      second.summary)
        status = try dir.nudge("status", now: "2026-11-21T07:03:00Z")
        XCTAssertTrue(status.stdout.contains("  using the last good version of laundry.json until it is fixed"),
                      status.summary)
        XCTAssertFalse(status.stdout.contains("alarms.json"), status.summary)
    }

    /// The stale-timer warning reads the last `nudge run`, not the re-plan of an editing command (docs/promises.md):
    /// five days without a run stay visible after `nudge play`; and `status` goes on reporting what that run
    /// delivered after a command re-planned.
    func testAnEditAfterADeadTimerLeavesTheWarningAndTheLastRunsFigures() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        try dir.write("streaks.json", #"{ "games": [ { "id": "wordle", "name": "Wordle" } ] }"#)
        try dir.run(at: "2026-11-20T07:59:00Z")
        assertRun(try dir.run(at: "2026-11-20T08:00:00Z"), delivers: ["alarm.prayer:fajr:2026-11-20"])
        let play = try dir.nudge("play", now: "2026-11-25T09:00:00Z", "wordle")
        XCTAssertEqual(play.status, 0, play.summary)

        let status = try dir.nudge("status", now: "2026-11-25T09:00:30Z")
        XCTAssertTrue(status.stdout.contains("Last run: 2026-11-20 08:00 (5 days ago)"), status.summary)
        XCTAssertTrue(status.stdout.contains("delivered 1, missed 0"), status.summary)
        XCTAssertTrue(status.stdout.contains("Warning: the last run was 5 days ago"), status.summary)
        XCTAssertEqual(try dir.status()["stale"] as? Bool, true)
        let plan = try dir.nudge("plan", now: "2026-11-25T09:00:30Z")
        XCTAssertTrue(plan.stdout.contains("Warning: the last run was 5 days ago"), plan.summary)
    }

    func testPlanAndStatusNameARunOlderThanFiveMinutes() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        try dir.run(at: "2026-11-20T05:16:00Z")
        // plan.json as that run wrote it, read by the real clock (`plan --now` would compute a fresh plan).
        let plan = try NudgeProcess.run(["plan", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(plan.status, 0, plan.summary)
        XCTAssertTrue(plan.stdout.contains("Warning: the last run was "), plan.summary)
        XCTAssertTrue(plan.stdout.contains("Check it with `crontab -l`"), plan.summary)
        let status = try dir.nudge("status", now: "2026-11-21T20:00:00Z")
        XCTAssertTrue(status.stdout.contains("Warning: the last run was 38 h 44 min ago"), status.summary)

        let fresh = try dir.nudge("status", now: "2026-11-20T05:20:00Z")
        XCTAssertFalse(fresh.stdout.contains("Warning"), fresh.summary)
        // The file as the last run wrote it, with the real clock: the JSON stays clean, the warning goes to stderr.
        let json = try NudgeProcess.run(["plan", "--json", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)))
        XCTAssertTrue(json.stderr.contains("the last run was"), json.summary)
    }

    func testStatusShowsEachStreakAsGivenOrDerivedFromPlays() throws {
        try dir.write("settings.json", #"{ "timeZone": "UTC" }"#)
        try dir.write("streaks.json", """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 }, { "id": "mini", "name": "Mini" } ],
              "plays": [ { "game": "mini", "at": "2026-11-19T20:00:00Z" }, { "game": "mini", "at": "2026-11-20T20:00:00Z" },
                         { "game": "mini", "at": "2026-11-21T07:00:00Z" } ] }
            """)
        try dir.run(at: "2026-11-21T08:00:00Z")
        let status = try dir.nudge("status", now: "2026-11-21T08:01:00Z")
        XCTAssertTrue(status.stdoutLines.contains("Streaks: Wordle 12 (given), Mini 3 (derived from plays)"),
                      status.summary)
    }

    // MARK: - The default data directory

    func testWithoutDataOrNUDGE_DATATheDirectoryIsXDGDataHomeNudgeElseHomeLocalShareNudge() throws {
        let base = try makeDirectory()
        try FileManager.default.createDirectory(at: base.fileURL("nudge"), withIntermediateDirectories: true)
        try Data(Fixture.alarm(time: "08:00").utf8).write(to: base.fileURL("nudge/alarms.json"))
        let viaXDG = try NudgeProcess.run(["run", "--json", "--now", "2026-11-21T08:00:00Z"], workingDirectory: dir.url,
                                          environment: ["XDG_DATA_HOME": base.path,
                                                        "XDG_STATE_HOME": base.path + "/state"])
        XCTAssertEqual(viaXDG.deliveredIDs(), ["alarm.prayer:fajr:2026-11-21"], viaXDG.summary)
        XCTAssertTrue(FileManager.default.fileExists(atPath: base.path + "/state/nudge/state.json"), viaXDG.summary)

        let home = try makeDirectory()
        let made = try NudgeProcess.run(["init"], workingDirectory: dir.url,
                                        environment: ["XDG_DATA_HOME": "", "HOME": home.path])
        XCTAssertEqual(made.status, 0, made.summary)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.path + "/.local/share/nudge/alarms.json"),
                      made.summary)
        let plan = try NudgeProcess.run(["plan", "--now", "2026-11-21T04:00:00Z"], workingDirectory: dir.url,
                                        environment: ["XDG_DATA_HOME": "", "HOME": home.path])
        XCTAssertTrue(plan.stdout.contains("Morning Prayer Time"), plan.summary)
    }

    func testInitSystemdKeepsAUnitTheUserEditedAndSaysSo() throws {
        let config = try makeDirectory()
        let units = config.path + "/systemd/user"
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        try "[Unit]\nDescription=mine\n".write(toFile: units + "/nudge.service", atomically: true, encoding: .utf8)
        let result = try NudgeProcess.run(["init", dir.path, "--systemd"], workingDirectory: dir.url,
                                          environment: ["XDG_CONFIG_HOME": config.path])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.stdout.contains("kept     \(units)/nudge.service (exists; delete it to get the "
            + "starter version)"), result.summary)
        for created in ["nudge-alarm.service", "nudge.path", "nudge-hourly.timer"] {
            XCTAssertTrue(result.stdout.contains("created  \(units)/\(created)"), result.summary)
        }
        XCTAssertEqual(result.stdoutLines.last, "  systemctl --user daemon-reload && "
                       + "systemctl --user enable --now nudge-hourly.timer nudge.path")
        XCTAssertEqual(try String(contentsOfFile: units + "/nudge.service", encoding: .utf8),
                       "[Unit]\nDescription=mine\n")
    }

    func testInitKeepsAUserFileItCannotReadAndWritesTheOthers() throws {
        // A settings.json nudge cannot read as a file (here a directory) exists all the same: never replaced.
        try FileManager.default.createDirectory(at: dir.fileURL("settings.json"), withIntermediateDirectories: true)
        let result = try NudgeProcess.run(["init", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.stdout.contains("kept     \(dir.path)/settings.json"), result.summary)
        XCTAssertTrue(dir.exists("alarms.json"))
    }
}
