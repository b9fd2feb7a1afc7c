import XCTest
@testable import NudgeCore

final class OutboxRecoveryTests: XCTestCase {
    private func line(_ id: String) -> String {
        #"{"id":"\#(id)","kind":"alarm.prayer","fireAt":"2026-11-21T04:30:00Z","expiresAt":"2026-11-21T05:00:00Z","deliveredAt":"2026-11-21T04:30:00Z","lateSeconds":0}"#
            + "\n"
    }

    func testLinesWrittenByACrashedRunEnterTheLedgerAsDelivered() {
        var state = RunState()
        state.outboxBytes = 100
        let tail = line("a") + line("b")
        let outcome = OutboxRecovery.recover(tail: Data(tail.utf8), into: &state)
        XCTAssertEqual(outcome.recoveredIDs, ["a", "b"])
        XCTAssertEqual(outcome.completeLength, 100 + tail.utf8.count)
        XCTAssertEqual(state.ledger["a"]?.outcome, .delivered)
        XCTAssertEqual(state.ledger["b"]?.fireAt, Fixtures.instant("2026-11-21T04:30:00Z"))
        XCTAssertEqual(state.deliveredTotal, 2)
        XCTAssertEqual(state.outboxBytes, 100 + tail.utf8.count)
    }

    func testTornLastLineIsNotCountedAndMarkedForCutting() {
        var state = RunState()
        let whole = line("a")
        let torn = String(line("b").prefix(30))
        let outcome = OutboxRecovery.recover(tail: Data((whole + torn).utf8), into: &state)
        XCTAssertEqual(outcome.recoveredIDs, ["a"])
        XCTAssertEqual(outcome.completeLength, whole.utf8.count)
        XCTAssertNil(state.ledger["b"])
    }
}
