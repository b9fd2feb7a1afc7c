import XCTest
@testable import NudgeCore

/// The desktop clicks that could not be applied (docs/desktop.md, "A click that cannot be applied at once"): each
/// recorded, and so reported, once; the latest kept for `status`.
final class UnappliedClicksTests: XCTestCase {
    private func click(at time: String, id: String = "laundry.washComplete:snowy:c-5") -> UnappliedClick {
        UnappliedClick(id: id, title: "Wash Complete!", action: "COMPLETE_ACTION", label: "Start Dryer",
                       clickedAt: Fixtures.instant(time), reason: "retried until the notification expired")
    }

    /// A run that died after saving a click leaves the waiter's file to the next run: read again, it is not new.
    func testAClickIsRecordedOnce() {
        var clicks = UnappliedClicks()
        XCTAssertTrue(clicks.record(click(at: "2026-11-21T08:46:00Z"), actions: UserActions()))
        XCTAssertFalse(clicks.record(click(at: "2026-11-21T08:46:00Z"), actions: UserActions()))
        XCTAssertTrue(clicks.record(click(at: "2026-11-21T08:47:00Z"), actions: UserActions()), "a second click")
        XCTAssertEqual(clicks.clicks.map(\.clickedAt),
                       [Fixtures.instant("2026-11-21T08:46:00Z"), Fixtures.instant("2026-11-21T08:47:00Z")])
    }

    /// A waiter killed after it applied its click and before it removed its file: applied, nothing to report.
    func testAClickWhoseActionWasAppliedSinceIsNotRecorded() {
        var actions = UserActions()
        actions.record(.complete, on: "laundry.washComplete:snowy:c-5", now: Fixtures.instant("2026-11-21T08:46:00Z"))
        var clicks = UnappliedClicks()
        XCTAssertFalse(clicks.record(click(at: "2026-11-21T08:46:00Z"), actions: actions))
        XCTAssertTrue(clicks.record(click(at: "2026-11-21T08:47:00Z"), actions: actions),
                      "the action was applied before this click: it was not this click's")
        XCTAssertTrue(clicks.record(click(at: "2026-11-21T08:46:00Z", id: "laundry.washComplete:luna:c-1"),
                                    actions: actions), "another notification's")
    }

    func testTheLatestTwentyAreKept() {
        var clicks = UnappliedClicks()
        for minute in 10..<35 {
            XCTAssertTrue(clicks.record(click(at: "2026-11-21T08:\(minute):00Z"), actions: UserActions()))
        }
        XCTAssertEqual(clicks.clicks.count, UnappliedClicks.recentLimit)
        XCTAssertEqual(clicks.clicks.first?.clickedAt, Fixtures.instant("2026-11-21T08:15:00Z"))
        XCTAssertEqual(clicks.clicks.last?.clickedAt, Fixtures.instant("2026-11-21T08:34:00Z"))
    }

    func testItsJSONRoundTripsThroughTheState() throws {
        var state = RunState()
        _ = state.unappliedClicks.record(click(at: "2026-11-21T08:46:00Z"), actions: UserActions())
        let text = String(decoding: state.fileContent, as: UTF8.self)
        XCTAssertTrue(text.contains("""
              "unappliedClicks": [
                {
                  "id": "laundry.washComplete:snowy:c-5",
                  "title": "Wash Complete!",
                  "action": "COMPLETE_ACTION",
                  "label": "Start Dryer",
                  "clickedAt": "2026-11-21T08:46:00Z",
                  "reason": "retried until the notification expired"
                }
              ],
            """), text)
        XCTAssertEqual(try RunState.decode(state.fileContent).unappliedClicks, state.unappliedClicks)
    }

    /// A state.json written before clicks were recorded has no member: no clicks. One that is not a click is an
    /// error with its place, as everything in state.json.
    func testAnOlderStateHasNoneAndADamagedOneIsAnError() throws {
        XCTAssertEqual(try RunState.decode(Array(#"{ "version": 1 }"#.utf8)).unappliedClicks, UnappliedClicks())
        XCTAssertThrowsError(try RunState.decode(Array(#"{ "version": 1, "unappliedClicks": [ 3 ] }"#.utf8))) {
            XCTAssertTrue("\($0)".contains("unappliedClicks[0]"), "\($0)")
        }
    }
}
