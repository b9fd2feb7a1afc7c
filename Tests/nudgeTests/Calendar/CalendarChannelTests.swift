import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The calendar channel (docs/calendar.md) end to end: the built nudge against a real CalDAV server the test
/// starts on 127.0.0.1 (Radicale with a user whose password is checked, and Xandikos), what the server holds read
/// by the harness's own reader (Python's icalendar over HTTP, never nudge's code), and every request counted in
/// the server's own log.
final class CalendarChannelTests: DataDirectoryTestCase {
    /// The example household with a calendar of `server`'s, its password printed by a command.
    private func household(_ server: CalDAVServer, password: String? = nil) throws -> String {
        for name in ["laundry.json", "alarms.json", "trips.json", "streaks.json"] {
            try dir.write(name, String(contentsOf: RepositoryScript.root.appendingPathComponent("data/" + name),
                                       encoding: .utf8))
        }
        let url = server.collectionURL("nudge")
        try writeSettings(url: url, password: password ?? server.password)
        return url
    }

    private func writeSettings(url: String, password: String) throws {
        let settings = try String(contentsOf: RepositoryScript.root.appendingPathComponent("data/settings.json"),
                                  encoding: .utf8)
        let calendar = #""deliver": { "calendar": { "url": "\#(url)", "user": "sam", "#
            + #""passwordCommand": ["printf", "%s\\n", "\#(password)"] } },"#
        try dir.write("settings.json", settings.replacingOccurrences(of: "\"maxPending\"", with: calendar + "\n  \"maxPending\""))
    }

    /// The plan's critical and high records still to come within 48 hours, as `nudge plan --json` prints them.
    private func expectedEvents(at now: String) throws -> [String: (title: String, start: String)] {
        let json = try dir.nudge("plan", now: now, "--json")
        XCTAssertEqual(json.status, 0, json.summary)
        let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let instant = try XCTUnwrap(ISO8601DateFormatter().date(from: now))
        var events: [String: (String, String)] = [:]
        for record in (plan["pending"] as? [[String: Any]] ?? []) + (plan["deferred"] as? [[String: Any]] ?? []) {
            guard ["critical", "high"].contains(record["priority"] as? String),
                  let fireAt = record["fireAt"] as? String, let at = ISO8601DateFormatter().date(from: fireAt),
                  at <= instant.addingTimeInterval(48 * 3600), let id = record["id"] as? String else { continue }
            events[id + "@nudge"] = (record["title"] as? String ?? "", fireAt)
        }
        return events
    }

    /// What the server holds matches the plan at `now`: each planned event once, with its title, time and one
    /// alarm at its start; anything else is an event whose time passed less than a day ago.
    private func assertServerMatchesPlan(_ server: CalDAVServer, at now: String, _ step: String,
                                         line: UInt = #line) throws {
        let expected = try expectedEvents(at: now)
        let held = try server.events(in: "nudge")
        let instant = try XCTUnwrap(ISO8601DateFormatter().date(from: now))
        XCTAssertEqual(Set(held.compactMap(\.uid)).count, held.count, "\(step): one event per UID", line: line)
        for (uid, record) in expected {
            guard let event = held.first(where: { $0.uid == uid }) else {
                XCTFail("\(step): \(uid) (\(record.title) at \(record.start)) is not in the calendar; it holds "
                    + "\(held.compactMap(\.uid))", line: line)
                continue
            }
            XCTAssertEqual(event.summary, record.title, "\(step): \(uid)", line: line)
            XCTAssertEqual(event.start, record.start, "\(step): \(uid)", line: line)
            XCTAssertEqual(event.minutes, 1, line: line)
            XCTAssertEqual(event.alarms.map(\.action), ["DISPLAY"], "\(step): \(uid)", line: line)
            XCTAssertEqual(event.alarms.first?.trigger, 0, line: line)
        }
        for event in held where !expected.keys.contains(event.uid ?? "") {
            let start = try XCTUnwrap(ISO8601DateFormatter().date(from: event.start ?? ""), line: line)
            XCTAssertTrue(start <= instant && start > instant.addingTimeInterval(-24 * 3600),
                          "\(step): \(event.uid ?? event.href) at \(event.start ?? "?") is neither planned nor just past",
                          line: line)
        }
    }

    /// The requests nudge made since `count` earlier ones, as "METHOD status".
    private func newRequests(_ server: CalDAVServer, after count: inout Int) throws -> [String] {
        let all = try server.requests()
        defer { count = all.count }
        return all.dropFirst(count).map { "\($0.method) \($0.status) \($0.path)" }
    }

    func testADayOfTheExampleHouseholdOnRadicale() throws {
        try day(on: .radicale)
    }

    func testADayOfTheExampleHouseholdOnXandikos() throws {
        try day(on: .xandikos)
    }

    /// The example day: a wash, the dryer started, a snooze, a leave-time that moved, a stopped cycle, a removed
    /// alarm; after every run the calendar holds the plan, and each change costs its own requests, nothing else.
    private func day(on kind: CalDAVServer.Kind) throws {
        let server = try CalDAVServer.start(kind)
        let url = try household(server)
        let made = try NudgeProcess.run(["init", dir.path, "--calendar", url])
        XCTAssertEqual(made.status, 0, made.summary)
        XCTAssertTrue(made.stdout.contains("made     the calendar \(url)"), made.stdout)
        var seen = 0
        _ = try newRequests(server, after: &seen)
        var planned: [String: (title: String, start: String)] = [:]

        /// A run at `now`: its requests are one PUT for each record that came into the plan's next 48 hours or
        /// changed, one DELETE for each that left it before its time, and `settled` DELETEs of events whose
        /// notification was acted on; `touching` names the event of the step's own change.
        @discardableResult
        func step(_ now: String, _ what: String, touching: String? = nil, settled: Int = 0) throws -> [String] {
            let run = try dir.run(at: now)
            XCTAssertEqual(run.status, 0, "\(what): \(run.summary)")
            XCTAssertFalse(run.stderr.contains("calendar"), "\(what): \(run.stderr)")
            let requests = try newRequests(server, after: &seen)
            let expected = try expectedEvents(at: now)
            let instant = try XCTUnwrap(ISO8601DateFormatter().date(from: now))
            let puts = expected.filter { uid, event in
                planned[uid].map { $0.title != event.title || $0.start != event.start } ?? true
            }.count
            let left = planned.filter { uid, event in
                expected[uid] == nil && ISO8601DateFormatter().date(from: event.start)! > instant
            }.count
            var counted: [String: Int] = [:]
            for request in requests { counted[String(request.split(separator: " ")[0]), default: 0] += 1 }
            XCTAssertEqual(counted["PUT"] ?? 0, puts, "\(what): \(requests)")
            XCTAssertEqual(counted["DELETE"] ?? 0, left + settled, "\(what): \(requests)")
            XCTAssertEqual(counted.keys.filter { $0 != "PUT" && $0 != "DELETE" }, [], "\(what): \(requests)")
            XCTAssertTrue(requests.allSatisfy { [200, 201, 204].contains(Int($0.split(separator: " ")[1]) ?? 0) },
                          "\(what): \(requests)")
            if let touching {
                XCTAssertTrue(requests.contains { $0.contains(touching) }, "\(what): \(touching) in \(requests)")
            }
            try assertServerMatchesPlan(server, at: now, what)
            planned = expected
            return requests
        }

        let first = try step("2026-11-21T10:00:00Z", "the first run", touching: "washComplete")
        XCTAssertEqual(first.count, 7, "the first run writes the seven events of the next 48 hours")
        try step("2026-11-21T10:01:00Z", "a quiet minute")
        try step("2026-11-21T11:16:00Z", "the wash delivered")
        XCTAssertEqual(try dir.nudge("laundry", now: "2026-11-21T11:20:00Z", "start", "snowy", "dry").status, 0)
        try step("2026-11-21T11:20:30Z", "the dryer started", touching: "dryComplete")
        try step("2026-11-21T11:31:00Z", "noon prayer delivered", touching: "dhuhr:2026-11-22")
        XCTAssertEqual(try dir.nudge("snooze", now: "2026-11-21T11:32:00Z", "dhuhr").status, 0)
        try step("2026-11-21T11:32:30Z", "noon prayer snoozed", touching: "snooze", settled: 1)
        try dir.write("trips.json", dir.text("trips.json").replacingOccurrences(of: #""arriveBy": "08:45""#,
                                                                                with: #""arriveBy": "08:15""#))
        try step("2026-11-21T11:40:30Z", "Monday's leave-time moved", touching: "commute.leave:office")
        XCTAssertEqual(try dir.nudge("laundry", now: "2026-11-21T11:50:00Z", "stop", "snowy").status, 0)
        // The dry's event leaves before its time, and the wash's, which rang, goes with its cycle.
        try step("2026-11-21T11:50:30Z", "the cycle stopped", touching: "washComplete", settled: 1)
        try dir.write("alarms.json", """
            { "alarms": [
                { "id": "fajr", "title": "Morning Prayer", "time": "05:30", "durationMinutes": 15 },
                { "id": "dhuhr", "title": "Noon Prayer", "time": "12:30", "durationMinutes": 15 },
                { "id": "asr", "title": "Afternoon Prayer", "time": "15:00", "durationMinutes": 15 },
                { "id": "maghrib", "title": "Sunset Prayer", "prayer": "maghrib", "durationMinutes": 15 } ] }
            """)
        try step("2026-11-21T12:00:00Z", "the night prayer removed", touching: "isha")
        try step("2026-11-21T12:01:00Z", "a quiet minute")
        let khal = try server.khalList(collection: "nudge", from: ISO8601DateFormatter().date(from: "2026-11-21T00:00:00Z")!, days: 2)
        XCTAssertTrue(khal.contains("Afternoon Prayer Time (A)"), "khal lists the event with its alarm:\n\(khal)")
    }

    /// The server stopped mid-day: each run still delivers everything local and exits 0; a run with something to
    /// change says the failure, once;
    /// `status` shows it; after the restart the next run catches up, and nothing is written twice.
    func testAServerThatStopsAndComesBackIsReportedOnceAndCaughtUp() throws {
        let server = try CalDAVServer.start(.radicale)
        _ = try household(server)
        try server.makeCollection("nudge")
        XCTAssertEqual(try dir.run(at: "2026-11-21T10:00:00Z").status, 0)
        server.stop()
        let offline = try dir.run(at: "2026-11-21T11:16:00Z")
        XCTAssertEqual(offline.status, 0, offline.summary)
        XCTAssertTrue(offline.stdout.contains("laundry.washComplete"), "local delivery first: \(offline.stdout)")
        XCTAssertEqual(offline.stderr, "", "nothing to change in the calendar: no request, so no failure")
        XCTAssertEqual(try dir.nudge("laundry", now: "2026-11-21T11:20:00Z", "start", "snowy", "dry").status, 0)
        let failing = try dir.run(at: "2026-11-21T11:20:30Z")
        XCTAssertEqual(failing.status, 0, failing.summary)
        XCTAssertEqual(failing.stderrLines, ["nudge: calendar: cannot connect to 127.0.0.1: offline, or the server is down"])
        let again = try dir.run(at: "2026-11-21T11:21:30Z")
        XCTAssertEqual(again.stderr, "", "the same failure is said once")
        let calendar = try XCTUnwrap(try dir.status()["calendar"] as? [String: Any])
        XCTAssertEqual(calendar["failure"] as? String, "cannot connect to 127.0.0.1: offline, or the server is down")
        try server.restart()
        let back = try dir.run(at: "2026-11-21T11:22:30Z")
        XCTAssertEqual(back.stderr, "", back.summary)
        XCTAssertTrue(try server.events(in: "nudge").contains { $0.uid?.hasPrefix("laundry.dryComplete") ?? false })
        try assertServerMatchesPlan(server, at: "2026-11-21T11:22:30Z", "after the restart")
        XCTAssertTrue(try dir.status()["calendar"].flatMap { ($0 as? [String: Any])?["failure"] } is NSNull)
    }

    /// A wrong password: said once in words, never the password itself, not even with the run's other output;
    /// the right one then gets every event through.
    func testAWrongPasswordIsSaidOnceAndNeverPrinted() throws {
        let server = try CalDAVServer.start(.radicale)
        let url = try household(server, password: "hunter2-wrong")
        try server.makeCollection("nudge")
        let refused = try dir.run(at: "2026-11-21T10:00:00Z")
        XCTAssertEqual(refused.status, 0, refused.summary)
        XCTAssertEqual(refused.stderrLines, ["nudge: calendar: 127.0.0.1 did not accept the user name and password "
            + "(HTTP 401): check deliver.calendar's user and passwordCommand, or ~/.netrc"])
        let check = try dir.nudge("check", now: "2026-11-21T10:00:10Z")
        XCTAssertEqual(check.status, 65, check.summary)
        for output in [refused.stdout, refused.stderr, check.stdout, check.stderr, try dir.text("state.json")] {
            XCTAssertFalse(output.contains("hunter2"), output)
        }
        XCTAssertEqual(try server.events(in: "nudge").count, 0)
        try writeSettings(url: url, password: server.password)
        XCTAssertEqual(try dir.run(at: "2026-11-21T10:01:00Z").stderr, "")
        try assertServerMatchesPlan(server, at: "2026-11-21T10:01:00Z", "with the right password")
        let status = try dir.nudge("status", now: "2026-11-21T10:01:05Z")
        XCTAssertTrue(status.stdout.contains("Calendar: 7 event(s) kept in \(url), in step with the plan"), status.stdout)
        let checked = try dir.nudge("check", now: "2026-11-21T10:01:10Z")
        XCTAssertEqual(checked.status, 0, checked.summary)
        XCTAssertTrue(checked.stdout.contains("Calendar: \(url) takes events; 7 kept there by nudge"), checked.stdout)
    }

    /// A run killed after its PUT reached the server and before it saved state.json (here: the state.json of
    /// before put back) leaves events the next run does not know of: it reads each one's ETag and writes over it,
    /// and the calendar still holds one event per record.
    func testEventsARunWroteBeforeItDiedAreUpdatedNotWrittenTwice() throws {
        let server = try CalDAVServer.start(.xandikos)
        _ = try household(server)
        try server.makeCollection("nudge")
        XCTAssertEqual(try dir.run(at: "2026-11-21T10:00:00Z").status, 0)
        let before = try dir.data("state.json")
        XCTAssertEqual(try dir.nudge("laundry", now: "2026-11-21T11:20:00Z", "start", "snowy", "dry").status, 0)
        XCTAssertEqual(try dir.run(at: "2026-11-21T11:20:30Z").status, 0)
        let held = try server.events(in: "nudge").count
        try before.write(to: dir.fileURL("state.json"))
        var seen = try server.requests().count
        let after = try dir.run(at: "2026-11-21T11:21:30Z")
        XCTAssertEqual(after.stderr, "", after.summary)
        let requests = try newRequests(server, after: &seen).filter { $0.contains("dryComplete") }
        XCTAssertEqual(requests.map { $0.split(separator: " ").prefix(2).joined(separator: " ") },
                       ["PUT 412", "GET 200", "PUT 204"], "read again, then updated")
        XCTAssertEqual(try server.events(in: "nudge").count, held, "no second event")
        try assertServerMatchesPlan(server, at: "2026-11-21T11:21:30Z", "after the killed run")
    }

    /// An event the person deleted in the calendar stays deleted while its record is unchanged: the runs make no
    /// request for it.
    func testAnEventThePersonDeletedIsNotWrittenAgainWhileItsRecordIsUnchanged() throws {
        let server = try CalDAVServer.start(.radicale)
        _ = try household(server)
        try server.makeCollection("nudge")
        XCTAssertEqual(try dir.run(at: "2026-11-21T10:00:00Z").status, 0)
        let asr = try XCTUnwrap(try server.events(in: "nudge").first { $0.uid?.contains(":asr:") ?? false })
        try server.deleteEvent(href: asr.href)
        var seen = try server.requests().count
        XCTAssertEqual(try dir.run(at: "2026-11-21T10:01:00Z").stderr, "")
        XCTAssertEqual(try newRequests(server, after: &seen), [])
        XCTAssertFalse(try server.events(in: "nudge").contains { $0.uid == asr.uid })
    }

    /// Quiet runs make no request at all: a thousand of them in CI's pass over the release binary (a hundred
    /// otherwise), counted in the server's own log.
    func testQuietRunsMakeNoRequest() throws {
        let server = try CalDAVServer.start(.radicale)
        _ = try household(server)
        try server.makeCollection("nudge")
        XCTAssertEqual(try dir.run(at: "2026-11-21T10:00:00Z").status, 0)
        let seen = try server.requests().count
        let release = ProcessInfo.processInfo.environment["NUDGE_TEST_BINARY"].map { !$0.isEmpty } ?? false
        let runs = RealPart.mustBePresent && release ? 1_000 : 100
        let start = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-11-21T10:00:00Z"))
        for second in 1...runs {
            let now = ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(second) * 0.5))
            let run = try NudgeProcess.run(["run", "--quiet", "--data", dir.path, "--now", now])
            XCTAssertEqual(run.status, 0, run.summary)
        }
        XCTAssertEqual(try server.requests().count, seen, "\(runs) quiet runs, no request")
    }

    /// A server that takes the connection and never answers: the run gives the calendar its 10 seconds, no more,
    /// after delivering everything local, and names the host.
    func testAServerThatNeverAnswersGetsTenSecondsAndNoMore() throws {
        // A listening socket that nobody accepts from: the kernel completes the connection, nothing answers.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        XCTAssertTrue(ready)
        let port = Int(UInt16(bigEndian: address.sin_port))
        for name in ["laundry.json", "alarms.json"] {
            try dir.write(name, String(contentsOf: RepositoryScript.root.appendingPathComponent("data/" + name),
                                       encoding: .utf8))
        }
        // The first run (which announces nothing past) meets nothing at a free port.
        try writeSettings(url: "http://127.0.0.1:\(try LoopbackHTTP.freePort())/sam/nudge/", password: "secret")
        XCTAssertEqual(try dir.run(at: "2026-11-21T10:00:00Z").status, 0)
        try writeSettings(url: "http://127.0.0.1:\(port)/sam/nudge/", password: "secret")
        let run = try dir.run(at: "2026-11-21T11:16:00Z")
        XCTAssertEqual(run.status, 0, run.summary)
        XCTAssertTrue(run.stdout.contains("laundry.washComplete"), run.stdout)
        XCTAssertEqual(run.stderrLines, ["nudge: calendar: 127.0.0.1 did not answer in time (a run gives the calendar 10 s)"])
        XCTAssertGreaterThan(run.elapsed, 9, "it waited for the answer, to the end of its time")
        XCTAssertLessThan(run.elapsed, 15, "10 s for the calendar, and the run's own work")
    }

    /// `nudge init --calendar` sends settings.json's password only to the host it is set for: another host gets
    /// the credentials of ~/.netrc (here none), and its password command is not even started.
    func testInitSendsTheSettingsPasswordOnlyToItsOwnHost() throws {
        let server = try CalDAVServer.start(.radicale)
        let marker = dir.fileURL("password-asked")
        let command = #"["sh", "-c", "touch \#(marker.path); echo \#(server.password)"]"#
        try dir.write("settings.json", #"{ "deliver": { "calendar": { "url": "\#(server.collectionURL("nudge"))", "#
            + #""user": "sam", "passwordCommand": \#(command) } } }"#)
        let home = try TemporaryDataDirectory(label: "nudge-e2e-home")
        defer { home.remove() }
        let other = server.collectionURL("other").replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let elsewhere = try NudgeProcess.run(["init", dir.path, "--calendar", other], environment: ["HOME": home.path])
        XCTAssertEqual(elsewhere.status, 1, elsewhere.summary)
        XCTAssertTrue(elsewhere.stderr.contains("localhost did not accept the user name and password (HTTP 401)"),
                      elsewhere.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path), "the command is not asked for another host")
        let own = server.collectionURL("other")
        let made = try NudgeProcess.run(["init", dir.path, "--calendar", own], environment: ["HOME": home.path])
        XCTAssertEqual(made.status, 0, made.summary)
        XCTAssertTrue(made.stdout.contains("made     the calendar \(own)"), made.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker.path))
    }

    /// `nudge plan --ics` prints what the calendar would hold: the configured priorities and horizon.
    func testPlanICSFollowsTheCalendarsPrioritiesAndHorizon() throws {
        for name in ["laundry.json", "alarms.json"] {
            try dir.write(name, String(contentsOf: RepositoryScript.root.appendingPathComponent("data/" + name),
                                       encoding: .utf8))
        }
        for name in ["trips.json"] {
            try dir.write(name, String(contentsOf: RepositoryScript.root.appendingPathComponent("data/" + name),
                                       encoding: .utf8))
        }
        func uids(_ calendar: String) throws -> [String] {
            let example = try String(contentsOf: RepositoryScript.root.appendingPathComponent("data/settings.json"),
                                     encoding: .utf8)
            try dir.write("settings.json", example.replacingOccurrences(
                of: "\"maxPending\"", with: #""deliver": { "calendar": { "url": "http://127.0.0.1:9/c/", "#
                    + calendar + " } },\n  \"maxPending\""))
            let ics = try dir.nudge("plan", now: "2026-11-21T10:00:00Z", "--ics")
            XCTAssertEqual(ics.status, 0, ics.summary)
            return ics.stdout.split(separator: "\r\n").filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        }
        XCTAssertEqual(try uids(#""priorities": ["high"]"#), ["commute.leave:office:2026-11-23@nudge"],
                       "high only: Monday's leave-time, no alarm and no laundry stage (critical)")
        XCTAssertEqual(try uids(#""priorities": ["critical"], "hoursAhead": 3"#),
                       ["laundry.washComplete:snowy:c-1042@nudge", "alarm.prayer:dhuhr:2026-11-21@nudge"],
                       "the next 3 hours only")
    }
}
