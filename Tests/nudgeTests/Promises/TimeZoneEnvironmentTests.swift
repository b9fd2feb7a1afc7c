import Foundation
import XCTest

/// `TZ` that is not an IANA name (docs/promises.md): a POSIX rule nudge can read exactly (a fixed offset) is
/// honoured; one it cannot (daylight time) or a name it does not know gives a warning in `check` and `status`
/// naming the zone used instead, never silence. settings.json's timeZone still wins.
final class TimeZoneEnvironmentTests: DataDirectoryTestCase {
    private let berlinRule = "CET-1CEST,M3.5.0,M10.5.0/3"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try dir.write("settings.json", "{ \"notifications\": { \"enabled\": true } }\n")
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
    }

    private func nudge(_ arguments: [String], tz: String) throws -> NudgeResult {
        try NudgeProcess.run(arguments + ["--data", dir.path], workingDirectory: dir.url, environment: ["TZ": tz])
    }

    private func run(at now: String, tz: String) throws -> NudgeResult {
        try nudge(["run", "--json", "--now", now], tz: tz)
    }

    private func fireAt(_ id: String) throws -> String? {
        let pending = try dir.json("plan.json")["pending"] as? [[String: Any]] ?? []
        return pending.first { $0["id"] as? String == id }?["fireAt"] as? String
    }

    func testAFixedOffsetRuleIsHonouredExactly() throws {
        try assertHonoursNineHoursAhead("JST-9")
    }

    /// GMT-9 is nine hours *ahead* of UTC in POSIX, as for every other program; Foundation alone reads it as
    /// nine hours behind. A quoted name and the colon form are the same rule.
    func testOffsetNamesAndQuotedNamesFollowThePosixSign() throws {
        for tz in ["GMT-9", "<+09>-9", ":JST-9"] {
            dir.remove()
            try setUpWithError()  // a fresh data directory
            try assertHonoursNineHoursAhead(tz)
        }
    }

    /// The 05:30 alarm rings at 20:30Z the day before, and neither check nor status warns.
    private func assertHonoursNineHoursAhead(_ tz: String, file: StaticString = #filePath, line: UInt = #line) throws {
        assertRun(try run(at: "2026-11-20T12:00:00Z", tz: tz), delivers: [], file: file, line: line)
        XCTAssertEqual(try fireAt("alarm.prayer:fajr:2026-11-21"), "2026-11-20T20:30:00Z", tz, file: file, line: line)
        XCTAssertEqual(try dir.json("plan.json")["timeZone"] as? String, "GMT+0900", tz, file: file, line: line)
        assertRun(try run(at: "2026-11-20T20:30:00Z", tz: tz), delivers: ["alarm.prayer:fajr:2026-11-21"],
                  file: file, line: line)

        let check = try nudge(["check"], tz: tz)
        XCTAssertEqual(check.status, 0, check.summary, file: file, line: line)
        XCTAssertEqual(check.stderr, "", tz, file: file, line: line)
        let status = try nudge(["status", "--now", "2026-11-20T20:31:00Z"], tz: tz)
        XCTAssertFalse(status.stdout.contains("Warning"), status.summary, file: file, line: line)
        XCTAssertTrue(status.stdout.contains("Last run: 2026-11-21 05:30 (1 min ago), zone GMT+0900"),
                      status.summary, file: file, line: line)
    }

    func testADaylightRuleIsNamedInCheckAndStatusWithTheZoneUsedInstead() throws {
        let check = try nudge(["check"], tz: berlinRule)
        XCTAssertEqual(check.status, 0, check.summary)
        let warning = try XCTUnwrap(check.stderrLines.first, check.summary)
        let prefix = "nudge: warning: TZ=\"\(berlinRule)\" is a POSIX rule nudge cannot follow exactly; using "
        XCTAssertTrue(warning.hasPrefix(prefix), warning)
        XCTAssertTrue(warning.hasSuffix(")"), warning)

        assertRun(try run(at: "2026-11-20T12:00:00Z", tz: berlinRule), delivers: [])
        let zone = try XCTUnwrap(try dir.json("plan.json")["timeZone"] as? String)
        XCTAssertTrue(warning.hasPrefix(prefix + zone + " instead"), "\(warning) does not name \(zone)")
        if warning.contains("which follows the same rule today") {
            // A zone of the zoneinfo tree with the same rule: the alarm rings at 05:30 Berlin time.
            XCTAssertEqual(try fireAt("alarm.prayer:fajr:2026-11-21"), "2026-11-21T04:30:00Z")
        }

        // status shows what the run used, also from a shell with another TZ.
        let status = try NudgeProcess.run(["status", "--data", dir.path, "--now", "2026-11-20T12:01:00Z"],
                                          workingDirectory: dir.url)
        XCTAssertEqual(status.stdoutLines.first, "Warning: " + warning.dropFirst("nudge: warning: ".count),
                       status.summary)
        XCTAssertEqual(try dir.status()["zoneWarning"] as? String, String(warning.dropFirst("nudge: warning: ".count)))

        // Before any run, status names the zone its own TZ would give.
        let fresh = try makeDirectory()
        let before = try NudgeProcess.run(["status", "--data", fresh.path], workingDirectory: fresh.url,
                                          environment: ["TZ": berlinRule])
        XCTAssertEqual(before.stdoutLines.first, "Warning: " + warning.dropFirst("nudge: warning: ".count),
                       before.summary)
    }

    func testATZNudgeDoesNotKnowIsNamedToo() throws {
        let check = try nudge(["check"], tz: "Mars/Olympus_Mons")
        XCTAssertEqual(check.stderrLines.first?.hasPrefix("nudge: warning: TZ=\"Mars/Olympus_Mons\" is not a time "
                                                            + "zone nudge knows; using "), true, check.summary)
    }

    func testSettingsTimeZoneWinsOverTZ() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Asia/Tokyo"))
        let check = try nudge(["check"], tz: berlinRule)
        XCTAssertEqual(check.stderr, "", check.summary)
        assertRun(try run(at: "2026-11-20T12:00:00Z", tz: berlinRule), delivers: [])
        XCTAssertEqual(try fireAt("alarm.prayer:fajr:2026-11-21"), "2026-11-20T20:30:00Z")
        let status = try nudge(["status", "--now", "2026-11-20T12:01:00Z"], tz: berlinRule)
        XCTAssertFalse(status.stdout.contains("Warning"), status.summary)
        XCTAssertTrue(try dir.status()["zoneWarning"] is NSNull)
    }

    /// docs/travelling.md, "The zone": init pins no zone, so the runs follow the system's as the laptop travels;
    /// it still names a rule it cannot follow. Before, it wrote `"timeZone": "Etc/GMT-9"` for TZ=JST-9, and the
    /// alarms kept that clock in Lisbon.
    func testInitPinsNoZoneAndTheRunsFollowTheSystemsZoneAsItChanges() throws {
        let fresh = try makeDirectory()
        let ahead = try NudgeProcess.run(["init", fresh.path + "/jst"], workingDirectory: fresh.url,
                                         environment: ["TZ": "Europe/Berlin"])
        XCTAssertEqual(ahead.status, 0, ahead.summary)
        XCTAssertEqual(ahead.stderr, "")
        let settings = try JSONSerialization.jsonObject(with: fresh.data("jst/settings.json")) as? [String: Any]
        XCTAssertNil(settings?["timeZone"])
        let data = fresh.path + "/jst"
        let check = try NudgeProcess.run(["check", "--data", data], environment: ["TZ": "Europe/Berlin"])
        XCTAssertEqual(check.status, 0, check.summary)
        XCTAssertFalse(check.stdout.contains("pinned"), check.summary)

        // The starter fajr alarm at 05:30: Berlin's clock, then Lisbon's once the system zone is Lisbon's.
        let inBerlin = try NudgeProcess.run(["run", "--data", data, "--now", "2026-11-20T12:00:00Z"],
                                            environment: ["TZ": "Europe/Berlin"])
        XCTAssertEqual(inBerlin.status, 0, inBerlin.summary)
        let plan = try NudgeProcess.run(["plan", "--data", data, "--now", "2026-11-20T12:01:00Z"],
                                        environment: ["TZ": "Europe/Berlin"])
        XCTAssertTrue(plan.stdout.contains("zone Europe/Berlin (system)"), plan.summary)
        let inLisbon = try NudgeProcess.run(["run", "--data", data, "--now", "2026-11-20T12:02:00Z"],
                                            environment: ["TZ": "Europe/Lisbon"])
        XCTAssertEqual(inLisbon.status, 0, inLisbon.summary)
        XCTAssertEqual(inLisbon.stderrLines, ["nudge: the zone is now Europe/Lisbon (system), was Europe/Berlin: "
                                              + "daily times follow its clock"], inLisbon.summary)
        let planned = try JSONSerialization.jsonObject(with: fresh.data("jst/plan.json")) as? [String: Any]
        let fajr = (planned?["pending"] as? [[String: Any]])?.first { ($0["id"] as? String)?.hasPrefix("alarm.prayer:fajr") ?? false }
        XCTAssertEqual(fajr?["fireAt"] as? String, "2026-11-21T05:30:00Z", "05:30 on Lisbon's clock")
        let again = try NudgeProcess.run(["run", "--data", data, "--now", "2026-11-20T12:03:00Z"],
                                         environment: ["TZ": "Europe/Lisbon"])
        XCTAssertEqual(again.stderr, "", "said once")
        let status = try NudgeProcess.run(["status", "--data", data, "--now", "2026-11-20T12:04:00Z"],
                                          environment: ["TZ": "Europe/Lisbon"])
        XCTAssertTrue(status.stdout.contains("zone Europe/Lisbon (system)"), status.summary)

        let rule = try NudgeProcess.run(["init", fresh.path + "/cet"], workingDirectory: fresh.url,
                                        environment: ["TZ": berlinRule])
        XCTAssertEqual(rule.status, 0, rule.summary)
        XCTAssertTrue(rule.stderr.hasPrefix("nudge: warning: TZ=\"\(berlinRule)\" is a POSIX rule"), rule.summary)
    }

    /// An existing settings.json keeps its pinned zone (nothing is migrated silently), and `check` says so.
    func testAPinnedZoneStaysAndCheckSaysItIsPinned() throws {
        try dir.write("settings.json", #"{ "timeZone": "Europe/Berlin" }"#)
        let check = try NudgeProcess.run(["check", "--data", dir.path], environment: ["TZ": "Europe/Lisbon"])
        XCTAssertEqual(check.status, 0, check.summary)
        XCTAssertTrue(check.stdoutLines.contains("Zone: Europe/Berlin, pinned by settings.json (\"timeZone\"): daily "
                                                 + "times keep its clock wherever the machine is; remove \"timeZone\" to "
                                                 + "follow the system's zone"), check.summary)
        XCTAssertEqual(try run(at: "2026-11-20T12:00:00Z", tz: "Europe/Lisbon").status, 0)
        let plan = try NudgeProcess.run(["plan", "--data", dir.path], environment: ["TZ": "Europe/Lisbon"])
        XCTAssertTrue(plan.stdout.contains("zone Europe/Berlin (settings.json)"), plan.summary)
    }
}
