import Foundation
import XCTest

/// A notification server that draws no buttons (SPEC §7.1): the notification is shown without them, counted as
/// delivered once, and `nudge check` says why there are none and what to use instead.
final class ButtonlessServerTests: DesktopServerTestCase {
    private var server: ButtonlessNotificationServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try ButtonlessNotificationServer()
        try use(server.desktop)
    }

    func testAnAlarmIsShownOnceWithoutButtonsAndNothingWaits() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try cron("run", at: "2026-11-21T04:00:00Z")
        let run = try cron("run", at: "2026-11-21T04:30:00Z")
        XCTAssertEqual(run.status, 0, run.summary)
        XCTAssertEqual(run.stderr, "", "shown: not a failure")
        try server.waitUntil("the Notify call") { self.server.calls("Notify").count == 1 }
        let call = try XCTUnwrap(server.calls("Notify").first)
        XCTAssertEqual(call["summary"] as? String, "Morning Prayer Time")
        XCTAssertEqual(call["actions"] as? [String], [], "no buttons, not even the body's default")
        XCTAssertEqual(call["urgency"] as? Int, 2)
        try server.waitUntil("the waiter to end") { DesktopSession.waiters(for: self.dir.path).isEmpty }
        XCTAssertEqual((try dir.json("state.json")["commandQueue"] as? [Any])?.count, 0, "nothing to retry")

        let next = try cron("run", at: "2026-11-21T04:31:00Z")
        XCTAssertEqual(next.stderr, "", next.summary)
        XCTAssertEqual(server.calls("Notify").count, 1, "one Notify: shown is delivered, never retried")
        XCTAssertEqual(server.calls("CloseNotification").count, 0)
        let snooze = try cron("act", at: "2026-11-21T04:32:00Z", "alarm.prayer:fajr:2026-11-21", "SNOOZE")
        XCTAssertEqual(snooze.status, 0, "the terminal is the way to act: \(snooze.summary)")
    }

    func testABodyWithMarkupCharactersIsSentPlainToAServerWithoutMarkup() throws {
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T08:00:00Z", cycleID: "c-5"))
        try dir.write("laundry.json", try dir.text("laundry.json").replacingOccurrences(of: "\"Snowy\"",
                                                                                       with: "\"Tom & Jerry\""))
        try cron("run", at: "2026-11-21T08:30:00Z")
        try cron("run", at: "2026-11-21T08:45:00Z")
        try server.waitUntil("the Notify call") { self.server.calls("Notify").count == 1 }
        XCTAssertEqual(server.calls("Notify").first?["body"] as? String, "Tom & Jerry is ready for the dryer!")
    }

    func testCheckSaysTheServerOffersNoButtonsAndPointsToAct() throws {
        let check = try NudgeProcess.run(["check", "--data", dir.path], exactEnvironment: server.cronEnvironment())
        XCTAssertEqual(check.status, 0, check.summary)
        XCTAssertTrue(check.stderr.contains("nudge: warning: the desktop's notification server (plain-notifier 1.0) "
            + "offers no buttons: notifications are shown without them; use `nudge act ID ACTION` instead"),
                      check.summary)
    }
}
