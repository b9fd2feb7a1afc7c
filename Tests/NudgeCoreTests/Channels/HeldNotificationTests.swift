import XCTest
@testable import NudgeCore

/// What a click waiter keeps in its locked file (docs/desktop.md, "A waiter that is gone"), and the click a run
/// reads from the file of a waiter that is gone.
final class HeldNotificationTests: XCTestCase {
    private func held(click error: String? = nil) -> HeldNotification {
        var held = HeldNotification(id: "laundry.washComplete:snowy:c-5", title: "Wash Complete!",
                                    busID: "6fd3fd939095ff37f5751b8a6b14f515", server: ":1.11", number: 9,
                                    expiresAt: Fixtures.instant("2026-11-21T14:45:00Z"))
        held.click = error.map {
            HeldNotification.PendingClick(action: "COMPLETE_ACTION", label: "Start Dryer",
                                          clickedAt: Fixtures.instant("2026-11-21T08:46:00Z"), error: $0)
        }
        return held
    }

    func testItsFileRoundTripsWithAndWithoutAClick() throws {
        for original in [held(), held(click: ""), held(click: "laundry.json:1:68: error: \"trailing\" comma")] {
            var closed = original
            closed.closed = true
            for value in [original, closed] {
                XCTAssertEqual(HeldNotification(fileContent: value.fileContent), value)
            }
        }
        XCTAssertEqual(String(decoding: held().fileContent, as: UTF8.self), """
            {"id":"laundry.washComplete:snowy:c-5","title":"Wash Complete!",\
            "busID":"6fd3fd939095ff37f5751b8a6b14f515","server":":1.11","number":9,\
            "expiresAt":"2026-11-21T14:45:00Z","closed":false}

            """)
    }

    /// A waiter killed while it wrote its file leaves a partial one, which holds nothing to close.
    func testAPartialFileReadsAsNothing() {
        let content = held().fileContent
        XCTAssertNil(HeldNotification(fileContent: Array(content.prefix(content.count / 2))))
        XCTAssertNil(HeldNotification(fileContent: []))
    }

    func testNoClickIsNothingToReport() {
        XCTAssertNil(held().unappliedClick)
        var closed = held()
        closed.giveUpClick(stopped: false)
        XCTAssertTrue(closed.closed)
        XCTAssertNil(closed.unappliedClick)
    }

    /// Given up at the expiry, stopped, or killed while it waited: the reason says which, and the last error.
    func testTheReasonSaysHowTheWaiterEndedAndTheLastError() throws {
        var expired = held(click: "laundry.json:1:68: error: trailing comma")
        expired.giveUpClick(stopped: false)
        let click = try XCTUnwrap(expired.unappliedClick)
        XCTAssertEqual(click, UnappliedClick(
            id: "laundry.washComplete:snowy:c-5", title: "Wash Complete!", action: "COMPLETE_ACTION",
            label: "Start Dryer", clickedAt: Fixtures.instant("2026-11-21T08:46:00Z"),
            reason: "retried until the notification expired at 2026-11-21T14:45:00Z: laundry.json:1:68: error: "
                + "trailing comma"))

        var stopped = held(click: "laundry.json:1:68: error: trailing comma")
        stopped.giveUpClick(stopped: true)
        XCTAssertEqual(stopped.unappliedClick?.reason,
                       "its waiter was stopped before it could apply it: laundry.json:1:68: error: trailing comma")

        XCTAssertEqual(held(click: "").unappliedClick?.reason, "its waiter was killed before it could apply it",
                       "killed before its first attempt ended")
        XCTAssertEqual(held(click: "locked").unappliedClick?.reason,
                       "its waiter was killed before it could apply it: locked")
    }

    func testTheRunsLineNamesTheClickAndHowToApplyItNow() throws {
        var expired = held(click: "laundry.json:1:68: error: trailing comma")
        expired.giveUpClick(stopped: false)
        XCTAssertEqual(try XCTUnwrap(expired.unappliedClick).reportLine,
                       "desktop click not applied: \"Start Dryer\" on \"Wash Complete!\" "
                        + "(laundry.washComplete:snowy:c-5) at 2026-11-21T08:46:00Z, retried until the notification "
                        + "expired at 2026-11-21T14:45:00Z: laundry.json:1:68: error: trailing comma; "
                        + "`nudge act laundry.washComplete:snowy:c-5 COMPLETE_ACTION` applies it now")
    }
}
