import Foundation
@testable import NudgeCore
import XCTest

/// A quiet journal (docs/promises.md) under a real systemd user manager that logs to a real systemd-journald,
/// both of the test's own (`SystemdUserManager` with `journal: true`). The units are the ones `nudge init --systemd`
/// writes for the binary under test; each run is `systemctl --user start nudge.service`, as its timer starts it.
/// An ordinary run adds no line to the journal, the one woken by the armed `nudge.timer` included: only arming a
/// new schedule adds the manager's "Started nudge.timer". The same service without `LogLevelMax=notice` adds the
/// manager's two lines per run, so the quiet one is `LogLevelMax`'s doing; a broken file's line is an error there and an
/// unknown key's a warning, each without its `<N>` prefix.
final class SystemdJournalTests: XCTestCase {
    private var login: LoginHome!
    private var manager: SystemdUserManager?
    private let service = SystemdUnits.serviceName

    private var home: URL { login.home }
    private var data: URL { login.data }
    private var unitDirectory: URL { home.appendingPathComponent(".config/systemd/user") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        login = try LoginHome("nudge-journal-home")
    }

    override func tearDown() {
        manager?.stop()
        login?.remove()
        super.tearDown()
    }

    /// The user manager's environment as a login starts it.
    private func user() -> [String: String] {
        login.environment()
    }

    /// A manager with its own journal, and the units and starter files of `nudge init --systemd` loaded in it. The
    /// starter alarm moves 12 hours away: at its minute a run would deliver to a desktop this manager has no bus
    /// for, and that failure is rightly an error line, not an ordinary run.
    private func install() throws {
        let manager = try SystemdUserManager(environment: user(), journal: true)
        self.manager = manager
        let environment = login.environment(["XDG_RUNTIME_DIR": manager.runtimeDirectory.path])
        let initialize = try manager.run([login.nudge, "init", "--systemd"], environment: environment)
        XCTAssertEqual(initialize.status, 0, initialize.summary)
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm"
        let time = formatter.string(from: Date().addingTimeInterval(12 * 3600))
        try write("alarms.json", #"{ "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": "\#(time)" } ] }"#)
        try reload()
    }

    private func write(_ name: String, _ content: String) throws {
        try Data((content + "\n").utf8).write(to: data.appendingPathComponent(name))
    }

    private func reload() throws {
        let reload = try XCTUnwrap(manager).systemctl(["daemon-reload"])
        XCTAssertEqual(reload.status, 0, reload.summary)
    }

    /// Starts `unit` and waits for its run to end; its `Result` (`success`, `exit-code`…).
    private func runOnce(_ unit: String) throws -> String {
        let manager = try XCTUnwrap(self.manager)
        // For a oneshot service, `start` returns when the run has ended, failed or not.
        _ = try manager.systemctl(["start", unit])
        try Waiting.until("\(unit)'s run to end", timeout: 90) {
            ["inactive", "failed"].contains(try manager.property("ActiveState", of: unit))
        }
        return try manager.property("Result", of: unit)
    }

    /// The journal's entries of `unit` (and `more` of journalctl's selections), printed for the log.
    private func entries(of unit: String, _ more: String...) throws -> [JournalEntry] {
        let arguments = ["--user-unit", unit] + more
        let entries = try XCTUnwrap(manager).journal(arguments)
        print("$ journalctl \(arguments.joined(separator: " ")) (\(entries.count) entries)")
        entries.forEach { print("  \($0)") }
        return entries
    }

    /// The lines that name one of nudge's units (but `except`) or that a run of nudge wrote.
    private func nudgeLines(except: String) throws -> [JournalEntry] {
        try XCTUnwrap(manager).journal([]).filter { entry in
            let unit = entry.userUnit ?? entry.writerUnit ?? ""
            if unit == except || entry.message.contains(except) { return false }
            return unit.hasPrefix("nudge") || entry.message.contains("nudge") || entry.identifier == "nudge"
        }
    }

    func testOrdinaryRunsAddNoLineButTheSameRunWithoutLogLevelMaxAddsTheManagersTwo() throws {
        let started = Date()
        try install()
        // An alarm at the first whole minute at least 20 s ahead, delivered to stdout and the outbox only.
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm"
        let due = Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 + 20) / 60).rounded(.up) * 60)
        try write("settings.json", #"{ "timeZone": "UTC", "deliver": { "desktop": false } }"#)
        try write("alarms.json", #"{ "alarms": [ { "id": "dhuhr", "title": "Noon Prayer", "time": "\#(formatter.string(from: due))" } ] }"#)
        let written = try String(contentsOf: unitDirectory.appendingPathComponent(service))
        // The control: the same unit without LogLevelMax=; its runs show what nudge.service's would log without it.
        let unfiltered = "nudge-unfiltered.service"
        let lines = written.components(separatedBy: "\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("LogLevelMax=") }, ["LogLevelMax=notice"], written)
        try lines.filter { !$0.hasPrefix("LogLevelMax=") }.joined(separator: "\n")
            .write(to: unitDirectory.appendingPathComponent(unfiltered), atomically: true, encoding: .utf8)
        try reload()

        // The first run arms nudge.timer: the manager's "Started nudge.timer" line, once for the schedule.
        XCTAssertEqual(try runOnce(service), "success")
        let armed = try nudgeLines(except: unfiltered)
        print("after the run that armed the wake (\(armed.count) lines):")
        armed.forEach { print("  \($0)") }
        XCTAssertEqual(armed.map(\.message).filter { $0.hasPrefix("Started ") }.count, 1, "\(armed)")
        // The whole journal, whatever the unit: arming names its instants in the property the manager expects.
        let obsolete = try XCTUnwrap(manager).journal([]).filter { $0.message.contains("obsolete") }
        XCTAssertEqual(obsolete.map(\.description), [], "the manager complained of the timer's properties")

        // Ordinary runs: two as the hourly timer or an unchanged file starts them, one woken by nudge.timer at the
        // alarm's second, which delivers it.
        for _ in 1...2 { XCTAssertEqual(try runOnce(service), "success") }
        try Waiting.until("the alarm delivered by the armed wake", timeout: due.timeIntervalSinceNow + 30) {
            ((try? String(contentsOf: self.login.state.appendingPathComponent("outbox.jsonl"))) ?? "").contains("Noon Prayer")
        }
        try Waiting.until("the woken run's end", timeout: 30) {
            try XCTUnwrap(self.manager).property("ActiveState", of: self.service) == "inactive"
        }
        XCTAssertEqual(try XCTUnwrap(manager).property("Result", of: service), "success")
        for _ in 1...3 { XCTAssertEqual(try runOnce(unfiltered), "success") }

        // Read after the control's runs: the manager sends its lines through one socket, in order, so the ones
        // about nudge's units during the ordinary runs, had it sent any, came before the control's.
        let after = try nudgeLines(except: unfiltered)
        print("$ journalctl: the lines about nudge's units or from nudge after the ordinary runs (\(after.count)):")
        after.forEach { print("  \($0)") }
        XCTAssertEqual(after.dropFirst(armed.count).map(\.description), [],
                       "no line about nudge.service, nudge.timer or the other units, and none from a run")
        let control = try entries(of: unfiltered)
        XCTAssertEqual(control.filter { $0.message.hasPrefix("Starting \(unfiltered)") }.count, 3)
        XCTAssertEqual(control.filter { $0.message.hasPrefix("Finished \(unfiltered)") }.count, 3)
        XCTAssertTrue(control.allSatisfy { $0.userUnit == unfiltered && $0.priority == 6 },
                      "only the manager's lines, at info: an ordinary run writes nothing itself")
        print(String(format: "the test took %.0f s", Date().timeIntervalSince(started)))
    }

    func testABrokenFileIsAnErrorInTheJournalAndAnUnknownKeyAWarning() throws {
        let started = Date()
        try install()
        // A key of the person's own (a near miss of a known key would be an error: docs/promises.md).
        try write("settings.json", #"{ "timeZone": "UTC", "myNote": "bought a new washer" }"#)
        XCTAssertEqual(try runOnce(service), "success")
        try write("alarms.json", #"{"alarms": [ {"id": "a", } ]}"#)
        XCTAssertEqual(try runOnce(service), "exit-code")

        // The README's `journalctl --user -t nudge -p warning`, for root (SystemdUserManager.journal says why).
        // journald files a service's stderr from its stream socket on its own schedule, each run's stream on its
        // own: wait for both lines, the first run's warning as well as the second run's error. It names a line's
        // unit from the writing process, looked up when it reads the line: a run that has already ended leaves
        // its line without a unit (seen here under load; docs/systemd.md, "Known gaps"), so nudge's lines are
        // found by their identifier in the whole journal.
        let nudgeLines = { (priority: String) in
            try XCTUnwrap(self.manager).journal(["--priority", priority]).filter { $0.identifier == "nudge" }
        }
        do {
            try Waiting.until("the unknown key's and the broken file's lines in the journal") {
                let lines = try nudgeLines("warning")
                return lines.contains { $0.message.contains("alarms.json:") }
                    && lines.contains { $0.message.contains("settings.json") }
            }
        } catch {
            let everything = try XCTUnwrap(manager).journal([]).map(\.description).joined(separator: "\n")
            throw SystemdUserManager.Failed(description: "\(error); the whole journal:\n\(everything)")
        }
        let own = try nudgeLines("warning")
        own.forEach { print("  \($0)") }
        XCTAssertTrue(own.allSatisfy { !$0.message.hasPrefix("<") }, "\(own)")
        XCTAssertTrue(own.allSatisfy { $0.writerUnit == nil || $0.writerUnit == service }, "\(own)")
        let warning = try XCTUnwrap(own.first { $0.message.contains("settings.json") }, "the unknown key's line")
        XCTAssertEqual(warning.priority, 4)
        XCTAssertTrue(warning.message.contains("/settings.json: myNote: unknown key"), warning.message)
        let error = try XCTUnwrap(own.first { $0.message.contains("alarms.json:") }, "the broken file's line")
        XCTAssertEqual(error.priority, 3)
        XCTAssertTrue(error.message.contains("/alarms.json:1:"), error.message)
        // The failed run is the manager's to say, at notice and above: LogLevelMax=notice keeps it.
        let shown = try entries(of: service, "--priority", "warning")
        XCTAssertTrue(shown.contains { $0.userUnit == service && $0.priority == 3 }, "the manager's failure line")

        let errors = try nudgeLines("err")
        XCTAssertTrue(errors.contains { $0.message == error.message })
        XCTAssertFalse(errors.contains { $0.message == warning.message })
        print(String(format: "the test took %.0f s", Date().timeIntervalSince(started)))
    }
}
