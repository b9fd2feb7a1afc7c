import XCTest
@testable import NudgeCore

/// One run's matching of the calendar (docs/calendar.md, "What each run does"), against literal plans and the
/// answers a CalDAV server gives: which requests, with which conditions, and what is remembered.
final class CalendarMatchTests: XCTestCase {
    private let now = Fixtures.instant("2026-11-21T10:00:00Z")
    private let settings = CalendarSettings(url: "https://dav.example.org/cal/sam/nudge/")

    private func record(_ id: String, _ fireAt: String, _ priority: Priority = .critical,
                        title: String = "Fajr") -> NudgeCore.Notification {
        NudgeCore.Notification(id: id, kind: .prayer, source: "s", fireAt: Fixtures.instant(fireAt),
                               expiresAt: Fixtures.instant(fireAt).addingTimeInterval(1800), title: title,
                               body: "Time to pray", priority: priority, category: "PRAYER_ALARM", actions: [],
                               sound: true, badge: true, recurrence: .once)
    }

    private func plan(_ records: [NudgeCore.Notification], at now: Date? = nil) -> Plan {
        Plan(generatedAt: now ?? self.now, timeZone: "UTC", budget: BudgetStatus(pending: records.count, limit: 64),
             pending: records, deferred: [], nextWakeAt: nil)
    }

    /// Runs a match, answering each request with `answer` (default: 201 with an ETag made from the URL), and
    /// returns the requests and the state after it.
    private func match(_ plan: Plan, _ state: RunState, at now: Date? = nil,
                       answer: (CalendarRequest) -> CalendarAnswer? = { CalendarAnswer(status: 201, etag: "\"e-\($0.url.count)\"", body: "") })
        -> (requests: [CalendarRequest], state: RunState, match: CalendarMatch) {
        var match = CalendarMatch(plan: plan, settings: settings, state: state, now: now ?? self.now, product: "test")
        var requests: [CalendarRequest] = []
        while let request = match.next() {
            requests.append(request)
            if let reply = answer(request) { match.take(reply) } else { match.fail(.transport("offline")) }
        }
        var after = state
        after.noteCalendar(match.finished(at: now ?? self.now))
        return (requests, after, match)
    }

    func testNewEventsArePutOnceEachAndAnUnchangedPlanMakesNoRequest() throws {
        let plan = plan([record("fajr:2026-11-22", "2026-11-22T05:30:00Z"),
                         record("wash", "2026-11-21T11:00:00Z", .high, title: "Wash Complete!"),
                         record("fold", "2026-11-21T11:30:00Z", .medium)])
        let first = match(plan, RunState())
        XCTAssertEqual(first.requests.map(\.method), ["PUT", "PUT"], "medium stays off the calendar")
        XCTAssertEqual(first.requests.map(\.url), ["https://dav.example.org/cal/sam/nudge/wash@nudge.ics",
                                                   "https://dav.example.org/cal/sam/nudge/fajr%3A2026-11-22@nudge.ics"])
        XCTAssertTrue(first.requests.allSatisfy { $0.headers.contains("If-None-Match: *") })
        let body = try XCTUnwrap(first.requests.first?.body)
        XCTAssertTrue(body.contains("UID:wash@nudge\r\n") && body.contains("BEGIN:VALARM\r\n"), body)
        XCTAssertEqual(first.state.calendar.keptCount, 2)
        XCTAssertEqual(first.state.calendar.lastMatchAt, now)

        let later = Fixtures.instant("2026-11-21T10:01:00Z")
        let second = match(self.plan(plan.pending, at: later), first.state, at: later)
        XCTAssertEqual(second.requests, [], "nothing changed: no request")
        XCTAssertTrue(CalendarMatch(plan: plan, settings: settings, state: first.state, now: later, product: "test")
            .isIdle)
    }

    func testAMovedRecordIsPutWithItsETagAndOneThatLeftThePlanBeforeItsTimeIsDeleted() {
        let first = match(plan([record("leave", "2026-11-21T12:00:00Z", .high), record("fajr", "2026-11-22T05:30:00Z")]),
                          RunState())
        let etag = first.requests.first.map { "\"e-\($0.url.count)\"" }
        let second = match(plan([record("leave", "2026-11-21T12:05:00Z", .high)]), first.state)
        XCTAssertEqual(second.requests.map(\.method), ["PUT", "DELETE"])
        XCTAssertEqual(second.requests.first?.headers.first, "If-Match: \(etag ?? "")")
        XCTAssertTrue(second.requests.last?.url.hasSuffix("/fajr@nudge.ics") ?? false)
        XCTAssertEqual(second.state.calendar.keptCount, 1)
    }

    func testAnEventWhoseTimePassedStaysUntilItsRecordIsSettledOrADayAfter() {
        let first = match(plan([record("fajr", "2026-11-21T10:30:00Z")]), RunState())
        let delivered = Fixtures.instant("2026-11-21T10:31:00Z")
        XCTAssertEqual(match(plan([], at: delivered), first.state, at: delivered).requests, [],
                       "delivered, not acted on: it stays in the calendar")
        var acted = first.state
        acted.userActions.record(.snooze, on: "fajr", now: delivered)
        XCTAssertEqual(match(plan([], at: delivered), acted, at: delivered).requests.map(\.method), ["DELETE"])
        let dayAfter = Fixtures.instant("2026-11-22T10:30:00Z")
        XCTAssertEqual(match(plan([], at: dayAfter), first.state, at: dayAfter).requests.map(\.method), ["DELETE"])
    }

    func testAnEventARunWroteBeforeItDiedIsReadAndUpdatedNotWrittenTwice() {
        var calls = 0
        let result = match(plan([record("fajr", "2026-11-22T05:30:00Z")]), RunState()) { request in
            calls += 1
            switch calls {
            case 1: return CalendarAnswer(status: 412, etag: nil, body: "")
            case 2: return CalendarAnswer(status: 200, etag: "\"there\"", body: "BEGIN:VCALENDAR")
            default: return CalendarAnswer(status: 204, etag: "\"new\"", body: "")
            }
        }
        XCTAssertEqual(result.requests.map(\.method), ["PUT", "GET", "PUT"])
        XCTAssertEqual(result.requests.last?.headers.first, "If-Match: \"there\"")
        XCTAssertNil(result.match.failure)
        XCTAssertEqual(result.state.calendar.keptCount, 1)
    }

    func testAnEventThePersonDeletedIsWrittenAgainOnlyWhenItsRecordChanges() {
        let first = match(plan([record("fajr", "2026-11-22T05:30:00Z")]), RunState())
        // Deleted on the server: an unchanged record makes no request at all.
        XCTAssertEqual(match(plan([record("fajr", "2026-11-22T05:30:00Z")]), first.state).requests, [])
        var calls = 0
        let moved = match(plan([record("fajr", "2026-11-22T05:31:00Z")]), first.state) { _ in
            calls += 1
            return CalendarAnswer(status: [412, 404, 201][min(calls - 1, 2)], etag: calls == 3 ? "\"x\"" : nil,
                                  body: "")
        }
        XCTAssertEqual(moved.requests.map(\.method), ["PUT", "GET", "PUT"])
        XCTAssertEqual(moved.requests.last?.headers.first, "If-None-Match: *")
        XCTAssertNil(moved.match.failure)
    }

    func testAFailureStopsTheMatchIsReportedOnceAndKeepsWhatTheServerConfirmed() {
        var calls = 0
        let plan = plan([record("a", "2026-11-21T11:00:00Z"), record("b", "2026-11-21T12:00:00Z")])
        let first = match(plan, RunState()) { _ in
            calls += 1
            return calls == 1 ? CalendarAnswer(status: 201, etag: nil, body: "") : CalendarAnswer(status: 401, etag: nil, body: "")
        }
        XCTAssertEqual(first.requests.count, 2)
        XCTAssertEqual(first.match.failure, .credentials(host: "dav.example.org", status: 401))
        XCTAssertNotNil(first.match.failureToReport)
        XCTAssertEqual(first.state.calendar.keptCount, 1, "the first PUT got through")
        XCTAssertNil(first.state.calendar.lastMatchAt)
        let again = match(plan, first.state) { _ in CalendarAnswer(status: 401, etag: nil, body: "") }
        XCTAssertEqual(again.requests.count, 1, "only what is left, and it stops at the failure")
        XCTAssertNil(again.match.failureToReport, "the same failure is reported once")
        let healed = match(plan, again.state)
        XCTAssertNil(healed.state.calendar.failure)
        XCTAssertEqual(healed.state.calendar.keptCount, 2)
        XCTAssertEqual(CalendarFailure.of(CalendarAnswer(status: 404, etag: nil, body: ""), method: "PUT",
                                          host: "h", collection: "https://h/c/").description,
                       "the calendar does not exist (nudge init --calendar https://h/c/ makes it)")
        XCTAssertEqual(CalendarFailure.changedElsewhere(summary: "Fajr").description,
                       "the event \"Fajr\" changed elsewhere: read again; the next run tries again")
    }

    func testAnotherCollectionStartsAfreshAndTheMemoryRoundTripsThroughStateJSON() throws {
        let first = match(plan([record("fajr", "2026-11-22T05:30:00Z")]), RunState())
        let read = try RunState.decode(first.state.fileContent)
        XCTAssertEqual(read.calendar, first.state.calendar)
        XCTAssertFalse(String(decoding: RunState().fileContent, as: UTF8.self).contains("\"calendar\""),
                       "no calendar, no member: state.json stays as it was")
        var other = settings
        other.url = "https://dav.example.org/cal/sam/other/"
        var moved = CalendarMatch(plan: plan([record("fajr", "2026-11-22T05:30:00Z")]), settings: other,
                                  state: first.state, now: now, product: "test")
        XCTAssertEqual(moved.next()?.url, "https://dav.example.org/cal/sam/other/fajr@nudge.ics")
    }
}
