import Foundation
import XCTest

/// "Leaving now" and "I'm here" clicked on the real notification server (docs/files.md, "trips.json"): dunst on a
/// private bus, nudge started as cron starts it; the journey lands in trips.json once, however often it is
/// clicked.
final class DesktopTripClickTests: DesktopServerTestCase {
    private var session: DesktopSession!

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = try DesktopSession()
        try use(session.desktop)
        try dir.write("trips.json", TripCommandTests.trips)
    }

    private func observations() throws -> [[String: Any]] {
        let trips = try XCTUnwrap(try dir.json("trips.json")["trips"] as? [[String: Any]])
        return trips[0]["observations"] as? [[String: Any]] ?? []
    }

    private func departures() -> [[String: Any]] {
        ((try? dir.json("state.json"))?["departures"] as? [[String: Any]]) ?? []
    }

    func testLeavingNowThenImHereRecordTheJourneyOnceEvenClickedTwice() throws {
        try cron("run", at: "2026-11-23T06:00:00Z")
        let leave = try cron("run", at: "2026-11-23T07:10:00Z")
        XCTAssertEqual(leave.status, 0, leave.summary)
        let reminder = try XCTUnwrap(session.waitForNotifyCalls(1).first)
        XCTAssertEqual(reminder.summary, "Time to Leave")
        XCTAssertEqual(reminder.buttons, ["LEAVING_NOW", "Leaving now", "SNOOZE", "Snooze"])

        try session.click("LEAVING_NOW")
        try session.waitUntil("the departure in state.json") { !self.departures().isEmpty }
        try session.waitUntil("the waiter of the reminder to end") { DesktopSession.waiters(for: self.dir.path).isEmpty }
        let departedAt = try XCTUnwrap(departures().first?["at"] as? String)
        XCTAssertTrue(departedAt.hasPrefix("2026-11-23T07:10:"), "the click's time: \(departedAt)")
        let again = try cron("act", at: "2026-11-23T07:11:00Z", "commute.leave:office:2026-11-23", "LEAVING_NOW")
        XCTAssertTrue(again.stdout.hasPrefix("Nothing to do"), again.summary)
        XCTAssertEqual(departures().first?["at"] as? String, departedAt, "the second click changes nothing")

        let check = try cron("run", at: "2026-11-23T07:40:00Z")
        XCTAssertEqual(check.status, 0, check.summary)
        let calls = try session.waitForNotifyCalls(2)
        XCTAssertEqual(calls[1].summary, "Arrived at Office?")
        // Due at 07:35 (the click plus 25 min), shown by the 07:40 run: the desktop says how late (docs/promises.md).
        XCTAssertEqual(calls[1].body, "Tap when you get there: it teaches nudge your travel time. (5 min late)")
        XCTAssertEqual(calls[1].buttons, ["ARRIVED", "I'm here"])
        XCTAssertEqual(calls[1].hints["category"], "string \"x-nudge.commute\"")

        try session.click("ARRIVED")
        try session.waitUntil("the observation in trips.json") { ((try? self.observations()) ?? []).count == 1 }
        try session.waitUntil("the waiter of the check-in to end") { DesktopSession.waiters(for: self.dir.path).isEmpty }
        let arrived = try cron("act", at: "2026-11-23T07:41:00Z", "last", "ARRIVED")
        XCTAssertTrue(arrived.stdout.hasPrefix("Nothing to do"), arrived.summary)
        let recorded = try observations()
        XCTAssertEqual(recorded.count, 1, "once, clicked twice")
        XCTAssertEqual(recorded.first?["departedAt"] as? String, departedAt)
        XCTAssertEqual(recorded.first?["minutes"] as? Int, 30)
        XCTAssertEqual(departures().count, 0)
        XCTAssertTrue(session.monitorRecord().contains("member=ActionInvoked"), "the clicks went over the bus")
    }

    /// Handled notifications close (docs/desktop.md): a typed `trip depart` closes "Time to Leave" and a snooze
    /// of it then changes nothing; a typed `trip arrive` closes "Arrived at Office?".
    func testTypedDepartAndArriveCloseWhatTheySettle() throws {
        try cron("run", at: "2026-11-23T06:00:00Z")
        try cron("run", at: "2026-11-23T07:10:00Z")
        let leave = try XCTUnwrap(waitForNotify().first)
        let depart = try cron("trip", at: "2026-11-23T07:11:00Z", "depart", "office")
        XCTAssertEqual(depart.status, 0, depart.summary)
        try assertClosedByItsWaiter(leave)
        let snooze = try cron("snooze", at: "2026-11-23T07:12:00Z", "commute.leave:office:2026-11-23")
        XCTAssertEqual(snooze.stdout, "Nothing to do: \"Time to Leave\" is settled (you left for Office at "
            + "2026-11-23 08:11 already): it is not snoozed.\n", snooze.summary)

        try cron("run", at: "2026-11-23T07:36:00Z")
        let check = try XCTUnwrap(waitForNotify(2).last)
        XCTAssertTrue(check.hasString("Arrived at Office?"), check.description)
        let arrive = try cron("trip", at: "2026-11-23T07:40:00Z", "arrive", "office")
        XCTAssertEqual(arrive.status, 0, arrive.summary)
        try assertClosedByItsWaiter(check)
        XCTAssertEqual(try observations().count, 1)
    }
}
