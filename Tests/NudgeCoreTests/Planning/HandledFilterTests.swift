import XCTest
@testable import NudgeCore

final class HandledFilterTests: XCTestCase {
    private typealias Identity = NudgeCore.Notification.Identity

    private func identity(_ source: String, _ date: String) -> Identity {
        .init(kind: .prayer, source: source, stored: .dated(Fixtures.date(date)))
    }

    private func mayContain(_ filter: HandledFilter, _ identity: Identity) -> Bool {
        filter.mayContain(identity, source: Identity.SourceKey(identity.source))
    }

    /// A dated id, kept as its parts, is found by the text of the same id in the ledger.
    func testADatedIdIsFoundByItsText() {
        let ids = ["alarm.prayer:fajr:2026-11-21", "alarm.prayer:a-b:0001-01-01", "laundry.washComplete:snowy:c1",
                   "alarm.prayer:x:2026-11-21:snooze-1", "test"]
        let filter = HandledFilter(ids, capacity: 0)
        XCTAssertTrue(mayContain(filter, identity("fajr", "2026-11-21")))
        XCTAssertTrue(mayContain(filter, identity("a-b", "0001-01-01")))
        for id in ids { XCTAssertTrue(filter.mayContain(id), id) }
        XCTAssertTrue(mayContain(filter, Identity(kind: .washComplete, source: "snowy",
                                                  stored: .text("laundry.washComplete:snowy:c1"))))
    }

    /// A source with a colon would split its id's text elsewhere, so such an id is looked up by its text.
    func testASourceWithAColonIsLookedUpByItsText() {
        let filter = HandledFilter(["alarm.prayer:a:b:2026-11-21"], capacity: 0)
        XCTAssertTrue(mayContain(filter, identity("a:b", "2026-11-21")))
    }

    /// The planner reads a source once for the filter and the upcoming index: the same hash as the index's.
    func testSourceKeyIsTheIndexHashAndSeesAColon() {
        XCTAssertEqual(Identity.SourceKey("fajr").hash, UpcomingIndex.hash("fajr"))
        XCTAssertFalse(Identity.SourceKey("fajr").hasColon)
        XCTAssertTrue(Identity.SourceKey("a:b").hasColon)
    }

    /// Ids that were not inserted are nearly all answered "certainly not".
    func testOtherIdsAreMostlyRuledOut() {
        let filter = HandledFilter((0..<100).map { "alarm.prayer:a\($0):2026-11-21" }, capacity: 10_000)
        let maybe = (0..<10_000).filter { mayContain(filter, identity("b\($0)", "2026-11-22")) }.count
        XCTAssertLessThan(maybe, 500)
    }
}
