import XCTest
@testable import NudgeCore

/// The plan's records as calendar events (docs/calendar.md): which ones, and RFC 5545's text rules.
final class CalendarEventsTests: XCTestCase {
    private func record(_ id: String, _ fireAt: String, _ priority: Priority, title: String = "T",
                        body: String = "B") -> NudgeCore.Notification {
        NudgeCore.Notification(id: id, kind: .prayer, source: "s", fireAt: Fixtures.instant(fireAt),
                               expiresAt: Fixtures.instant(fireAt).addingTimeInterval(1800), title: title,
                               body: body, priority: priority, category: "PRAYER_ALARM", actions: [], sound: true,
                               badge: true, recurrence: .once)
    }

    func testCriticalAndHighWithin48HoursPendingOrDeferredInTimeOrder() {
        let now = Fixtures.instant("2026-11-21T10:00:00Z")
        let plan = Plan(generatedAt: now, timeZone: "UTC", budget: BudgetStatus(pending: 3, limit: 3),
                        pending: [record("a", "2026-11-21T11:00:00Z", .critical),
                                  record("b", "2026-11-21T12:00:00Z", .medium),
                                  record("c", "2026-11-23T10:00:00Z", .high),
                                  record("d", "2026-11-23T10:00:01Z", .high)],
                        deferred: [DeferredRecord(record("e", "2026-11-21T10:30:00Z", .high, title: "Short"))],
                        nextWakeAt: nil)
        let events = CalendarEvents(plan, now: now).events
        XCTAssertEqual(events.map(\.uid), ["e@nudge", "a@nudge", "c@nudge"], "48 h to the second, no medium")
        XCTAssertEqual(events.first?.description, "Short", "a deferred record's title stands in for its body")
        XCTAssertEqual(CalendarEvents(plan, now: now, priorities: [.medium], hoursAhead: 2).events.map(\.uid),
                       ["b@nudge"])
    }

    func testTextIsEscapedAndLongLinesFoldedBetweenCharacters() {
        XCTAssertEqual(ICalendarText.escaped("a,b;c\\d\ne"), #"a\,b\;c\\d\ne"#)
        XCTAssertEqual(ICalendarText.utc(Fixtures.instant("2026-03-29T01:00:00Z")), "20260329T010000Z")
        let line = "SUMMARY:" + String(repeating: "é", count: 100)
        let pieces = ICalendarText.folded(line).components(separatedBy: "\r\n")
        XCTAssertTrue(pieces.allSatisfy { $0.utf8.count <= 75 }, "\(pieces.map(\.utf8.count))")
        XCTAssertTrue(pieces.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        XCTAssertEqual(pieces.first.map { String($0).utf8.count }, 74, "no é cut in two: 8 + 33 × 2")
        XCTAssertEqual(pieces.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }
            .joined(), line)
        XCTAssertEqual(ICalendarText.folded("SHORT:x"), "SHORT:x")
    }
}
