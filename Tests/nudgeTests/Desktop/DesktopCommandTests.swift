import Foundation
import XCTest

/// The desktop command channel end to end (docs/files.md, `deliver.command`): exact argv and `NUDGE_*`
/// environment without a shell, failures reported on stderr and retried on later runs until the notification
/// expires (never a second outbox line), no retries while the master switch is off, the 10 s limit, and the badge
/// count passed as `NUDGE_BADGE`. BudgetAndChannelTests already checks one plain delivery through `/bin/sh -c`.
final class DesktopCommandTests: DataDirectoryTestCase {
    private let fajr = "alarm.prayer:fajr:2026-11-21"

    // MARK: - Helpers

    /// Writes an executable `/bin/sh` script into the data directory and returns its absolute path.
    private func script(_ name: String, _ body: String) throws -> String {
        let url = dir.fileURL(name)
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    /// A script that appends one block per call to `log`: `--- call`, each argument as `arg=…`, each NUDGE_*
    /// variable as `NAME=…`, then exits with `exitCode`. It also prints a marker on its stdout.
    private func recorder(log: String, exitCode: Int = 0) throws -> String {
        try script("recorder.sh", """
            {
              echo '--- call'
              for a in "$@"; do printf 'arg=%s\\n' "$a"; done
              printf 'NUDGE_ID=%s\\n' "${NUDGE_ID-<unset>}"
              printf 'NUDGE_KIND=%s\\n' "${NUDGE_KIND-<unset>}"
              printf 'NUDGE_TITLE=%s\\n' "${NUDGE_TITLE-<unset>}"
              printf 'NUDGE_BODY=%s\\n' "${NUDGE_BODY-<unset>}"
              printf 'NUDGE_DEEPLINK=%s\\n' "${NUDGE_DEEPLINK-<unset>}"
              printf 'NUDGE_PRIORITY=%s\\n' "${NUDGE_PRIORITY-<unset>}"
              printf 'NUDGE_BADGE=%s\\n' "${NUDGE_BADGE-<unset>}"
            } >> '\(log)'
            echo 'recorder-stdout-marker'
            exit \(exitCode)
            """)
    }

    /// A script that counts its calls in `counter`, logs `<n> <NUDGE_ID>` to `log`, and exits with `code(n)`
    /// written as a shell expression over `$n`.
    private func counting(counter: String, log: String, failWhen condition: String) throws -> String {
        try script("counting.sh", """
            n=$(cat '\(counter)' 2>/dev/null || echo 0)
            n=$((n + 1))
            echo "$n" > '\(counter)'
            printf '%s %s\\n' "$n" "$NUDGE_ID" >> '\(log)'
            if \(condition); then exit 3; fi
            exit 0
            """)
    }

    /// settings.json with `deliver.command` and optional extra members, written with JSONSerialization so that
    /// every template element reaches nudge byte for byte.
    private func writeSettings(command: [String], enabled: Bool = true, badge: Bool = true) throws {
        let settings: [String: Any] = [
            "timeZone": "UTC",
            "notifications": ["enabled": enabled, "badge": badge],
            "deliver": ["command": command],
        ]
        try JSONSerialization.data(withJSONObject: settings, options: [.sortedKeys])
            .write(to: dir.fileURL("settings.json"))
    }

    /// The blocks the recorder logged, each as its lines without the `--- call` marker.
    private func calls(_ log: String) -> [[String]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        var blocks: [[String]] = []
        for line in NudgeResult.lines(text) {
            if line == "--- call" { blocks.append([]) } else if !blocks.isEmpty { blocks[blocks.count - 1].append(line) }
        }
        return blocks
    }

    private func logLines(_ log: String) -> [String] {
        NudgeResult.lines((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    private func commandRetries(file: StaticString = #filePath, line: UInt = #line) throws -> Int? {
        try dir.status(file: file, line: line)["commandRetries"] as? Int
    }

    private func commandFailures(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try dir.status(file: file, line: line)["commandFailures"] as? [String] ?? []
    }

    /// Every path below `directory` whose last component contains `name`.
    private func files(named name: String, below directory: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { ($0 as NSString).lastPathComponent.contains(name) }
    }

    // MARK: - Arguments and environment

    func testHostileTitleAndBodyReachTheCommandAsLiteralArgumentsAndEnvironmentWithoutAShell() throws {
        let log = dir.fileURL("calls.log").path
        let recorder = try recorder(log: log)
        try writeSettings(command: [recorder, "{title}", "body: {body}", "{id}|{kind}|{deepLink}", "{unknown}",
                                    "{title", "$(touch PWNED-TEMPLATE) {{id}}"])
        let hostileTitle = #"$(touch PWNED) `id` "quoted" {body}"#
        let hostileDescription = #"; touch PWNED-BODY; {title} $HOME 'single' `touch PWNED-TICK` {id}"#
        let alarms: [String: Any] = ["alarms": [["id": "fajr", "title": hostileTitle, "time": "08:00"]]]
        try JSONSerialization.data(withJSONObject: alarms).write(to: dir.fileURL("alarms.json"))
        let streaks: [String: Any] = [
            "games": [],
            "achievements": [["id": "a-1", "title": hostileTitle, "description": hostileDescription,
                              "unlockedAt": "2026-11-21T08:00:00Z"]],
        ]
        try JSONSerialization.data(withJSONObject: streaks).write(to: dir.fileURL("streaks.json"))

        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let run = try dir.run(at: "2026-11-21T08:00:00Z")
        let achievement = "streak.achievement:a-1:unlocked"
        assertRun(run, delivers: [fajr, achievement])
        // The command's own stdout goes to nudge's stderr, so `--json` stdout stays delivery lines only.
        XCTAssertFalse(run.stdout.contains("recorder-stdout-marker"), run.summary)
        XCTAssertTrue(run.stderr.contains("recorder-stdout-marker"), run.summary)
        XCTAssertFalse(run.stderr.contains("desktop command failed"), run.summary)

        let records = try dir.outboxLines().map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(records.count, 2)
        let alarmTitle = hostileTitle + " Time"
        let achievementTitle = "Achievement unlocked: " + hostileTitle
        XCTAssertEqual(records.first?["title"] as? String, alarmTitle)
        XCTAssertEqual(records.last?["body"] as? String, hostileDescription)
        let alarmLink = try XCTUnwrap(records.first?["deepLink"] as? String)
        let achievementLink = try XCTUnwrap(records.last?["deepLink"] as? String)

        let recorded = calls(log)
        XCTAssertEqual(recorded.count, 2, "one call per delivery: \(recorded)")
        XCTAssertEqual(recorded.first, [
            "arg=\(alarmTitle)",  // `{body}` inside the title is text, not a placeholder
            "arg=body: Take 15 minutes to pray",
            "arg=\(fajr)|alarm.prayer|\(alarmLink)",
            "arg={unknown}",
            "arg={title",
            "arg=$(touch PWNED-TEMPLATE) {\(fajr)}",
            "NUDGE_ID=\(fajr)",
            "NUDGE_KIND=alarm.prayer",
            "NUDGE_TITLE=\(alarmTitle)",
            "NUDGE_BODY=Take 15 minutes to pray",
            "NUDGE_DEEPLINK=\(alarmLink)",
            "NUDGE_PRIORITY=critical",
            "NUDGE_BADGE=1",
        ])
        XCTAssertEqual(recorded.last, [
            "arg=\(achievementTitle)",
            "arg=body: \(hostileDescription)",  // `{title}` and `{id}` inside the body stay as they are
            "arg=\(achievement)|streak.achievement|\(achievementLink)",
            "arg={unknown}",
            "arg={title",
            "arg=$(touch PWNED-TEMPLATE) {\(achievement)}",
            "NUDGE_ID=\(achievement)",
            "NUDGE_KIND=streak.achievement",
            "NUDGE_TITLE=\(achievementTitle)",
            "NUDGE_BODY=\(hostileDescription)",
            "NUDGE_DEEPLINK=\(achievementLink)",
            "NUDGE_PRIORITY=low",
            "NUDGE_BADGE=2",
        ])
        XCTAssertEqual(files(named: "PWNED", below: dir.url), [], "a shell ran the text of a notification")
        XCTAssertEqual(try commandRetries(), 0)
    }

    // MARK: - Failures and retries

    func testAFailedCommandIsReportedThenRetriedOnceByTheNextRunWithoutASecondOutboxLine() throws {
        let counter = dir.fileURL("counter").path
        let log = dir.fileURL("calls.log").path
        try writeSettings(command: [try counting(counter: counter, log: log, failWhen: "[ \"$n\" -eq 1 ]"), "{title}"])
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))

        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let failing = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(failing, delivers: [fajr])  // exit 0 despite the failure
        let reports = failing.stderrLines.filter { $0.hasPrefix("nudge: desktop command failed for \(fajr): ") }
        XCTAssertEqual(reports.count, 1, failing.summary)
        XCTAssertTrue(reports.first?.contains("status 3") ?? false, failing.summary)
        XCTAssertEqual(logLines(log), ["1 \(fajr)"])
        XCTAssertEqual(try commandRetries(), 1)
        XCTAssertTrue(try commandFailures().contains { $0.contains(fajr) }, "status shows the failure")

        let retry = try dir.run(at: "2026-11-21T08:01:00Z")
        assertRun(retry, delivers: [])  // the retry runs the command only; stdout and the outbox are not repeated
        XCTAssertEqual(retry.stderrLines, ["nudge: desktop command got through for \(fajr) after 1 failed attempt"],
                       retry.summary)
        XCTAssertEqual(logLines(log), ["1 \(fajr)", "2 \(fajr)"])
        XCTAssertEqual(try commandRetries(), 0)

        assertRun(try dir.run(at: "2026-11-21T08:02:00Z"), delivers: [])
        XCTAssertEqual(logLines(log), ["1 \(fajr)", "2 \(fajr)"], "a command that succeeded is not run again")
        XCTAssertEqual(try dir.outboxIDs(), [fajr])
    }

    /// cron mails each run's stderr: the failure is said when it first happens and when it ends, not on each of
    /// the retries in between, which `status` shows (docs/promises.md).
    func testACommandThatNeverSucceedsIsRetriedOnEachRunUntilTheNotificationExpiresThenGivenUp() throws {
        let counter = dir.fileURL("counter").path
        let log = dir.fileURL("calls.log").path
        try writeSettings(command: [try counting(counter: counter, log: log, failWhen: "true")])
        // durationMinutes 15 → the alarm expires 30 min after 08:00 (docs/files.md, "alarms.json": at least 30 min).
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))

        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        for (index, now) in ["2026-11-21T08:00:00Z", "2026-11-21T08:01:00Z", "2026-11-21T08:29:00Z"].enumerated() {
            let result = try dir.run(at: now)
            assertRun(result, delivers: index == 0 ? [fajr] : [])
            XCTAssertEqual(result.stderrLines.filter { $0.hasPrefix("nudge: desktop command failed for \(fajr): ") }
                .count, index == 0 ? 1 : 0, result.summary)
            if index > 0 { XCTAssertEqual(result.stderr, "", "a retry that fails again is not said again") }
            XCTAssertEqual(logLines(log).count, index + 1, "one attempt per run")
            XCTAssertEqual(try commandRetries(), 1)
            XCTAssertEqual(try commandFailures().filter { $0.contains("\(fajr): desktop command failed") }.count,
                           index + 1, "status shows every attempt")
        }

        let expired = try dir.run(at: "2026-11-21T08:31:00Z")
        assertRun(expired, delivers: [])
        XCTAssertEqual(expired.stderrLines.count, 1, expired.summary)
        XCTAssertTrue(expired.stderr.hasPrefix("nudge: desktop command gave up on \(fajr): it expired at "
            + "2026-11-21T08:30:00Z after 3 failed attempts ("), expired.summary)
        assertRun(try dir.run(at: "2026-11-21T08:45:00Z"), delivers: [])
        XCTAssertEqual(logLines(log), ["1 \(fajr)", "2 \(fajr)", "3 \(fajr)"], "no attempt after the expiry")
        XCTAssertEqual(try commandRetries(), 0)
        let failures = try commandFailures()
        XCTAssertTrue(failures.contains { $0.contains(fajr) && $0.contains("gave up") }, "\(failures)")
        XCTAssertEqual(try dir.outboxIDs(), [fajr])
    }

    func testAMissingProgramIsReportedAsCannotStartAndTheDeliveryStillReachesStdoutAndTheOutbox() throws {
        try writeSettings(command: ["no-such-program-xyz", "{title}"])
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))

        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let result = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(result, delivers: [fajr])
        let report = result.stderrLines.first { $0.hasPrefix("nudge: desktop command failed for \(fajr): ") }
        XCTAssertNotNil(report, result.summary)
        XCTAssertTrue(report?.contains("cannot start no-such-program-xyz") ?? false, result.summary)
        XCTAssertEqual(try dir.outboxIDs(), [fajr])
        XCTAssertEqual(try commandRetries(), 1)

        // Retried on the next run, which `status` shows; stderr said it once.
        let retry = try dir.run(at: "2026-11-21T08:01:00Z")
        assertRun(retry, delivers: [])
        XCTAssertEqual(retry.stderr, "", retry.summary)
        XCTAssertEqual(try commandFailures().filter { $0.contains("cannot start no-such-program-xyz") }.count, 2)
        XCTAssertEqual(try dir.outboxIDs(), [fajr])
    }

    func testNothingIsRetriedWhileNotificationsAreSwitchedOffAndTheRetryResumesWhenSwitchedOn() throws {
        let counter = dir.fileURL("counter").path
        let log = dir.fileURL("calls.log").path
        let command = [try counting(counter: counter, log: log, failWhen: "[ \"$n\" -eq 1 ]")]
        try writeSettings(command: command)
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": "08:00" },
                          { "id": "dhuhr", "title": "Noon Prayer", "time": "08:05" } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [fajr])
        XCTAssertEqual(logLines(log), ["1 \(fajr)"])
        XCTAssertEqual(try commandRetries(), 1)

        try writeSettings(command: command, enabled: false)
        for now in ["2026-11-21T08:01:00Z", "2026-11-21T08:05:00Z", "2026-11-21T08:06:00Z"] {
            let off = try dir.run(at: now)
            assertRun(off, delivers: [])
            XCTAssertFalse(off.stderr.contains("desktop command failed"), off.summary)
        }
        XCTAssertEqual(logLines(log), ["1 \(fajr)"], "the command ran while notifications were switched off")
        let status = try dir.status()
        XCTAssertEqual(status["notificationsEnabled"] as? Bool, false)
        XCTAssertEqual(status["commandRetries"] as? Int, 1, "the retry is kept, not dropped")

        // Switched on again (still before fajr's expiry at 08:30): the pending retry runs once and succeeds;
        // dhuhr, which fell due while off, is not replayed.
        try writeSettings(command: command, enabled: true)
        assertRun(try dir.run(at: "2026-11-21T08:10:00Z"), delivers: [])
        XCTAssertEqual(logLines(log), ["1 \(fajr)", "2 \(fajr)"])
        XCTAssertEqual(try commandRetries(), 0)
        XCTAssertEqual(try dir.outboxIDs(), [fajr])
    }

    func testARetryThatExpiredWhileNotificationsWereOffIsGivenUpWithoutRunningTheCommand() throws {
        let counter = dir.fileURL("counter").path
        let log = dir.fileURL("calls.log").path
        let command = [try counting(counter: counter, log: log, failWhen: "[ \"$n\" -eq 1 ]")]
        try writeSettings(command: command)
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))  // expires 08:30
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [fajr])

        try writeSettings(command: command, enabled: false)
        assertRun(try dir.run(at: "2026-11-21T08:10:00Z"), delivers: [])
        try writeSettings(command: command, enabled: true)
        let late = try dir.run(at: "2026-11-21T08:45:00Z")
        assertRun(late, delivers: [])
        XCTAssertFalse(late.stderr.contains("desktop command failed"), late.summary)
        XCTAssertEqual(logLines(log), ["1 \(fajr)"], "an expired notification is not sent to the command")
        XCTAssertEqual(try commandRetries(), 0)
        XCTAssertTrue(try commandFailures().contains { $0.contains(fajr) && $0.contains("gave up") })
    }

    func testDryRunNeverRunsTheCommandWhileQuietStillDoes() throws {
        let log = dir.fileURL("calls.log").path
        try writeSettings(command: [try recorder(log: log), "{id}"])
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])

        let dry = try dir.run(at: "2026-11-21T08:00:00Z", "--dry-run")
        assertRun(dry, delivers: [fajr])
        XCTAssertEqual(calls(log).count, 0, "a dry run ran the desktop command")
        XCTAssertEqual(try dir.outboxIDs(), [])

        let quiet = try NudgeProcess.run(["run", "--quiet", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                         workingDirectory: dir.url)
        XCTAssertEqual(quiet.status, 0, quiet.summary)
        XCTAssertEqual(quiet.stdout, "", quiet.summary)
        XCTAssertEqual(calls(log).map { $0.first }, ["arg=\(fajr)"])
        XCTAssertEqual(try dir.outboxIDs(), [fajr])
    }

    func testACommandThatHangsIsStoppedAfterAboutTenSecondsAndTheRunStillSucceeds() throws {
        // The shell forks `sleep` as its child: the timeout must stop the whole process group, or the orphaned
        // sleep would keep nudge's stderr open (and cron's mail waiting) for 30 s.
        try writeSettings(command: ["/bin/sh", "-c", "sleep 31.7; true"])
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])

        let result = try NudgeProcess(["run", "--json", "--data", dir.path, "--now", "2026-11-21T08:00:00Z"],
                                      workingDirectory: dir.url).waitForExit(timeout: 40)
        assertRun(result, delivers: [fajr])
        XCTAssertGreaterThanOrEqual(result.elapsed, 9, result.summary)
        XCTAssertLessThanOrEqual(result.elapsed, 20, result.summary)
        let report = result.stderrLines.first { $0.hasPrefix("nudge: desktop command failed for \(fajr): ") }
        XCTAssertNotNil(report, result.summary)
        XCTAssertTrue(report?.contains("10 s") ?? false, result.summary)
        XCTAssertEqual(try dir.outboxIDs(), [fajr])
        XCTAssertEqual(try commandRetries(), 1)
        XCTAssertEqual(processes(withCommandLine: "sleep 31.7"), [], "the command's child outlived the timeout")
    }

    /// Process ids whose command line is exactly `commandLine` (arguments joined by spaces), from /proc.
    private func processes(withCommandLine commandLine: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard entry.allSatisfy(\.isNumber),
                  let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return false }
            let arguments = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.joined(separator: " ") == commandLine
        }
    }

    // MARK: - Badge

    func testNudgeBadgeCountsEachBadgedDeliveryAndStartsAgainFromOneAfterAck() throws {
        let log = dir.fileURL("calls.log").path
        try writeSettings(command: [try recorder(log: log)])
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "a", "title": "A", "time": "08:00" }, { "id": "b", "title": "B", "time": "08:01" },
                          { "id": "c", "title": "C", "time": "08:01" }, { "id": "d", "title": "D", "time": "08:03" } ] }
            """)
        func badges() -> [String] {
            calls(log).map { block in block.first { $0.hasPrefix("NUDGE_ID=") }! + " "
                + block.first { $0.hasPrefix("NUDGE_BADGE=") }! }
        }
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: ["alarm.prayer:a:2026-11-21"])
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"),
                  delivers: ["alarm.prayer:b:2026-11-21", "alarm.prayer:c:2026-11-21"])
        XCTAssertEqual(try dir.status()["badge"] as? Int, 3)

        let ack = try NudgeProcess.run(["ack", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(ack.status, 0, ack.summary)
        XCTAssertEqual(ack.stdoutLines, ["Badge cleared (was 3)."])
        XCTAssertEqual(try dir.status()["badge"] as? Int, 0)

        assertRun(try dir.run(at: "2026-11-21T08:03:00Z"), delivers: ["alarm.prayer:d:2026-11-21"])
        XCTAssertEqual(badges(), [
            "NUDGE_ID=alarm.prayer:a:2026-11-21 NUDGE_BADGE=1",
            "NUDGE_ID=alarm.prayer:b:2026-11-21 NUDGE_BADGE=2",
            "NUDGE_ID=alarm.prayer:c:2026-11-21 NUDGE_BADGE=3",
            "NUDGE_ID=alarm.prayer:d:2026-11-21 NUDGE_BADGE=1",
        ])
        XCTAssertEqual(try dir.status()["badge"] as? Int, 1)
    }

    func testWithBadgesSwitchedOffDeliveriesDoNotCountAndNudgeBadgeStaysZero() throws {
        let log = dir.fileURL("calls.log").path
        try writeSettings(command: [try recorder(log: log)], badge: false)
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "a", "title": "A", "time": "08:00" }, { "id": "b", "title": "B", "time": "08:01" } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: ["alarm.prayer:a:2026-11-21"])
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: ["alarm.prayer:b:2026-11-21"])
        XCTAssertEqual(calls(log).map { $0.filter { $0.hasPrefix("NUDGE_BADGE=") } },
                       [["NUDGE_BADGE=0"], ["NUDGE_BADGE=0"]])
        XCTAssertEqual(try dir.status()["badge"] as? Int, 0)
        let outbox = try dir.outboxLines().map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(outbox.map { $0?["badge"] as? Bool }, [false, false])
    }
}
