import XCTest
@testable import NudgeCore

/// Priority eviction (docs/design.md, "What a run plans") through `Budget.split` and `Planner.plan`.
final class BudgetTests: XCTestCase {
    private func record(_ id: String, _ priority: Priority, _ fireAt: String) -> NudgeCore.Notification {
        NudgeCore.Notification(id: id, kind: .prayer, source: id, fireAt: Fixtures.instant(fireAt),
                               expiresAt: Fixtures.instant(fireAt).addingTimeInterval(1800), title: id, body: "",
                               priority: priority, category: "", actions: [], sound: true, badge: true,
                               recurrence: .once)
    }

    func testHigherPrioritiesAreKeptWhateverTheirTime() {
        let candidates = [
            record("low-soon", .low, "2026-11-21T08:00:00Z"),
            record("medium-soon", .medium, "2026-11-21T08:05:00Z"),
            record("critical-late", .critical, "2026-11-22T20:00:00Z"),
            record("high-late", .high, "2026-11-22T19:00:00Z"),
            record("medium-late", .medium, "2026-11-22T21:00:00Z"),
        ]
        let (pending, deferred) = Budget.split(candidates, limit: 3)
        XCTAssertEqual(pending.map(\.id), ["medium-soon", "high-late", "critical-late"])  // by fireAt
        XCTAssertEqual(deferred.map(\.id), ["low-soon", "medium-late"])
    }

    func testSamePriorityKeepsTheSoonestThenTheSmallestId() {
        let candidates = [
            record("b", .critical, "2026-11-21T09:00:00Z"),
            record("a", .critical, "2026-11-21T09:00:00Z"),
            record("c", .critical, "2026-11-21T08:00:00Z"),
        ]
        let (pending, deferred) = Budget.split(candidates, limit: 2)
        XCTAssertEqual(pending.map(\.id), ["c", "a"])
        XCTAssertEqual(deferred.map(\.id), ["b"])
    }

    /// Budget.split fills the slots one priority at a time in time order; that must equal the budget's ranking
    /// (priority, fireAt, id) cut at the limit, for any mix, including ties in time and every limit.
    func testSplitMatchesSortingByPriorityTimeAndIdOnRandomCandidates() {
        XCTAssertEqual(Priority.allCases, [.critical, .high, .medium, .low])
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let count = Int.random(in: 0...40, using: &generator)
            let candidates = (0..<count).map { index in
                record("r\(Int.random(in: 0...99, using: &generator))-\(index)",
                       Priority.allCases.randomElement(using: &generator) ?? .low,
                       "2026-11-21T0\(Int.random(in: 0...3, using: &generator)):00:00Z")
            }
            let limit = Int.random(in: 0...45, using: &generator)
            let ranked = candidates.sorted { ($0.priority, $0.fireAt, $0.id) < ($1.priority, $1.fireAt, $1.id) }
            let expectedKept = Set(ranked.prefix(limit).map(\.id))
            let byTime = { (list: [NudgeCore.Notification]) in
                list.sorted { ($0.fireAt, $0.id) < ($1.fireAt, $1.id) }.map(\.id)
            }
            let (pending, deferred) = Budget.split(candidates, limit: limit)
            XCTAssertEqual(pending.map(\.id), byTime(candidates.filter { expectedKept.contains($0.id) }), "round \(round)")
            XCTAssertEqual(deferred.map(\.id), byTime(candidates.filter { !expectedKept.contains($0.id) }), "round \(round)")
        }
    }

    /// Alarms' dated ids are kept as their parts and ordered by their first bytes after the kind (`sortPrefix`):
    /// the order must be that of their text, for sources that begin others, share long beginnings or are not
    /// ASCII, and for years whose text is not four digits.
    func testSplitOrdersDatedIdsAsTheirText() throws {
        let sources = ["a", "a-b", "a0", "aa", "a.", "A", "a_b", "morning-prayer-1", "morning-prayer-10",
                       "morning-prayer-2", "Zoë", "Zoe\u{301}", "zz", "x"]
        let dates = [Fixtures.date("2026-11-21"), Fixtures.date("2026-11-22"), Fixtures.date("0999-01-01"),
                     try XCTUnwrap(LocalDate(year: 10_000, month: 1, day: 1))]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<100 {
            let candidates = (0..<30).map { _ in
                let fireAt = Fixtures.instant("2026-11-21T0\(Int.random(in: 0...1, using: &generator)):00:00Z")
                return NudgeCore.Notification(
                    occurrenceOn: dates.randomElement(using: &generator) ?? dates[0], kind: .prayer,
                    source: sources.randomElement(using: &generator) ?? "a", fireAt: fireAt, expiresAt: fireAt,
                    title: "", body: "", priority: .critical, category: "", actions: [], sound: true, badge: true,
                    recurrence: .once)
            }
            let limit = Int.random(in: 0...30, using: &generator)
            let byTime = { (list: [NudgeCore.Notification]) in
                list.sorted { ($0.fireAt, $0.id) < ($1.fireAt, $1.id) }.map(\.id)
            }
            let (pending, deferred) = Budget.split(candidates, limit: limit)
            XCTAssertEqual(pending.map(\.id) + deferred.map(\.id), byTime(candidates), "round \(round)")
        }
    }

    func testUnderTheLimitNothingIsDeferred() {
        let (pending, deferred) = Budget.split([record("a", .low, "2026-11-21T09:00:00Z")], limit: 64)
        XCTAssertEqual(pending.map(\.id), ["a"])
        XCTAssertEqual(deferred, [])
    }

    func testPlanDefersTheRestAndADeferredRecordIsStillDelivered() throws {
        var household = Household(settings: Fixtures.settings())
        household.settings.maxPending = 2
        household.alarms = [Fixtures.alarm("a", at: "10:00"), Fixtures.alarm("b", at: "11:00")]
        var pet = Pet(id: "snowy", name: "Snowy",
                      cycle: LaundryCycle(id: "c-1", stage: .dry, startedAt: Fixtures.instant("2026-11-21T06:00:00Z")))
        pet.dryMinutes = 60
        household.pets = [pet]
        var previous = RunState()
        previous.lastRunAt = Fixtures.instant("2026-11-21T06:59:00Z")
        let first = Planner.plan(household, previous: previous, now: Fixtures.instant("2026-11-21T07:00:00Z"),
                                 zone: Fixtures.berlin)
        XCTAssertEqual(first.plan.pending.map(\.id), ["alarm.prayer:a:2026-11-21", "alarm.prayer:b:2026-11-21"])
        XCTAssertEqual(first.plan.deferred.map(\.id), ["laundry.foldReminder:snowy:c-1"])
        XCTAssertEqual(first.plan.budget.level, .atLimit)
        // The deferred fold reminder (07:30Z) wakes the next run: the budget never limits delivery.
        XCTAssertEqual(first.plan.nextWakeAt, Fixtures.instant("2026-11-21T07:30:00Z"))
        let json = try JSONParser.parse(first.plan.fileContent)
        XCTAssertEqual(json["deferred"]?.arrayValue?.first?["reason"], .string("budget"))

        let later = Planner.plan(household, previous: first.state, now: Fixtures.instant("2026-11-21T07:30:00Z"),
                                 zone: Fixtures.berlin)
        XCTAssertEqual(later.deliveries.map(\.notification.id), ["laundry.foldReminder:snowy:c-1"])
    }
}

final class PlanWritingTests: XCTestCase {
    /// plan.json as nudge lays it out, built from JSON values: pretty text, pending records whole,
    /// deferred ones short and each on one line, and a final newline.
    private func expectedText(_ plan: Plan) -> String {
        let deferredMark = "\"deferred\": []"
        let text = JSONValue.object([
            JSONMember("generatedAt", .string(RFC3339.format(plan.generatedAt))),
            JSONMember("timeZone", .string(plan.timeZone)),
            JSONMember("budget", .object([
                JSONMember("pending", .number(String(plan.budget.pending))),
                JSONMember("limit", .number(String(plan.budget.limit))),
                JSONMember("status", .string(plan.budget.level.rawValue)),
                JSONMember("message", .string(plan.budget.message)),
            ])),
            JSONMember("pending", .array(plan.pending.map(\.json))),
            JSONMember("deferred", .array([])),
            JSONMember("nextWakeAt", plan.nextWakeAt.map { .string(RFC3339.format($0)) } ?? .null),
        ]).prettyText
        guard !plan.deferred.isEmpty else { return text + "\n" }
        let lines = plan.deferred.map { record -> String in
            let value = JSONValue.object([
                JSONMember("id", .string(record.id)), JSONMember("kind", .string(record.kind.rawValue)),
                JSONMember("source", .string(record.source)),
                JSONMember("fireAt", .string(RFC3339.format(record.fireAt))),
                JSONMember("priority", .string(record.priority.rawValue)), JSONMember("title", .string(record.title)),
                JSONMember("reason", .string("budget")),
            ])
            return "    " + value.compactText
        }
        return text.replacingOccurrences(of: deferredMark,
                                         with: "\"deferred\": [\n" + lines.joined(separator: ",\n") + "\n  ]") + "\n"
    }

    func testFileContentIsThePrettyTextOfTheJSONValue() {
        var household = Household(settings: Fixtures.settings())
        household.settings.maxPending = 2
        household.alarms = [Fixtures.alarm("a", at: "10:00"), Fixtures.alarm("b", at: "11:00"),
                            Fixtures.alarm("c", at: "12:00")]
        household.pets = [Pet(id: "snowy", name: "Snow \"White\"\n\u{1}é",
                              lastCompletedAt: Fixtures.instant("2026-11-14T18:00:00.25Z"))]
        var previous = RunState()
        previous.lastRunAt = Fixtures.instant("2026-11-21T06:59:00Z")
        let plan = Planner.plan(household, previous: previous, now: Fixtures.instant("2026-11-21T07:00:00Z"),
                                zone: Fixtures.berlin).plan
        XCTAssertEqual(plan.deferred.count, 2)
        XCTAssertEqual(String(decoding: plan.fileContent, as: UTF8.self), expectedText(plan))
        XCTAssertTrue(plan.text.contains(#"    {"id":"alarm.prayer:c:2026-11-21","kind":"alarm.prayer","source":"c","#
            + #""fireAt":"2026-11-21T11:00:00Z","priority":"critical","title":"Morning Prayer Time","reason":"budget"},"#), plan.text)
        let empty = Plan(generatedAt: Fixtures.instant("2026-11-21T07:00:00Z"), timeZone: "UTC",
                         budget: BudgetStatus(pending: 0, limit: 64), pending: [], deferred: [],
                         nextWakeAt: nil)
        XCTAssertEqual(String(decoding: empty.fileContent, as: UTF8.self), expectedText(empty))
    }

    /// Records that differ in one member each, escapes in every string, fractions of a second and instants far
    /// from now.
    func testFileContentOfMixedRecordsIsThePrettyTextOfTheJSONValue() {
        func record(_ id: String, _ kind: NotificationKind = .prayer, at fireAt: Double = 1_795_248_000,
                    priority: Priority = .critical, category: String = "PRAYER_ALARM",
                    actions: [String] = ["START_TIMER", "SNOOZE"], sound: Bool = true, badge: Bool = true,
                    text: String = "Morning Prayer Time") -> NudgeCore.Notification {
            NudgeCore.Notification(id: id, kind: kind, source: "src-" + id, fireAt: Date(timeIntervalSince1970: fireAt),
                                   expiresAt: Date(timeIntervalSince1970: fireAt + 1_800), title: text, body: text,
                                   priority: priority, category: category, actions: actions, sound: sound,
                                   badge: badge, recurrence: .once)
        }
        let records = [
            record("a"), record("b"), record("c", .timerDone), record("d", priority: .high),
            record("e", category: "PRAYER_TIMER"), record("f", actions: []), record("g", actions: ["SNOOZE"]),
            record("h", sound: false), record("i", badge: false), record("j"),
            record("q\"uote\\back\nline\u{1}\u{1F}", category: "c\"at", actions: ["a\tb"], text: "Zoë ❄️ \"hi\"\r"),
            record("fraction", at: 1_795_248_000.25), record("early", at: -86_401), record("epoch", at: 0),
            record("far", at: 253_402_300_799), record("beyond", at: 253_402_300_800),
            record("next-day", at: 1_795_334_400), record("same-day-again", at: 1_795_248_059),
        ]
        for split in [0, 3, records.count] {
            let plan = Plan(generatedAt: Date(timeIntervalSince1970: 1_795_248_000.5), timeZone: "Europe/Berlin",
                            budget: BudgetStatus(pending: split, limit: 3), pending: Array(records.prefix(split)),
                            deferred: records.dropFirst(split).map(DeferredRecord.init),
                            nextWakeAt: records.first?.fireAt)
            XCTAssertEqual(String(decoding: plan.fileContent, as: UTF8.self), expectedText(plan))
        }
    }

    /// Dated ids (alarms'), kept as their parts: escapes in the source, sources of 0, 16 and 17 bytes, dates that
    /// change from record to record and a year of five digits.
    func testFileContentOfDatedIdsIsThePrettyTextOfTheJSONValue() throws {
        func record(_ source: String, _ date: LocalDate, _ kind: NotificationKind = .prayer) -> NudgeCore.Notification {
            NudgeCore.Notification(occurrenceOn: date, kind: kind, source: source,
                                   fireAt: Date(timeIntervalSince1970: 1_795_248_000),
                                   expiresAt: Date(timeIntervalSince1970: 1_795_249_800), title: "T", body: "B",
                                   priority: .critical, category: "PRAYER_ALARM", actions: ["SNOOZE"], sound: true,
                                   badge: true, recurrence: .once)
        }
        let today = Fixtures.date("2026-11-21"), tomorrow = Fixtures.date("2026-11-22")
        let records = [
            record("fajr", today), record("asr", today), record("fajr", tomorrow), record("q\"uote\\back\u{1}", today),
            record("Zoë", tomorrow), record("far", try XCTUnwrap(LocalDate(year: 10_000, month: 1, day: 1))),
            record("early", Fixtures.date("0999-01-05")), record("s", today, .streakReminder),
            record("sixteen-bytes-id", today), record("seventeen-bytes-i", today), record("", today),
            record("fifteen\tbytes!", today),
            NudgeCore.Notification(id: "text:id", kind: .prayer, source: "t", fireAt: Date(timeIntervalSince1970: 0),
                                   expiresAt: Date(timeIntervalSince1970: 0), title: "", body: "", priority: .low,
                                   category: "", actions: [], sound: false, badge: false, recurrence: .once),
            record("fajr", today),
        ]
        XCTAssertEqual(records[0].id, "alarm.prayer:fajr:2026-11-21")
        for split in [0, 3, records.count] {
            let plan = Plan(generatedAt: Date(timeIntervalSince1970: 1_795_248_000.5), timeZone: "Europe/Berlin",
                            budget: BudgetStatus(pending: split, limit: 3), pending: Array(records.prefix(split)),
                            deferred: records.dropFirst(split).map(DeferredRecord.init),
                            nextWakeAt: records.first?.fireAt)
            XCTAssertEqual(String(decoding: plan.fileContent, as: UTF8.self), expectedText(plan))
        }
    }
}
