import Foundation
import XCTest

/// `nudge plan --ics` (docs/calendar.md): the plan's critical and high records of the next 48 hours as one
/// iCalendar file. Read back by Python's `icalendar` (Debian's python3-icalendar), which never calls nudge's
/// code, and held against the plan nudge prints as JSON for the same instant.
final class PlanCalendarTests: DataDirectoryTestCase {
    private static let now = "2026-11-21T10:00:30Z"

    /// The reader: each VEVENT of stdin as JSON, with its VALARM, and every physical line's length in octets.
    private static let reader = """
        import sys, json, icalendar
        raw = sys.stdin.buffer.read()
        lines = raw.split(b"\\r\\n")
        calendar = icalendar.Calendar.from_ical(raw)
        events = []
        for event in calendar.walk("VEVENT"):
            alarms = [{"action": str(a["ACTION"]), "trigger": a["TRIGGER"].dt.total_seconds(),
                       "related": a["TRIGGER"].params.get("RELATED"), "description": str(a["DESCRIPTION"])}
                      for a in event.walk("VALARM")]
            events.append({"uid": str(event["UID"]), "summary": str(event["SUMMARY"]),
                           "description": str(event["DESCRIPTION"]),
                           "start": event["DTSTART"].dt.strftime("%Y-%m-%dT%H:%M:%SZ"),
                           "utc": event["DTSTART"].dt.utcoffset().total_seconds() == 0,
                           "minutes": event["DURATION"].dt.total_seconds() / 60,
                           "categories": [str(c) for c in event["CATEGORIES"].cats],
                           "stamp": "DTSTAMP" in event, "alarms": alarms})
        print(json.dumps({"version": str(calendar["VERSION"]), "events": events,
                          "longest": max(len(l) for l in lines), "bareLF": b"\\n" in raw.replace(b"\\r\\n", b""),
                          "endsWithCRLF": raw.endswith(b"\\r\\n")}))
        """

    private func read(_ ics: String) throws -> [String: Any] {
        guard DebianPython.runs("import icalendar") else {
            throw RealPart.missing("Python's icalendar is not installed (Debian: apt install python3-icalendar); "
                + ".ci/run installs it")
        }
        let input = dir.fileURL("plan.ics")
        try Data(ics.utf8).write(to: input)
        let result = try ExternalTool.run("/bin/sh", ["-c", "\(DebianPython.path) -c \"$0\" < \"$1\"",
                                                      Self.reader, input.path])
        XCTAssertEqual(result.status, 0, result.summary)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func testTheExampleDaysImportantRecordsAreEventsWithAnAlarmAtTheirTime() throws {
        for name in ["settings.json", "laundry.json", "alarms.json", "trips.json", "streaks.json"] {
            try dir.write(name, String(contentsOf: RepositoryScript.root.appendingPathComponent("data/" + name),
                                       encoding: .utf8))
        }
        XCTAssertEqual(try dir.run(at: "2026-11-21T10:00:00Z").status, 0)
        let ics = try dir.nudge("plan", now: Self.now, "--ics")
        XCTAssertEqual(ics.status, 0, ics.summary)
        let json = try dir.nudge("plan", now: Self.now, "--json")
        let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let horizon = try XCTUnwrap(ISO8601DateFormatter().date(from: Self.now)).addingTimeInterval(48 * 3600)
        let records = ((plan["pending"] as? [[String: Any]]) ?? []).filter { record in
            ["critical", "high"].contains(record["priority"] as? String)
                && ISO8601DateFormatter().date(from: record["fireAt"] as? String ?? "")! <= horizon
        }
        XCTAssertGreaterThan(records.count, 3, "the example has alarms and a wash in the next two days")

        let read = try self.read(ics.stdout)
        XCTAssertEqual(read["version"] as? String, "2.0")
        XCTAssertLessThanOrEqual(read["longest"] as? Int ?? 999, 75, "lines folded at 75 octets")
        XCTAssertEqual(read["bareLF"] as? Bool, false, "every line ends with CRLF")
        XCTAssertEqual(read["endsWithCRLF"] as? Bool, true)
        let events = try XCTUnwrap(read["events"] as? [[String: Any]])
        XCTAssertEqual(events.map { $0["uid"] as? String }, records.map { ($0["id"] as? String ?? "") + "@nudge" })
        for (event, record) in zip(events, records) {
            XCTAssertEqual(event["summary"] as? String, record["title"] as? String)
            XCTAssertEqual(event["description"] as? String, record["body"] as? String)
            XCTAssertEqual(event["start"] as? String, record["fireAt"] as? String)
            XCTAssertEqual(event["utc"] as? Bool, true)
            XCTAssertEqual(event["minutes"] as? Double, 1)
            XCTAssertEqual(event["categories"] as? [String], [record["kind"] as? String ?? ""])
            XCTAssertEqual(event["stamp"] as? Bool, true)
            let alarms = try XCTUnwrap(event["alarms"] as? [[String: Any]])
            XCTAssertEqual(alarms.count, 1)
            XCTAssertEqual(alarms.first?["action"] as? String, "DISPLAY")
            XCTAssertEqual(alarms.first?["trigger"] as? Double, 0)
            XCTAssertEqual(alarms.first?["related"] as? String, "START")
            XCTAssertEqual(alarms.first?["description"] as? String, record["title"] as? String)
        }
    }

    /// Text that RFC 5545 must escape or fold comes back as it was written.
    func testCommasSemicolonsBackslashesAndLongTitlesComeBackWhole() throws {
        let title = "Dentist; Dr. Ölçek, room 3 \\\\ bring the card — " + String(repeating: "très long ", count: 12)
        try dir.write("settings.json", #"{ "timeZone": "Europe/Berlin" }"# + "\n")
        try dir.write("alarms.json", #"{ "alarms": [ { "id": "dentist", "title": "\#(title)", "time": "14:00", "#
            + #""body": "Line one,\nline two; done" } ] }"# + "\n")
        let ics = try dir.nudge("plan", now: Self.now, "--ics")
        XCTAssertEqual(ics.status, 0, ics.summary)
        let read = try self.read(ics.stdout)
        XCTAssertLessThanOrEqual(read["longest"] as? Int ?? 999, 75)
        // A reader may take an unescaped comma or semicolon as it is; RFC 5545 (3.3.11) asks for the escapes.
        let unfolded = ics.stdout.replacingOccurrences(of: "\r\n ", with: "")
        XCTAssertTrue(unfolded.contains(#"SUMMARY:Dentist\; Dr. Ölçek\, room 3 \\ bring"#), unfolded)
        XCTAssertTrue(unfolded.contains(#"DESCRIPTION:Line one\,\nline two\; done"#), unfolded)
        let event = try XCTUnwrap((read["events"] as? [[String: Any]])?.first)
        XCTAssertEqual(event["summary"] as? String, title.replacingOccurrences(of: "\\\\", with: "\\"))
        XCTAssertEqual(event["description"] as? String, "Line one,\nline two; done")
    }

    func testNoPlanYetIsACalendarWithoutEventsAndJsonWithIcsIsAUsageError() throws {
        let empty = try dir.nudge("plan", now: Self.now, "--ics")
        XCTAssertEqual(empty.status, 0, empty.summary)
        XCTAssertEqual((try read(empty.stdout)["events"] as? [Any])?.count, 0)
        let both = try dir.nudge("plan", now: Self.now, "--ics", "--json")
        XCTAssertEqual(both.status, 64, both.summary)
        XCTAssertTrue(both.stderr.contains("--json and --ics"), both.summary)
    }
}
