import Foundation
import XCTest

/// The command line itself: usage errors, help, version, `plan`, `init`.
final class CommandLineTests: DataDirectoryTestCase {
    private let commands = ["run", "plan", "status", "check", "init"]

    func testUsageErrorsExit64WithTheReasonOnStderrAndNothingOnStdout() throws {
        try dir.write("settings.json", Fixture.settings())
        let cases: [(arguments: [String], stderrContains: String)] = [
            ([], "usage: nudge COMMAND"),
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["run", "--data", dir.path, "--frobnicate"], "unknown option '--frobnicate'"),
            (["run", "--data", dir.path, "--dry-rnu"], "unknown option '--dry-rnu' (did you mean --dry-run?)"),
            (["status", "--data", dir.path, "--dry-run"], "unknown option '--dry-run'"),
            (["run", "--data", dir.path, "--now", "yesterday"], "--now expects a time such as 19:30"),
            (["run", "--data", dir.path, "--now", "2026-11-21 8:00"], "--now expects a time such as 19:30"),
            (["run", "--data", dir.path, "--now"], "--now needs a value"),
            (["run", "--data", dir.path, "--wait", "-1"], "--wait expects seconds"),
            (["run", "--data", dir.path, "--wait", "soon"], "--wait expects seconds"),
            (["run", "--data", dir.path, "--json=yes"], "--json takes no value"),
            (["run", "--data", dir.path, "extra"], "wrong number of arguments"),
            (["init", "a", "b"], "wrong number of arguments"),
        ]
        for (arguments, expected) in cases {
            let result = try NudgeProcess.run(arguments, workingDirectory: dir.url)
            XCTAssertEqual(result.status, 64, result.summary)
            XCTAssertEqual(result.stdout, "", result.summary)
            XCTAssertTrue(result.stderr.contains(expected), "stderr lacks \"\(expected)\"\n" + result.summary)
        }
        // A usage error writes nothing.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["settings.json"])
    }

    func testHelpOfEveryCommandExits0OnStdout() throws {
        for command in commands {
            let result = try NudgeProcess.run([command, "--help"], workingDirectory: dir.url)
            XCTAssertEqual(result.status, 0, result.summary)
            XCTAssertEqual(result.stderr, "", result.summary)
            XCTAssertEqual(result.stdoutLines.first?.hasPrefix("usage: nudge \(command)"), true, result.summary)
            XCTAssertTrue(result.stdout.contains("--data DIR"), result.summary)
            XCTAssertTrue(result.stdout.contains("--help"), result.summary)
        }
        let overview = try NudgeProcess.run(["--help"], workingDirectory: dir.url)
        XCTAssertEqual(overview.status, 0, overview.summary)
        for command in commands {
            XCTAssertTrue(overview.stdoutLines.contains { $0.hasPrefix("  \(command) ") }, overview.summary)
        }
        // --help wins over missing or extra arguments, and writes nothing.
        let withExtra = try NudgeProcess.run(["run", "extra", "--help"], workingDirectory: dir.url)
        XCTAssertEqual(withExtra.status, 0, withExtra.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testVersionPrintsTheVersionAndExits0() throws {
        let result = try NudgeProcess.run(["--version"], workingDirectory: dir.url)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdoutLines.count, 1, result.summary)
        let line = try XCTUnwrap(result.stdoutLines.first)
        XCTAssertNotNil(line.range(of: #"^nudge [0-9]+\.[0-9]+\.[0-9]+$"#, options: .regularExpression), line)
    }

    /// One source for the version: the top entry of CHANGELOG.md is what `--version` prints.
    func testVersionIsTheTopEntryOfTheChangelog() throws {
        let changelog = try String(contentsOf: RepositoryScript.root.appendingPathComponent("CHANGELOG.md"),
                                   encoding: .utf8)
        let top = try XCTUnwrap(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        let version = try XCTUnwrap(top.dropFirst(3).split(separator: " ").first)
        let result = try NudgeProcess.run(["--version"], workingDirectory: dir.url)
        XCTAssertEqual(result.stdoutLines, ["nudge \(version)"], result.summary)
    }

    func testMissingDataDirectoryFailsWithAHint() throws {
        let missing = dir.fileURL("nowhere").path
        let result = try NudgeProcess.run(["run", "--data", missing, "--now", "2026-11-21T08:00:00Z"],
                                          workingDirectory: dir.url)
        XCTAssertEqual(result.status, 1, result.summary)
        XCTAssertTrue(result.stderr.contains("nudge init \(missing)"), result.summary)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }

    func testDataDirectoryComesFromNUDGE_DATAWhenDataIsNotGiven() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        let other = try makeDirectory()
        let result = try NudgeProcess.run(["run", "--json", "--now", "2026-11-21T08:00:00Z"],
                                          workingDirectory: other.url, environment: ["NUDGE_DATA": dir.path])
        assertRun(result, delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(try dir.outboxIDs(), ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: other.path), [])
    }

    // MARK: - plan

    func testPlanWithoutPlanFileSaysNoPlanYetAndExits0() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        let result = try NudgeProcess.run(["plan", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdoutLines, ["No plan yet — run `nudge run`",
                                            "Files: yours and nudge's own in \(dir.path)"])
        XCTAssertFalse(dir.exists("plan.json"))
    }

    func testPlanWithNowPrintsTheComputedPlanAndWritesNothing() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))
        let before = try dir.snapshot()

        let result = try dir.nudge("plan", now: "2026-11-21T08:00:00Z", "--json")
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(try dir.snapshot(), before, "plan --now wrote something")
        let plan = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(plan["generatedAt"] as? String, "2026-11-21T08:00:00Z")
        XCTAssertEqual(plan["timeZone"] as? String, "Europe/Berlin")
        XCTAssertEqual(plan["nextWakeAt"] as? String, "2026-11-21T08:15:00Z")
        let pending = try XCTUnwrap(plan["pending"] as? [[String: Any]])
        XCTAssertEqual(pending.map { $0["id"] as? String },
                       ["laundry.washComplete:snowy:c-1", "alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(pending.map { $0["fireAt"] as? String }, ["2026-11-21T08:15:00Z", "2026-11-22T04:30:00Z"])
        let budget = try XCTUnwrap(plan["budget"] as? [String: Any])
        XCTAssertEqual(budget["pending"] as? Int, 2)
        XCTAssertEqual(budget["limit"] as? Int, 64)
        XCTAssertEqual(budget["status"] as? String, "healthy")
        XCTAssertEqual(budget["message"] as? String, "Notification system healthy")

        // The run at the same instant writes the same plan nudge plan --now showed.
        XCTAssertEqual(try dir.run(at: "2026-11-21T08:00:00Z").status, 0)
        XCTAssertEqual(try dir.text("plan.json"), result.stdout)
        let shown = try NudgeProcess.run(["plan", "--json", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(shown.status, 0, shown.summary)
        XCTAssertEqual(shown.stdout, result.stdout)
    }

    // MARK: - init

    func testInitIntoANewDirectoryThenRunSucceeds() throws {
        let target = dir.fileURL("fresh").path
        // No session bus named and none in this runtime directory: the desktop channel stays off, so the run
        // prints only its line. (Where this user is logged in to a desktop, /run/user/UID/bus is found.)
        let standardBus = FileManager.default.fileExists(atPath: "/run/user/\(getuid())/bus")
        let created = try NudgeProcess.run(["init", target], workingDirectory: dir.url,
                                           environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": dir.path])
        XCTAssertEqual(created.stdout.contains("Desktop notifications are off: no desktop session bus: not logged "
            + "in to a desktop? Once you are, set \"deliver\": {\"desktop\": true} in settings.json."), !standardBus,
                       created.summary)
        XCTAssertTrue(try dir.text("fresh/settings.json").contains(#""deliver": { "desktop": \#(standardBus) }"#))
        XCTAssertEqual(created.status, 0, created.summary)
        let made = try XCTUnwrap(try? FileManager.default.contentsOfDirectory(atPath: target))
        XCTAssertEqual(made.sorted(), ["alarms.json", "laundry.json", "settings.json"])
        for name in made {
            let attributes = try FileManager.default.attributesOfItem(atPath: target + "/" + name)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, name)
        }

        let check = try NudgeProcess.run(["check", "--data", target], workingDirectory: dir.url)
        XCTAssertEqual(check.status, 0, check.summary)

        // The starter alarm rings at 05:30 in the system zone (TZ=UTC): a first run exactly then delivers it.
        let run = try NudgeProcess.run(["run", "--data", target, "--now", "2026-11-21T05:30:00Z"],
                                       workingDirectory: dir.url)
        XCTAssertEqual(run.status, 0, run.summary)
        XCTAssertEqual(run.stdoutLines, ["[2026-11-21 05:30] Morning Prayer Time — Take 15 minutes to pray "
                                         + "(critical, alarm.prayer) → nudge act alarm.prayer:fajr:2026-11-21 "
                                         + "START_TIMER|SNOOZE"])
        XCTAssertEqual(run.stderr, "")
        let again = try NudgeProcess.run(["run", "--json", "--data", target, "--now", "2026-11-21T05:31:00Z"],
                                         workingDirectory: dir.url)
        assertRun(again, delivers: [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: target + "/plan.json"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: target + "/state.json"))
    }

    func testInitNeverOverwritesAnExistingFile() throws {
        let mine = "{ \"alarms\": [] }\n"
        try dir.write("alarms.json", mine)
        let result = try NudgeProcess.run(["init", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(try dir.text("alarms.json"), mine)
        XCTAssertTrue(dir.exists("settings.json"))
        XCTAssertTrue(dir.exists("laundry.json"))
        XCTAssertTrue(result.stdout.contains("kept     \(dir.path)/alarms.json"), result.summary)

        let settings = try dir.data("settings.json")
        let laundry = try dir.data("laundry.json")
        let second = try NudgeProcess.run(["init", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(second.status, 0, second.summary)
        XCTAssertEqual(try dir.data("settings.json"), settings)
        XCTAssertEqual(try dir.data("laundry.json"), laundry)
        XCTAssertEqual(try dir.text("alarms.json"), mine)
        XCTAssertFalse(second.stdout.contains("created"), second.summary)
    }

    /// `command` run with its standard output on `output` (a full device, or a pipe whose reader is gone):
    /// its exit status and what it said on stderr.
    private func runWithOutput(_ arguments: [String], to output: FileHandle) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = try NudgeProcess.executableURL()
        process.arguments = arguments
        process.currentDirectoryURL = dir.url
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }

    /// A failed write to stdout is an error, named on stderr, exit 74: a full disk under cron's mail
    /// (`/dev/full`), or a closed pipe; a run's deliveries are still in the outbox and not delivered twice.
    func testAFailedWriteToStandardOutputIsExit74WithOneLineOnStderr() throws {
        let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
        let manual = try runWithOutput(["man"], to: full)
        XCTAssertEqual(manual.status, 74, manual.stderr)
        XCTAssertEqual(manual.stderr.split(separator: "\n").count, 1, manual.stderr)
        XCTAssertTrue(manual.stderr.contains("could not write the output"), manual.stderr)

        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))  // done 08:15
        XCTAssertEqual(try dir.run(at: "2026-11-21T08:14:00Z").status, 0)
        let run = try runWithOutput(["run", "--data", dir.path, "--now", "2026-11-21T08:15:00Z"], to: full)
        XCTAssertEqual(run.status, 74, run.stderr)
        XCTAssertTrue(run.stderr.contains("could not write the output"), run.stderr)
        XCTAssertEqual(try dir.outboxIDs(), ["laundry.washComplete:snowy:c-1"])
        XCTAssertEqual(try dir.run(at: "2026-11-21T08:16:00Z").deliveredIDs(), [])

        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let closed = try runWithOutput(["--help"], to: pipe.fileHandleForWriting)
        XCTAssertEqual(closed.status, 74, closed.stderr)
        XCTAssertTrue(closed.stderr.contains("could not write the output"), closed.stderr)
    }

    /// `-h` and `--help` on every command, and `nudge help CMD`, print the same help, exit 0.
    func testDashHAndHelpCommandGiveEachCommandsHelp() throws {
        for name in ["run", "plan", "status", "check", "test", "snooze", "act", "ack", "laundry", "play", "trip",
                     "import", "times", "init", "completions", "man"] {
            let long = try NudgeProcess.run([name, "--help"], workingDirectory: dir.url)
            XCTAssertEqual(long.status, 0, long.summary)
            XCTAssertTrue(long.stdout.hasPrefix("usage: nudge \(name)"), long.summary)
            for other in [[name, "-h"], ["help", name]] {
                let result = try NudgeProcess.run(other, workingDirectory: dir.url)
                XCTAssertEqual(result.status, 0, result.summary)
                XCTAssertEqual(result.stdout, long.stdout, other.joined(separator: " "))
            }
        }
    }

    /// An unknown command gets a did-you-mean, as an unknown option does; exit 64.
    func testAnUnknownCommandGetsADidYouMean() throws {
        let result = try NudgeProcess.run(["staus"], workingDirectory: dir.url)
        XCTAssertEqual(result.status, 64, result.summary)
        XCTAssertTrue(result.stderr.contains("unknown command 'staus' (did you mean status?)"), result.summary)
    }

    /// Options before the command are the command's: `nudge --data DIR status` is `nudge status --data DIR`.
    func testOptionsBeforeTheCommandAreTheCommands() throws {
        try dir.write("settings.json", Fixture.settings())
        let run = try NudgeProcess.run(["--data", dir.path, "--now", "2026-11-21T08:00:00Z", "run"],
                                       workingDirectory: dir.url)
        XCTAssertEqual(run.status, 0, run.summary)
        XCTAssertTrue(dir.exists("plan.json"))
        let before = try NudgeProcess.run(["--data", dir.path, "status"], workingDirectory: dir.url)
        let after = try NudgeProcess.run(["status", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(before.status, 0, before.summary)
        XCTAssertEqual(before.stdout, after.stdout)
    }
}
