import XCTest
@testable import NudgeCore

final class OffsetTableTests: XCTestCase {
    private func seconds(_ text: String) -> Int {
        Int(Fixtures.instant(text).timeIntervalSince1970)
    }

    /// `steadyOffset` answers only for a stretch without a transition, inside the table's span. Berlin went to
    /// summer time at 2026-03-29T01:00:00Z.
    func testSteadyOffsetIsNilAcrossATransitionAndOutsideTheSpan() throws {
        let table = try XCTUnwrap(OffsetTable(zone: Fixtures.berlin, from: seconds("2026-01-01T00:00:00Z"),
                                              to: seconds("2027-01-01T00:00:00Z")))
        let switchover = seconds("2026-03-29T01:00:00Z")
        XCTAssertEqual(table.steadyOffset(from: switchover - 86_400, through: switchover - 1), 3_600)
        XCTAssertEqual(table.steadyOffset(from: switchover, through: switchover + 86_400), 7_200)
        XCTAssertNil(table.steadyOffset(from: switchover - 1, through: switchover))
        XCTAssertNil(table.steadyOffset(from: switchover - 86_400, through: switchover + 86_400))
        XCTAssertEqual(table.steadyOffset(from: seconds("2026-01-01T00:00:00Z"), through: switchover - 1), 3_600)
        XCTAssertNil(table.steadyOffset(from: seconds("2025-12-31T23:59:59Z"), through: switchover - 1))
        XCTAssertNil(table.steadyOffset(from: seconds("2026-12-31T00:00:00Z"), through: seconds("2027-01-01T00:00:00Z")))
        XCTAssertEqual(table.steadyOffset(from: seconds("2026-12-30T00:00:00Z"),
                                          through: seconds("2026-12-31T23:59:59Z")), 3_600)
        XCTAssertEqual(table.offset(atUTC: switchover), 7_200)
    }
}
