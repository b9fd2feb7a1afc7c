import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The CalDAV harness (Support/CalDAVServer.swift) against both real servers, with curl(1) in the product's
/// place: an event with an alarm is taken once, read back by the harness's own reader, listed by khal, kept over a
/// restart; the server's log shows each request with its status; a stopped server leaves no process. Also pins
/// what each server answers where the calendar channel must tell cases apart (docs/calendar.md).
final class CalDAVServerHarnessTests: XCTestCase {
    func testRadicaleTakesAnEventOnceChecksThePasswordAndLogsEachRequest() throws {
        try exercise(.radicale)
    }

    func testXandikosTakesAnEventOnceAndLogsEachRequest() throws {
        try exercise(.xandikos)
    }

    /// What each server answers where the product must decide (measured on Radicale 3.1.8 and Xandikos 0.2.8):
    /// Xandikos answers some failures as a 207 multistatus whose inner status says what happened.
    func testEachServerAnswersTheCasesTheCalendarChannelMustTellApart() throws {
        let expected: [CalDAVServer.Kind: [String: Int]] = [
            .radicale: ["update": 201, "ifMatchStale": 412, "ifMatchMissing": 412, "sameUIDElsewhere": 409,
                        "missingCollectionPUT": 409, "missingCollectionPROPFIND": 404, "deletedTwice": 404,
                        "mkcalendarExisting": 409, "noCredentials": 401],
            .xandikos: ["update": 204, "ifMatchStale": 412, "ifMatchMissing": 412, "sameUIDElsewhere": 207,
                        "missingCollectionPUT": 404, "missingCollectionPROPFIND": 207, "deletedTwice": 404,
                        "mkcalendarExisting": 207, "noCredentials": 207],
        ]
        for kind in CalDAVServer.Kind.allCases {
            let server = try CalDAVServer.start(kind)
            try server.makeCollection("nudge")
            let url = server.collectionURL("nudge")
            let created = try curl(server, "PUT", url + "a.ics", body: Self.event(uid: "a@nudge"), ["If-None-Match: *"])
            let etag = try XCTUnwrap(created.headers["etag"], "\(kind): an ETag on the PUT that created")
            var answers: [String: Int] = [:]
            let update = try curl(server, "PUT", url + "a.ics", body: Self.event(uid: "a@nudge", title: "Moved"),
                                  ["If-Match: \(etag)"])
            XCTAssertNotNil(update.headers["etag"], "\(kind): an ETag on the PUT that changed")
            XCTAssertNotEqual(update.headers["etag"], etag)
            answers["update"] = update.status
            answers["ifMatchStale"] = try curl(server, "PUT", url + "a.ics", body: Self.event(uid: "a@nudge"),
                                               ["If-Match: \(etag)"]).status
            answers["ifMatchMissing"] = try curl(server, "PUT", url + "b.ics", body: Self.event(uid: "b@nudge"),
                                                 ["If-Match: \(etag)"]).status
            answers["sameUIDElsewhere"] = try curl(server, "PUT", url + "c.ics", body: Self.event(uid: "a@nudge"),
                                                   ["If-None-Match: *"]).status
            answers["missingCollectionPUT"] = try curl(server, "PUT", server.collectionURL("missing") + "a.ics",
                                                       body: Self.event(uid: "a@nudge"), ["If-None-Match: *"]).status
            answers["missingCollectionPROPFIND"] = try curl(server, "PROPFIND", server.collectionURL("missing"),
                                                            body: nil, ["Depth: 1"]).status
            _ = try curl(server, "DELETE", url + "a.ics", body: nil)
            answers["deletedTwice"] = try curl(server, "DELETE", url + "a.ics", body: nil).status
            answers["mkcalendarExisting"] = try curl(server, "MKCALENDAR", url, body: nil).status
            answers["noCredentials"] = try curl(server, "PROPFIND", url, body: nil, ["Depth: 1"],
                                                credentials: nil).status
            XCTAssertEqual(answers, expected[kind], "\(kind)")
            XCTAssertFalse(try server.collectionExists("missing"), "\(kind): a 207 with a 404 inside is no calendar")
        }
    }

    private func exercise(_ kind: CalDAVServer.Kind) throws {
        let server = try CalDAVServer.start(kind)
        try server.makeCollection("nudge")
        XCTAssertTrue(try server.collectionExists("nudge"))
        XCTAssertFalse(try server.collectionExists("missing"))
        let url = server.collectionURL("nudge")
        let path = try XCTUnwrap(URL(string: url)).path + "/"

        let created = try curl(server, "PUT", url + "laundry.ics", body: Self.event(uid: "laundry@nudge"),
                               ["If-None-Match: *"])
        XCTAssertEqual(created.status, 201)
        let again = try curl(server, "PUT", url + "laundry.ics", body: Self.event(uid: "laundry@nudge"),
                             ["If-None-Match: *"])
        XCTAssertEqual(again.status, 412, "If-None-Match: * on an event that exists")
        if kind == .radicale {
            let refused = try curl(server, "PUT", url + "other.ics", body: Self.event(uid: "other@nudge"),
                                   ["If-None-Match: *"], credentials: "\(server.user):wrong")
            XCTAssertEqual(refused.status, 401, "a wrong password")
        }
        let gone = try curl(server, "PUT", url + "gone.ics", body: Self.event(uid: "gone@nudge"), ["If-None-Match: *"])
        XCTAssertEqual(gone.status, 201)
        try server.deleteEvent(href: path + "gone.ics")

        let events = try server.events(in: "nudge")
        XCTAssertEqual(events.map(\.href), [path + "laundry.ics"])
        let event = try XCTUnwrap(events.first)
        XCTAssertEqual(event.etag, created.headers["etag"])
        XCTAssertEqual(event.uid, "laundry@nudge")
        XCTAssertEqual(event.summary, "Take the laundry out")
        XCTAssertEqual(event.description, "The wash is done, 40 °C; hang it")
        XCTAssertEqual(event.start, "2026-11-21T10:45:00Z")
        XCTAssertEqual(event.minutes, 1)
        XCTAssertEqual(event.categories, ["laundry"])
        XCTAssertEqual(event.stamp, "2026-11-21T10:00:00Z")
        XCTAssertEqual(event.alarms, [.init(action: "DISPLAY", trigger: 0, related: "START",
                                            description: "Take the laundry out")])

        let asked = try server.requests()
        XCTAssertEqual(asked.map(\.description),
                       ["PUT \(path)laundry.ics 201", "PUT \(path)laundry.ics 412"]
                        + (kind == .radicale ? ["PUT \(path)other.ics 401"] : []) + ["PUT \(path)gone.ics 201"])
        XCTAssertTrue(asked.allSatisfy { $0.agent.hasPrefix("curl/") }, "\(asked.map(\.agent))")
        let harness = try server.requests(includingHarness: true).filter(\.isHarness).map(\.description)
        for request in ["MKCALENDAR \(path) 201", "PROPFIND \(path) 207", "DELETE \(path)gone.ics",
                        "GET \(path)laundry.ics 200"] {
            XCTAssertTrue(harness.contains { $0.hasPrefix(request) }, "\(request) in \(harness)")
        }

        let firstPid = server.pid
        try server.restart()
        XCTAssertNotEqual(server.pid, firstPid)
        XCTAssertEqual(kill(firstPid, 0), -1, "the first server is gone once restarted")
        XCTAssertEqual(try server.events(in: "nudge"), events, "a restart keeps what the server holds")

        let listed = try server.khalList(collection: "nudge", from: Self.day, days: 2)
        XCTAssertTrue(listed.contains("10:45-10:46 Take the laundry out (A) :: The wash is done, 40 °C; hang it"),
                      listed)
        XCTAssertEqual(try server.requests().count, asked.count, "the readers and khal's sync are the harness's")

        server.stop()
        XCTAssertFalse(server.isRunning)
        for pid in server.pids {
            XCTAssertEqual(kill(pid, 0), -1, "pid \(pid) is gone")
            XCTAssertEqual(errno, ESRCH)
        }
    }

    private static let day = Date(timeIntervalSince1970: 1_795_219_200)   // 2026-11-21T00:00:00Z

    /// An event as the calendar channel writes one (docs/calendar.md), with its alarm and escaped text.
    private static func event(uid: String, title: String = "Take the laundry out") -> String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//nudge//harness test//EN", "BEGIN:VEVENT", "UID:\(uid)",
         "DTSTAMP:20261121T100000Z", "DTSTART:20261121T104500Z", "DURATION:PT1M", "SUMMARY:\(title)",
         #"DESCRIPTION:The wash is done\, 40 °C\; hang it"#, "CATEGORIES:laundry", "BEGIN:VALARM",
         "ACTION:DISPLAY", "TRIGGER;RELATED=START:PT0S", "DESCRIPTION:\(title)", "END:VALARM", "END:VEVENT",
         "END:VCALENDAR", ""].joined(separator: "\r\n")
    }

    /// One request by curl(1), never through a proxy: its status and headers (names in lower case).
    private func curl(_ server: CalDAVServer, _ method: String, _ url: String, body: String?,
                      _ headers: [String] = [], credentials: String? = "") throws
        -> (status: Int, headers: [String: String]) {
        let curl = try ExternalTool.require("curl")
        var arguments = ["-sS", "--noproxy", "*", "-o", "/dev/null", "-D", "-", "-w", "%{http_code}",
                         "-X", method, url]
        arguments += headers.flatMap { ["-H", $0] }
        if let credentials {
            arguments += ["-u", credentials.isEmpty ? "\(server.user):\(server.password)" : credentials]
        }
        if let body {
            arguments += ["-H", "Content-Type: text/calendar; charset=utf-8", "--data-binary", body]
        }
        let result = try ExternalTool.run(curl, arguments)
        XCTAssertEqual(result.status, 0, result.summary)
        let lines = result.stdout.components(separatedBy: "\r\n")
        let fields = lines.dropLast().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return (Int(lines.last ?? "") ?? 0, Dictionary(fields) { $1 })
    }
}
