import Foundation
import XCTest

/// `nudge snooze`, `nudge ack` and `nudge test` end to end (docs/design.md, "Acting on a delivery").
final class SnoozeAckTestCommandTests: DataDirectoryTestCase {
    private let fajr = "alarm.prayer:fajr:2026-11-21"
    private let wash = "laundry.washComplete:snowy:c-1"

    // MARK: - Helpers

    private func snooze(_ id: String, now: String, _ extra: String...) throws -> NudgeResult {
        try NudgeProcess.run(["snooze", id, "--data", dir.path, "--now", now] + extra, workingDirectory: dir.url)
    }

    private func ack() throws -> NudgeResult {
        try NudgeProcess.run(["ack", "--data", dir.path], workingDirectory: dir.url)
    }

    private func pendingRecord(_ id: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> [String: Any] {
        let pending = try dir.json("plan.json")["pending"] as? [[String: Any]] ?? []
        return try XCTUnwrap(pending.first { $0["id"] as? String == id }, "\(id) is not pending: \(pending)",
                             file: file, line: line)
    }

    private func outboxRecords() throws -> [[String: Any]] {
        try dir.outboxLines().map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Delivers fajr (08:00, 30 min expiry) with a first run at 07:59 and a second at 08:00.
    private func deliverFajr(settings: String = Fixture.settings()) throws {
        try dir.write("settings.json", settings)
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [fajr])
    }

    /// An executable script in the data directory that appends `NUDGE_ID|$1|$2` to `log`.
    private func recorder(log: String) throws -> String {
        let url = dir.fileURL("recorder.sh")
        try Data("#!/bin/sh\nprintf '%s|%s|%s\\n' \"$NUDGE_ID\" \"$1\" \"$2\" >> '\(log)'\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    private func writeSettings(enabled: Bool, command: [String]?) throws {
        var settings: [String: Any] = ["timeZone": "UTC", "notifications": ["enabled": enabled]]
        if let command { settings["deliver"] = ["command": command] }
        try JSONSerialization.data(withJSONObject: settings).write(to: dir.fileURL("settings.json"))
    }

    // MARK: - snooze

    /// The issue's `nudge snooze last` then `nudge snooze last --minutes 3`: one snooze, moved, rung once
    /// (before: snooze-1 and snooze-2 both rang).
    func testASecondSnoozeMovesTheFirstAndRingsOnce() throws {
        try deliverFajr()
        let first = try snooze("last", now: "2026-11-21T08:02:00Z")
        XCTAssertEqual(first.status, 0, first.summary)
        let second = try snooze("last", now: "2026-11-21T08:03:00Z", "--minutes", "3")
        XCTAssertEqual(second.status, 0, second.summary)
        XCTAssertEqual(second.stdoutLines, ["Moved the snooze of \"Morning Prayer Time\" from Sat 21 Nov 08:07 to "
            + "Sat 21 Nov 08:06 (\(fajr):snooze-1): one snooze per notification."])
        XCTAssertEqual(try dir.plannedIDs().filter { $0.contains(":snooze-") }, ["\(fajr):snooze-1"])
        XCTAssertEqual(try pendingRecord("\(fajr):snooze-1")["fireAt"] as? String, "2026-11-21T08:06:00Z")
        for minute in 4...15 {
            XCTAssertEqual(try dir.run(at: String(format: "2026-11-21T08:%02d:00Z", minute)).status, 0)
        }
        XCTAssertEqual(try dir.outboxIDs(), [fajr, "\(fajr):snooze-1"])
        XCTAssertEqual(try outboxRecords().last?["deliveredAt"] as? String, "2026-11-21T08:06:00Z")
    }

    func testSnoozeWithMinutesPlansANewOccurrenceThatALaterRunDeliversOnceWithTheOriginalTexts() throws {
        try deliverFajr()
        let snoozed = try snooze(fajr, now: "2026-11-21T08:02:00Z", "--minutes", "7")
        XCTAssertEqual(snoozed.status, 0, snoozed.summary)
        XCTAssertTrue(snoozed.stdout.contains("\(fajr):snooze-1"), snoozed.summary)

        assertRun(try dir.run(at: "2026-11-21T08:03:00Z"), delivers: [])
        // One pending record per source (just-in-time): the snooze stands for fajr until it has rung.
        XCTAssertEqual(try dir.plannedIDs(), ["\(fajr):snooze-1"])
        let planned = try pendingRecord("\(fajr):snooze-1")
        XCTAssertEqual(planned["fireAt"] as? String, "2026-11-21T08:09:00Z")
        XCTAssertEqual(planned["expiresAt"] as? String, "2026-11-21T08:39:00Z", "the original's 30 min span")
        XCTAssertEqual(planned["kind"] as? String, "alarm.prayer")
        XCTAssertEqual(planned["priority"] as? String, "critical")

        assertRun(try dir.run(at: "2026-11-21T08:08:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:09:00Z"), delivers: ["\(fajr):snooze-1"])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-22"])
        assertRun(try dir.run(at: "2026-11-21T08:10:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [fajr, "\(fajr):snooze-1"])

        let records = try outboxRecords()
        let original = try XCTUnwrap(records.first), again = try XCTUnwrap(records.last)
        for key in ["kind", "source", "title", "body", "priority", "category", "deepLink"] {
            XCTAssertEqual(again[key] as? String, original[key] as? String, key)
        }
        XCTAssertEqual(again["title"] as? String, "Morning Prayer Time")
        XCTAssertEqual(again["body"] as? String, "Take 15 minutes to pray")
        XCTAssertEqual(again["fireAt"] as? String, "2026-11-21T08:09:00Z")
        XCTAssertEqual(again["deliveredAt"] as? String, "2026-11-21T08:09:00Z")
        XCTAssertEqual(again["lateSeconds"] as? Int, 0)
    }

    func testSnoozeDefaultsToFiveMinutesForAnAlarmAndTenForLaundry() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:15:00Z"))  // completes 08:00
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [fajr, wash])

        XCTAssertEqual(try snooze(fajr, now: "2026-11-21T08:02:00Z").status, 0)
        XCTAssertEqual(try snooze(wash, now: "2026-11-21T08:02:00Z").status, 0)
        assertRun(try dir.run(at: "2026-11-21T08:03:00Z"), delivers: [])
        let alarmSnooze = try pendingRecord("\(fajr):snooze-1")
        XCTAssertEqual(alarmSnooze["fireAt"] as? String, "2026-11-21T08:07:00Z")
        let washSnooze = try pendingRecord("\(wash):snooze-1")
        XCTAssertEqual(washSnooze["fireAt"] as? String, "2026-11-21T08:12:00Z")
        XCTAssertEqual(washSnooze["expiresAt"] as? String, "2026-11-21T14:12:00Z", "a laundry stage's 6 h span")
        XCTAssertEqual(washSnooze["title"] as? String, "Wash Complete!")
        XCTAssertEqual(washSnooze["body"] as? String, "Snowy is ready for the dryer!")

        assertRun(try dir.run(at: "2026-11-21T08:07:00Z"), delivers: ["\(fajr):snooze-1"])
        assertRun(try dir.run(at: "2026-11-21T08:12:00Z"), delivers: ["\(wash):snooze-1"])
    }

    func testSnoozeDefaultForAlarmsComesFromSettingsButLaundryStaysAtTen() throws {
        try dir.write("settings.json", "{ \"timeZone\": \"UTC\", \"alarms\": { \"snoozeMinutes\": 12 } }\n")
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:15:00Z"))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [fajr, wash])
        XCTAssertEqual(try snooze(fajr, now: "2026-11-21T08:00:30Z").status, 0)
        XCTAssertEqual(try snooze(wash, now: "2026-11-21T08:00:30Z").status, 0)
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        XCTAssertEqual(try pendingRecord("\(fajr):snooze-1")["fireAt"] as? String, "2026-11-21T08:12:30Z")
        XCTAssertEqual(try pendingRecord("\(wash):snooze-1")["fireAt"] as? String, "2026-11-21T08:10:30Z")
    }

    func testSnoozingAnIDThatWasNeverDeliveredExits65AndChangesNoFile() throws {
        try deliverFajr()
        let before = try dir.snapshot()
        for id in ["alarm.prayer:fajr:2026-11-22", "no-such-notification", "\(fajr):snooze-1"] {
            let result = try snooze(id, now: "2026-11-21T08:02:00Z", "--minutes", "7")
            XCTAssertEqual(result.status, 65, result.summary)
            XCTAssertEqual(result.stdout, "", result.summary)
            XCTAssertTrue(result.stderr.contains(id), result.summary)
        }
        XCTAssertEqual(try dir.snapshot(), before)

        // Nothing was snoozed: the next run plans only tomorrow's alarm.
        assertRun(try dir.run(at: "2026-11-21T08:03:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-22"])
    }

    func testSnoozeMinutesOutsideOneTo1440IsWrongUsageAndChangesNoFile() throws {
        try deliverFajr()
        let before = try dir.snapshot()
        for minutes in ["0", "1441", "-5", "abc", "7.5"] {
            let result = try snooze(fajr, now: "2026-11-21T08:02:00Z", "--minutes", minutes)
            XCTAssertEqual(result.status, 64, result.summary)
            XCTAssertEqual(result.stdout, "", result.summary)
        }
        XCTAssertEqual(try dir.snapshot(), before)
        // The bounds themselves are accepted.
        XCTAssertEqual(try snooze(fajr, now: "2026-11-21T08:02:00Z", "--minutes", "1").status, 0)
        XCTAssertEqual(try snooze(fajr, now: "2026-11-21T08:02:00Z", "--minutes", "1440").status, 0)
    }

    func testSnoozingASuppressedNotificationExits65() throws {
        try dir.write("settings.json", "{ \"timeZone\": \"UTC\", \"notifications\": { \"enabled\": false } }\n")
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])  // fell due while off: suppressed
        let result = try snooze(fajr, now: "2026-11-21T08:01:00Z")
        XCTAssertEqual(result.status, 65, result.summary)
    }

    func testASnoozeCanBeSnoozedAgainAsSnoozeTwo() throws {
        try deliverFajr()
        XCTAssertEqual(try snooze(fajr, now: "2026-11-21T08:01:00Z", "--minutes", "2").status, 0)
        assertRun(try dir.run(at: "2026-11-21T08:02:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:03:00Z"), delivers: ["\(fajr):snooze-1"])

        let again = try snooze("\(fajr):snooze-1", now: "2026-11-21T08:04:00Z", "--minutes", "3")
        XCTAssertEqual(again.status, 0, again.summary)
        XCTAssertTrue(again.stdout.contains("\(fajr):snooze-2"), again.summary)
        assertRun(try dir.run(at: "2026-11-21T08:05:00Z"), delivers: [])
        let planned = try pendingRecord("\(fajr):snooze-2")
        XCTAssertEqual(planned["fireAt"] as? String, "2026-11-21T08:07:00Z")
        XCTAssertEqual(planned["expiresAt"] as? String, "2026-11-21T08:37:00Z")
        XCTAssertEqual(planned["title"] as? String, "Morning Prayer Time")
        assertRun(try dir.run(at: "2026-11-21T08:07:00Z"), delivers: ["\(fajr):snooze-2"])
        assertRun(try dir.run(at: "2026-11-21T08:08:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [fajr, "\(fajr):snooze-1", "\(fajr):snooze-2"])
    }

    /// Its ledger entry is pruned two days after it expired (08:30 on the 21st): a run on the 24th drops it, but
    /// the outbox still holds it. Snooze and act say what is true, for the full id, `last` and a prefix.
    func testSnoozingADeliveryWhoseLedgerEntryWasPrunedSaysItIsTooOldAndChangesNoFile() throws {
        try deliverFajr()
        try dir.write("alarms.json", Fixture.noAlarms)
        assertRun(try dir.run(at: "2026-11-24T09:00:00Z"), delivers: [])
        let before = try dir.snapshot()

        let tooOld = "nudge snooze: \(fajr) was delivered on 2026-11-21 08:00, too long ago to snooze"
        for id in [fajr, "last", "alarm.prayer:fa"] {
            let result = try snooze(id, now: "2026-11-24T09:01:00Z")
            XCTAssertEqual(result.status, 65, result.summary)
            XCTAssertEqual(result.stderr, tooOld + "\n", result.summary)
        }
        let noID = try NudgeProcess.run(["snooze", "--data", dir.path, "--now", "2026-11-24T09:01:00Z"])
        XCTAssertEqual(noID.stderrLines, [tooOld], noID.summary)
        let act = try dir.nudge("act", now: "2026-11-24T09:01:00Z", "last", "START_TIMER")
        XCTAssertEqual(act.status, 65, act.summary)
        XCTAssertEqual(act.stderrLines,
                       ["nudge act: \(fajr) was delivered on 2026-11-21 08:00, too long ago to act on"])
        XCTAssertEqual(try dir.snapshot(), before)
    }

    /// `last` passes over a missed digest delivered with it: it holds nothing to snooze (docs/design.md).
    func testLastIsTheNewestDeliveryButTheMissedDigest() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": "08:00", "durationMinutes": 15 },
                          { "id": "dhuhr", "title": "Noon Prayer", "time": "10:00", "durationMinutes": 60 } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T07:50:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T10:00:00Z"), delivers: ["alarm.prayer:dhuhr:2026-11-21"],
                  tellsMissed: "Morning Prayer Time (08:00)")
        let snoozed = try snooze("last", now: "2026-11-21T10:01:00Z")
        XCTAssertEqual(snoozed.status, 0, snoozed.summary)
        XCTAssertTrue(snoozed.stdout.hasPrefix("Snoozed \"Noon Prayer Time\" until"), snoozed.summary)
    }

    /// A prefix names a delivery that can still be snoozed before older ones of the same alarm; when only old
    /// ones match, the latest is named.
    func testAPrefixPrefersACurrentDeliveryAndNamesTheLatestOfOldOnes() throws {
        try deliverFajr()
        assertRun(try dir.run(at: "2026-11-22T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-22T08:00:00Z"), delivers: ["alarm.prayer:fajr:2026-11-22"])
        // Both entries pruned; the days the machine was off told as missed.
        assertRun(try dir.run(at: "2026-11-26T07:59:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (Mon 23 Nov 08:00), Morning Prayer Time (Tue 24 Nov 08:00), "
                      + "Morning Prayer Time (Wed 25 Nov 08:00)")
        let old = try snooze("alarm.prayer:fajr", now: "2026-11-26T07:59:30Z")
        XCTAssertEqual(old.status, 65, old.summary)
        XCTAssertEqual(old.stderrLines, ["nudge snooze: alarm.prayer:fajr matches only 2 deliveries too long ago to "
            + "snooze (the latest: alarm.prayer:fajr:2026-11-22, delivered on 2026-11-22 08:00)"])

        assertRun(try dir.run(at: "2026-11-26T08:00:00Z"), delivers: ["alarm.prayer:fajr:2026-11-26"])
        let current = try snooze("alarm.prayer:fajr", now: "2026-11-26T08:01:00Z")
        XCTAssertEqual(current.status, 0, current.summary)
        XCTAssertTrue(current.stdout.contains("alarm.prayer:fajr:2026-11-26:snooze-1"), current.summary)
    }

    /// A kind switched off leaves plan and delivery, its snoozes included (docs/design.md, "What a run plans"). Like
    /// the kind's own one-offs the snooze is held: switched back on before it expires, it rings, once.
    func testASnoozeOfAKindSwitchedOffDoesNotRingUntilTheKindIsBackOn() throws {
        try deliverFajr()
        XCTAssertEqual(try snooze(fajr, now: "2026-11-21T08:01:00Z").status, 0)   // 08:06, expires 08:36
        XCTAssertEqual(try dir.plannedIDs(), ["\(fajr):snooze-1"])

        try dir.write("settings.json", "{ \"timeZone\": \"UTC\", \"alarms\": { \"enabled\": false } }\n")
        assertRun(try dir.run(at: "2026-11-21T08:02:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [])
        assertRun(try dir.run(at: "2026-11-21T08:06:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:07:00Z"), delivers: [])

        try dir.write("settings.json", Fixture.settings())
        let backOn = try dir.run(at: "2026-11-21T08:10:00Z")
        assertRun(backOn, delivers: ["\(fajr):snooze-1"])
        XCTAssertEqual(backOn.jsonLines().first?["lateSeconds"] as? Int, 240)
        assertRun(try dir.run(at: "2026-11-21T08:11:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [fajr, "\(fajr):snooze-1"])
    }

    // MARK: - ack

    func testAckResetsTheBadgeAndPrintsThePreviousCount() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "a", "title": "A", "time": "08:00" }, { "id": "b", "title": "B", "time": "08:00" },
                          { "id": "c", "title": "C", "time": "09:00" } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"),
                  delivers: ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
        XCTAssertEqual(try dir.status()["badge"] as? Int, 2)

        let first = try ack()
        XCTAssertEqual(first.status, 0, first.summary)
        XCTAssertEqual(first.stdoutLines, ["Badge cleared (was 2)."])
        XCTAssertEqual(try dir.status()["badge"] as? Int, 0)
        let second = try ack()
        XCTAssertEqual(second.stdoutLines, ["Badge cleared (was 0)."])

        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: ["alarm.prayer:c:2026-11-21"])
        XCTAssertEqual(try dir.status()["badge"] as? Int, 1)
        XCTAssertEqual(try ack().stdoutLines, ["Badge cleared (was 1)."])
        // ack clears the badge only: nothing is redelivered and the outbox is unchanged.
        assertRun(try dir.run(at: "2026-11-21T09:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs().count, 3)
    }

    // MARK: - test

    func testTestCommandDeliversThroughStdoutTheOutboxAndTheCommand() throws {
        let log = dir.fileURL("calls.log").path
        try writeSettings(enabled: true, command: [try recorder(log: log), "{title}", "{body}"])
        let result = try NudgeProcess.run(["test", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                          workingDirectory: dir.url)
        XCTAssertEqual(result.status, 0, result.summary)
        let id = "test:test:2026-11-21T08:00:00Z"
        let title = "Test Notification", body = "Your notifications are working perfectly! 🎉"
        XCTAssertEqual(result.stdoutLines.count, 1, result.summary)
        let line = result.stdoutLines.first ?? ""
        XCTAssertTrue(line.contains("\(title) — \(body)"), result.summary)
        XCTAssertTrue(line.contains("2026-11-21 08:00"), result.summary)
        XCTAssertFalse(line.hasPrefix("{"), "without --json the line is for people: \(line)")

        XCTAssertEqual(try dir.outboxIDs(), [id])
        let record = try XCTUnwrap(try outboxRecords().first)
        XCTAssertEqual(record["kind"] as? String, "test")
        XCTAssertEqual(record["title"] as? String, title)
        XCTAssertEqual(record["body"] as? String, body)
        XCTAssertEqual(record["category"] as? String, "TEST")
        XCTAssertEqual(record["actions"] as? [String], [])
        XCTAssertEqual(record["fireAt"] as? String, "2026-11-21T08:00:00Z")
        XCTAssertEqual(record["deliveredAt"] as? String, "2026-11-21T08:00:00Z")
        XCTAssertEqual(record["lateSeconds"] as? Int, 0)

        XCTAssertEqual(NudgeResult.lines((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""),
                       ["\(id)|\(title)|\(body)"])

        // A later run does not deliver it again, through any channel.
        try dir.write("alarms.json", Fixture.noAlarms)
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [id])
        XCTAssertEqual(NudgeResult.lines((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").count, 1)
        let status = try dir.status()
        XCTAssertEqual(status["commandRetries"] as? Int, 0)
        XCTAssertEqual(status["badge"] as? Int, 1, "the test notification counts for the badge")
    }

    func testAFailedTestCommandExits69IsShownByStatusAndIsNotShownLate() throws {
        let counter = dir.fileURL("counter").path
        let log = dir.fileURL("calls.log").path
        let url = dir.fileURL("flaky.sh")
        try Data(("#!/bin/sh\nn=$(cat '\(counter)' 2>/dev/null || echo 0); n=$((n + 1)); echo \"$n\" > '\(counter)'\n"
                  + "printf '%s %s\\n' \"$n\" \"$NUDGE_ID\" >> '\(log)'\n[ \"$n\" -eq 1 ] && exit 3\nexit 0\n").utf8)
            .write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try writeSettings(enabled: true, command: [url.path])
        let id = "test:test:2026-11-21T08:00:00Z"

        let result = try NudgeProcess.run(["test", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                          workingDirectory: dir.url)
        // `nudge test` exits 69 with the reason when a channel failed, and never claims success.
        XCTAssertEqual(result.status, 69, result.summary)
        XCTAssertTrue(result.stderrLines.contains { $0.hasPrefix("nudge: desktop command failed for \(id): ") },
                      result.summary)
        XCTAssertTrue(result.stderrLines.contains { $0.hasPrefix("nudge test: the test notification did NOT reach "
            + "the desktop command: ") }, result.summary)
        XCTAssertFalse(result.stdout.contains("working perfectly"), result.summary)
        // The failure is shown by `status`; so is the badge (1, the test notification).
        let status = try dir.status()
        XCTAssertEqual(status["commandRetries"] as? Int, 0, "a failed test is not retried: \(status)")
        XCTAssertTrue((status["commandFailures"] as? [String] ?? []).contains { $0.contains(id) },
                      "status --json after a failed `nudge test`: \(status)")
        XCTAssertEqual(status["badge"] as? Int, 1, "status --json after `nudge test`: \(status)")

        // The next run does not show the test late; a second test in the same second is a new occurrence.
        try dir.write("alarms.json", Fixture.noAlarms)
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        XCTAssertEqual(NudgeResult.lines((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""), ["1 \(id)"])
        let second = try NudgeProcess.run(["test", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                          workingDirectory: dir.url)
        XCTAssertEqual(second.status, 0, second.summary)
        XCTAssertEqual(try dir.outboxIDs(), [id, id + ":2"])
    }

    func testTestCommandDeliversWithTheMasterSwitchOffAndWarns() throws {
        let log = dir.fileURL("calls.log").path
        try writeSettings(enabled: false, command: [try recorder(log: log), "{title}", "{body}"])
        let result = try NudgeProcess.run(["test", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                          workingDirectory: dir.url)
        XCTAssertEqual(result.status, 0, result.summary)
        let id = "test:test:2026-11-21T08:00:00Z"
        XCTAssertEqual(result.stdoutLines.count, 1, result.summary)
        XCTAssertTrue(result.stdout.contains("Test Notification"), result.summary)
        XCTAssertTrue(result.stderr.contains("switched off"), "must warn that scheduled notifications are off: "
                      + result.summary)
        XCTAssertEqual(try dir.outboxIDs(), [id])
        XCTAssertEqual(NudgeResult.lines((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""),
                       ["\(id)|Test Notification|Your notifications are working perfectly! 🎉"])
    }

    func testTestCommandWithJSONPrintsExactlyTheOutboxObjectAsOneLine() throws {
        try writeSettings(enabled: false, command: nil)
        let result = try NudgeProcess.run(["test", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                          workingDirectory: dir.url)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdoutLines.count, 1, result.summary)
        let printed = result.jsonLines()
        XCTAssertEqual(printed.count, 1)
        XCTAssertEqual(printed.first?["id"] as? String, "test:test:2026-11-21T08:00:00Z")
        XCTAssertEqual(printed.first?["title"] as? String, "Test Notification")
        let outbox = try outboxRecords()
        XCTAssertEqual(outbox.count, 1)
        XCTAssertEqual(printed.first.map(NSDictionary.init(dictionary:)), outbox.first.map(NSDictionary.init(dictionary:)),
                       "stdout carries the same object as the outbox line")
        XCTAssertFalse(result.stderr.isEmpty, "the warnings go to stderr")
    }
}
