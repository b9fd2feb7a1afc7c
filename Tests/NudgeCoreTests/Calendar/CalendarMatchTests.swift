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
        var match = CalendarMatch(plan: plan, settings: settings, state: state, household: Household(), now: now ?? self.now,
                                  product: "test")
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
        var quiet = CalendarMatch(plan: plan, settings: settings, state: first.state, household: Household(),
                                  now: later, product: "test")
        XCTAssertNil(quiet.next())
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
                                  state: first.state, household: Household(), now: now, product: "test")
        XCTAssertEqual(moved.next()?.url, "https://dav.example.org/cal/sam/other/fajr@nudge.ics")
    }

    /// One event the server refuses (a UID its trash keeps, a 409, a 207 that holds an error) keeps no other
    /// event off the calendar; 401 and 5xx stop the match.
    func testOneRefusedEventLetsTheOthersGoOnAndTheServerOrCredentialsStopIt() {
        let plan = plan([record("a", "2026-11-21T11:00:00Z", title: "A"), record("b", "2026-11-21T12:00:00Z"),
                         record("c", "2026-11-21T13:00:00Z")])
        for refusal in [400, 403, 409, 207] {
            let result = match(plan, RunState()) { request in
                if request.method == "PROPFIND" {
                    return CalendarAnswer(status: 207, etag: nil, body: "<d:resourcetype><c:calendar/></d:resourcetype>")
                }
                return CalendarAnswer(status: request.url.hasSuffix("/a@nudge.ics") ? refusal : 201, etag: nil, body: "")
            }
            XCTAssertEqual(result.requests.filter { $0.method == "PUT" }.count, 3, "HTTP \(refusal)")
            XCTAssertEqual(result.state.calendar.keptCount, 2, "HTTP \(refusal): b and c written, a not")
            XCTAssertNotNil(result.match.failureToReport, "HTTP \(refusal)")
        }
        for stop in [401, 503] {
            let result = match(plan, RunState()) { _ in CalendarAnswer(status: stop, etag: nil, body: "") }
            XCTAssertEqual(result.requests.count, 1, "HTTP \(stop) stops the match")
        }
    }

    /// A write answered 404 or 409 asks the collection once: there is none (said as such, and the match stops),
    /// or it was that event alone.
    func testAWriteIntoNothingAsksTheCollectionOnceAndSaysItIsMissing() {
        let plan = plan([record("a", "2026-11-21T11:00:00Z"), record("b", "2026-11-21T12:00:00Z")])
        let missing = match(plan, RunState()) { request in
            CalendarAnswer(status: request.method == "PROPFIND" ? 404 : 409, etag: nil, body: "")
        }
        XCTAssertEqual(missing.requests.map(\.method), ["PUT", "PROPFIND"])
        XCTAssertEqual(missing.match.failureToReport,
                       .missingCollection(url: "https://dav.example.org/cal/sam/nudge/"))
    }

    func testAnEventTheServerRefusesToDeleteIsForgottenNotAskedForEveryRun() {
        let first = match(plan([record("fajr", "2026-11-22T05:30:00Z")]), RunState())
        let refused = match(plan([]), first.state) { _ in CalendarAnswer(status: 403, etag: nil, body: "") }
        XCTAssertEqual(refused.requests.map(\.method), ["DELETE"])
        XCTAssertEqual(refused.state.calendar.keptCount, 0)
        XCTAssertEqual(match(plan([]), refused.state).requests, [])
    }

    /// A run that sends nothing and has no failure to clear leaves the memory as it was: nothing more to write.
    func testAQuietMatchLeavesTheMemoryAsItWas() {
        let first = match(plan([record("fajr", "2026-11-22T05:30:00Z")]), RunState())
        let later = Fixtures.instant("2026-11-21T10:05:00Z")
        let quiet = match(self.plan([record("fajr", "2026-11-22T05:30:00Z")], at: later), first.state, at: later)
        XCTAssertEqual(quiet.state.calendar, first.state.calendar)
        XCTAssertEqual(quiet.state.calendar.lastMatchAt, now, "the last change written, not the last run")
    }

    /// A laundry stage that rang stays until its cycle is folded (or stopped): then laundry.json has it no more.
    func testALaundryStageThatRangGoesWhenItsCycleIsFolded() {
        let first = match(plan([record("laundry.dryComplete:snowy:c-1", "2026-11-21T10:30:00Z")]), RunState())
        let rang = Fixtures.instant("2026-11-21T10:31:00Z")
        var household = Household(pets: [Fixtures.washingPet()])  // snowy, cycle c-1
        var drying = CalendarMatch(plan: plan([], at: rang), settings: settings, state: first.state,
                                   household: household, now: rang, product: "test")
        XCTAssertNil(drying.next(), "its cycle is still there: the event stays")
        household.pets[0].cycle = nil
        var folded = CalendarMatch(plan: plan([], at: rang), settings: settings, state: first.state,
                                   household: household, now: rang, product: "test")
        XCTAssertEqual(folded.next()?.method, "DELETE")
    }
}
