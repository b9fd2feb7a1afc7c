import XCTest
@testable import NudgeCore

final class BudgetStatusTests: XCTestCase {
    func testThresholdsForTheDefaultLimit() {
        XCTAssertEqual(BudgetStatus(pending: 49, limit: 64).level, .healthy)
        XCTAssertEqual(BudgetStatus(pending: 50, limit: 64).level, .warning)
        XCTAssertEqual(BudgetStatus(pending: 59, limit: 64).level, .warning)
        XCTAssertEqual(BudgetStatus(pending: 60, limit: 64).level, .critical)
        XCTAssertEqual(BudgetStatus(pending: 63, limit: 64).level, .critical)
        XCTAssertEqual(BudgetStatus(pending: 64, limit: 64).level, .atLimit)
    }

    func testThresholdsScaleWithTheLimit() {
        // L = 10: warning from ⌈7.8125⌉ = 8, critical from ⌈9.375⌉ = 10, which is also the limit.
        XCTAssertEqual(BudgetStatus(pending: 7, limit: 10).level, .healthy)
        XCTAssertEqual(BudgetStatus(pending: 8, limit: 10).level, .warning)
        XCTAssertEqual(BudgetStatus(pending: 9, limit: 10).level, .warning)
        XCTAssertEqual(BudgetStatus(pending: 10, limit: 10).level, .atLimit)
        // L = 100: warning from 79, critical from 94.
        XCTAssertEqual(BudgetStatus(pending: 78, limit: 100).level, .healthy)
        XCTAssertEqual(BudgetStatus(pending: 79, limit: 100).level, .warning)
        XCTAssertEqual(BudgetStatus(pending: 93, limit: 100).level, .warning)
        XCTAssertEqual(BudgetStatus(pending: 94, limit: 100).level, .critical)
        XCTAssertEqual(BudgetStatus(pending: 100, limit: 100).level, .atLimit)
    }

    func testMessages() {
        XCTAssertEqual(BudgetStatus(pending: 0, limit: 64).message, "Notification system healthy")
        XCTAssertEqual(BudgetStatus(pending: 50, limit: 64).message,
                       "Approaching notification limit. Consider completing some cycles.")
        XCTAssertEqual(BudgetStatus(pending: 60, limit: 64).message,
                       "Very close to notification limit. Some notifications may not be scheduled.")
        XCTAssertEqual(BudgetStatus(pending: 64, limit: 64).message,
                       "Notification limit reached. Complete cycles to free up space.")
    }
}
