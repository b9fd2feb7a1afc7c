import Foundation
import XCTest

/// The pending budget at and past its limit (docs/design.md, "What a run plans"): the plan is capped, delivery never
/// is; ranking by priority, then fireAt, then id; the rolling window; the status thresholds; `nudge plan`'s view.
/// BudgetAndChannelTests already checks a two-slot budget deferring one medium reminder.
final class BudgetLimitTests: DataDirectoryTestCase {
    // MARK: - Helpers

    /// alarms.json with alarms `<prefix>00`… at `time` (ids zero-padded to two digits), titled "Alarm NN".
    private func alarms(_ count: Int, prefix: String = "a", time: String = "08:00") -> String {
        let items = (0..<count).map { index -> String in
            let number = index < 10 ? "0\(index)" : "\(index)"
            return "{ \"id\": \"\(prefix)\(number)\", \"title\": \"Alarm \(number)\", \"time\": \"\(time)\" }"
        }
        return "{ \"alarms\": [\n  " + items.joined(separator: ",\n  ") + "\n] }\n"
    }

    private func ids(_ records: Any?) -> [String] {
        (records as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "<no id>" }
    }

    private func budget(_ plan: [String: Any], file: StaticString = #filePath, line: UInt = #line) throws
        -> [String: Any] {
        try XCTUnwrap(plan["budget"] as? [String: Any], "plan has no budget", file: file, line: line)
    }

    private static let messages = [
        "healthy": "Notification system healthy",
        "warning": "Approaching notification limit. Consider completing some cycles.",
        "critical": "Very close to notification limit. Some notifications may not be scheduled.",
        "atLimit": "Notification limit reached. Complete cycles to free up space.",
    ]

    // MARK: - The cap limits the plan, never delivery

    func testSeventyAlarmsAtOneMinuteAreAllDeliveredWhileThePlanHoldsSixtyFourAndDefersSix() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", alarms(70))
        let all = (0..<70).map { "alarm.prayer:a\($0 < 10 ? "0\($0)" : "\($0)"):2026-11-21" }

        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        let plan = try dir.json("plan.json")
        XCTAssertEqual(ids(plan["pending"]), Array(all.prefix(64)), "equal priority and time: ranked by id")
        XCTAssertEqual(ids(plan["deferred"]), Array(all.suffix(6)))
        XCTAssertEqual((plan["deferred"] as? [[String: Any]])?.map { $0["reason"] as? String },
                       Array(repeating: "budget", count: 6))
        let budget = try budget(plan)
        XCTAssertEqual(budget["pending"] as? Int, 64)
        XCTAssertEqual(budget["limit"] as? Int, 64)
        XCTAssertEqual(budget["status"] as? String, "atLimit")
        XCTAssertEqual(budget["message"] as? String, Self.messages["atLimit"])
        XCTAssertEqual(plan["nextWakeAt"] as? String, "2026-11-21T08:00:00Z")

        let run = try dir.run(at: "2026-11-21T08:00:00Z")
        assertRun(run, delivers: all)  // the six deferred ones too
        let outbox = try dir.outboxIDs()
        XCTAssertEqual(outbox.count, 70)
        XCTAssertEqual(Set(outbox).count, 70)
        XCTAssertEqual(Set(outbox), Set(all))

        // Tomorrow's 70 occurrences are capped the same way; nothing is delivered twice.
        XCTAssertEqual(try dir.plannedIDs().count, 64)
        XCTAssertEqual(ids(try dir.json("plan.json")["deferred"]),
                       (64..<70).map { "alarm.prayer:a\($0):2026-11-22" })
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs().count, 70)
        let status = try dir.status()
        XCTAssertEqual((status["budget"] as? [String: Any])?["status"] as? String, "atLimit")
    }

    /// A plan over a megabyte has its blocks reserved before it is written (AtomicFile.reserveBlocks); replacing
    /// the previous large plan must still leave one whole, current file, with the same permissions.
    func testAPlanOverAMegabyteReplacesThePreviousOneWhole() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", alarms(6_000, time: "12:00"))
        for now in ["2026-11-21T07:59:00Z", "2026-11-21T08:00:00Z"] {
            assertRun(try dir.run(at: now), delivers: [])
            let path = dir.path + "/plan.json"
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertGreaterThan(bytes.count, 1 << 20, "the plan must be large enough to be reserved")
            let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: bytes) as? [String: Any])
            XCTAssertEqual(plan["generatedAt"] as? String, now)
            XCTAssertEqual(ids(plan["pending"]).count, 64)
            XCTAssertEqual(ids(plan["deferred"]).count, 6_000 - 64)
            XCTAssertEqual(bytes.last, UInt8(ascii: "\n"))
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }

    func testHigherPriorityLaterInTheDayIsKeptOverSoonerMediumAndLowAndDeferredIsSortedByTime() throws {
        try dir.write("settings.json", """
            { "timeZone": "UTC", "maxPending": 3,
              "personalized": { "enabled": true, "firstName": "Sam", "time": "07:10" } }
            """)
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "d", "title": "D", "time": "15:00" }, { "id": "a", "title": "A", "time": "12:00" },
                          { "id": "c", "title": "C", "time": "14:00" }, { "id": "b", "title": "B", "time": "13:00" } ] }
            """)
        // Dry completes 07:00 (delivered by this first run, exactly then); the medium fold reminder is due 07:30.
        try dir.write("laundry.json", """
            { "pets": [ { "id": "snowy", "name": "Snowy", "dryMinutes": 60,
                          "cycle": { "id": "c-1", "stage": "dry", "startedAt": "2026-11-21T06:00:00Z" } } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: ["laundry.dryComplete:snowy:c-1"])

        let plan = try dir.json("plan.json")
        XCTAssertEqual(ids(plan["pending"]),
                       ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21", "alarm.prayer:c:2026-11-21"])
        // Ranked out: the fourth critical alarm (15:00), the medium fold reminder, the low morning message. The
        // deferred list is in plan order (fireAt, then id), not in rank order.
        XCTAssertEqual(ids(plan["deferred"]), ["daily.personalized:personalized:2026-11-21",
                                               "laundry.foldReminder:snowy:c-1", "alarm.prayer:d:2026-11-21"])
        let deferred = plan["deferred"] as? [[String: Any]] ?? []
        XCTAssertEqual(deferred.map { $0["priority"] as? String }, ["low", "medium", "critical"])
        XCTAssertEqual(deferred.map { $0["fireAt"] as? String },
                       ["2026-11-21T07:10:00Z", "2026-11-21T07:30:00Z", "2026-11-21T15:00:00Z"])
        XCTAssertEqual(deferred.map { $0["reason"] as? String }, ["budget", "budget", "budget"])
        // The budget limits the plan, never delivery: the next wake is the deferred morning message's.
        XCTAssertEqual(plan["nextWakeAt"] as? String, "2026-11-21T07:10:00Z")
        XCTAssertEqual(try budget(plan)["status"] as? String, "atLimit")

        // Two more slots: the medium fold reminder (07:30) enters before the sooner low message (07:10), and the
        // pending list is in plan order (fireAt, then id) whatever the priorities.
        try dir.write("settings.json", """
            { "timeZone": "UTC", "maxPending": 5,
              "personalized": { "enabled": true, "firstName": "Sam", "time": "07:10" } }
            """)
        assertRun(try dir.run(at: "2026-11-21T07:01:00Z"), delivers: [])
        let wider = try dir.json("plan.json")
        XCTAssertEqual(ids(wider["pending"]), ["laundry.foldReminder:snowy:c-1", "alarm.prayer:a:2026-11-21",
                                               "alarm.prayer:b:2026-11-21", "alarm.prayer:c:2026-11-21",
                                               "alarm.prayer:d:2026-11-21"])
        XCTAssertEqual(ids(wider["deferred"]), ["daily.personalized:personalized:2026-11-21"])
        XCTAssertEqual(wider["nextWakeAt"] as? String, "2026-11-21T07:10:00Z")

        // Deferred records are delivered when due, each once.
        assertRun(try dir.run(at: "2026-11-21T07:10:00Z"), delivers: ["daily.personalized:personalized:2026-11-21"])
        assertRun(try dir.run(at: "2026-11-21T07:30:00Z"), delivers: ["laundry.foldReminder:snowy:c-1"])
        assertRun(try dir.run(at: "2026-11-21T07:31:00Z"), delivers: [])
    }

    func testADeferredRecordEntersThePlanOnTheNextRunWhenASlotFrees() throws {
        try dir.write("settings.json", "{ \"timeZone\": \"UTC\", \"maxPending\": 2 }\n")
        let three = """
            { "alarms": [ { "id": "a", "title": "A", "time": "09:00" }, { "id": "b", "title": "B", "time": "10:00" },
                          { "id": "c", "title": "C", "time": "11:00" } ] }
            """
        try dir.write("alarms.json", three)
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
        XCTAssertEqual(ids(try dir.json("plan.json")["deferred"]), ["alarm.prayer:c:2026-11-21"])

        // A slot frees: alarm a is disabled. The very next run takes c into the plan.
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "a", "title": "A", "time": "09:00", "enabled": false },
                          { "id": "b", "title": "B", "time": "10:00" }, { "id": "c", "title": "C", "time": "11:00" } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T07:01:00Z"), delivers: [])
        var plan = try dir.json("plan.json")
        XCTAssertEqual(ids(plan["pending"]), ["alarm.prayer:b:2026-11-21", "alarm.prayer:c:2026-11-21"])
        XCTAssertEqual(ids(plan["deferred"]), [])
        XCTAssertEqual(try budget(plan)["status"] as? String, "atLimit")

        // Enabled again: a ranks first (sooner), so c goes back to deferred.
        try dir.write("alarms.json", three)
        assertRun(try dir.run(at: "2026-11-21T07:02:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
        XCTAssertEqual(ids(try dir.json("plan.json")["deferred"]), ["alarm.prayer:c:2026-11-21"])

        // A delivery frees a slot too: once a has rung, c (today 11:00) outranks a's next occurrence (tomorrow).
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: ["alarm.prayer:a:2026-11-21"])
        plan = try dir.json("plan.json")
        XCTAssertEqual(ids(plan["pending"]), ["alarm.prayer:b:2026-11-21", "alarm.prayer:c:2026-11-21"])
        XCTAssertEqual(ids(plan["deferred"]), ["alarm.prayer:a:2026-11-22"])
        assertRun(try dir.run(at: "2026-11-21T10:00:00Z"), delivers: ["alarm.prayer:b:2026-11-21"])
        assertRun(try dir.run(at: "2026-11-21T11:00:00Z"), delivers: ["alarm.prayer:c:2026-11-21"])
    }

    // MARK: - Status thresholds

    func testStatusThresholdsScaleWithMaxPendingTen() throws {
        // L = 10: warning from ⌈10 × 50/64⌉ = 8, critical from ⌈10 × 60/64⌉ = 10, atLimit at 10 (higher wins).
        try dir.write("settings.json", "{ \"timeZone\": \"UTC\", \"maxPending\": 10 }\n")
        let cases: [(alarms: Int, pending: Int, status: String)] = [
            (7, 7, "healthy"), (8, 8, "warning"), (9, 9, "warning"), (10, 10, "atLimit"), (12, 10, "atLimit"),
        ]
        for (index, item) in cases.enumerated() {
            try dir.write("alarms.json", alarms(item.alarms, time: "12:00"))
            assertRun(try dir.run(at: "2026-11-21T07:0\(index):00Z"), delivers: [])
            let plan = try dir.json("plan.json")
            let budget = try budget(plan)
            XCTAssertEqual(budget["pending"] as? Int, item.pending, "\(item.alarms) alarms")
            XCTAssertEqual(budget["limit"] as? Int, 10)
            XCTAssertEqual(budget["status"] as? String, item.status, "\(item.alarms) alarms")
            XCTAssertEqual(budget["message"] as? String, Self.messages[item.status], "\(item.alarms) alarms")
            XCTAssertEqual(ids(plan["deferred"]).count, item.alarms - item.pending)
            let status = try XCTUnwrap(try dir.status()["budget"] as? [String: Any])
            XCTAssertEqual(status["status"] as? String, item.status, "status --json after \(item.alarms) alarms")
            XCTAssertEqual(status["pending"] as? Int, item.pending)
        }
    }

    func testStatusThresholdsAtTheDefaultLimitAreFiftySixtyAndSixtyFour() throws {
        try dir.write("settings.json", Fixture.settings())
        let cases: [(count: Int, status: String)] = [
            (49, "healthy"), (50, "warning"), (59, "warning"), (60, "critical"), (63, "critical"), (64, "atLimit"),
        ]
        for item in cases {
            try dir.write("alarms.json", alarms(item.count, time: "12:00"))
            let result = try dir.nudge("plan", now: "2026-11-21T07:00:00Z", "--json")
            XCTAssertEqual(result.status, 0, result.summary)
            let plan = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let budget = try budget(plan)
            XCTAssertEqual(budget["pending"] as? Int, item.count)
            XCTAssertEqual(budget["status"] as? String, item.status, "\(item.count) pending")
            XCTAssertEqual(budget["message"] as? String, Self.messages[item.status], "\(item.count) pending")
        }
    }

    // MARK: - nudge plan

    func testPlanTableShowsTheFullBarTheCountsAndTheDeferredSection() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", alarms(70))
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])

        let result = try NudgeProcess.run(["plan", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(result.status, 0, result.summary)
        let lines = result.stdoutLines
        let budgetLine = try XCTUnwrap(lines.first { $0.hasPrefix("Budget: ") }, result.summary)
        let bar = try XCTUnwrap(budgetLine.range(of: #"\[[#-]+\]"#, options: .regularExpression), budgetLine)
        let cells = budgetLine[bar].dropFirst().dropLast()
        XCTAssertFalse(cells.contains("-"), "a full budget fills the bar: \(budgetLine)")
        XCTAssertTrue(budgetLine.hasSuffix("] 64/64 atLimit — Notification limit reached. Complete cycles to free "
                                           + "up space."), budgetLine)

        let deferredHeader = try XCTUnwrap(lines.firstIndex(of: "Deferred by the budget (6):"), result.summary)
        let pendingRows = lines[..<deferredHeader].filter { $0.contains("Take 15 minutes to pray") }
        XCTAssertEqual(pendingRows.count, 64, result.summary)
        // A deferred record is short (docs/design.md, "What a run plans"): its title, no body.
        let deferredRows = Array(lines[(deferredHeader + 2)...].prefix { !$0.isEmpty })
        XCTAssertEqual(deferredRows.map { $0.contains("Alarm 6") && $0.contains("critical") }, Array(repeating: true,
                                                                                                   count: 6))
        XCTAssertFalse(deferredRows.contains { $0.contains("Take 15 minutes to pray") }, result.summary)
        XCTAssertEqual(deferredRows.compactMap { row in (64..<70).first { row.contains("Alarm \($0) Time") } },
                       Array(64..<70), "deferred rows in order: \(deferredRows)")
    }

    func testPlanTableBarIsFilledInProportionBelowTheLimit() throws {
        try dir.write("settings.json", "{ \"timeZone\": \"UTC\", \"maxPending\": 10 }\n")
        try dir.write("alarms.json", alarms(8, time: "12:00"))
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])

        let result = try NudgeProcess.run(["plan", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(result.status, 0, result.summary)
        let budgetLine = try XCTUnwrap(result.stdoutLines.first { $0.hasPrefix("Budget: ") }, result.summary)
        let bar = try XCTUnwrap(budgetLine.range(of: #"\[#+-+\]"#, options: .regularExpression), budgetLine)
        let cells = budgetLine[bar].dropFirst().dropLast()
        let filled = cells.filter { $0 == "#" }.count
        XCTAssertEqual(Double(filled) / Double(cells.count), 0.8, accuracy: 1.0 / Double(cells.count), budgetLine)
        XCTAssertTrue(budgetLine.hasSuffix("] 8/10 warning — Approaching notification limit. Consider completing "
                                           + "some cycles."), budgetLine)
        XCTAssertFalse(result.stdout.contains("Deferred by the budget"), result.summary)
    }
}
