import Foundation
import XCTest

/// A notification server that draws no buttons (docs/desktop.md): the notification is shown without them, counted as
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

    func testALowNoteWithoutButtonsArrivesWithEveryFieldOverAShortConnection() throws {
        let run = try deliverLowAchievementWithSoundOff()
        XCTAssertEqual(run.status, 0, run.summary)
        XCTAssertEqual(run.stderr, "", run.summary)
        XCTAssertEqual(DesktopSession.waiters(for: dir.path), [], "nothing of the short connection is left")
        let call = try XCTUnwrap(server.calls("Notify").first, "the run ended once the server had answered")
        XCTAssertEqual(call["app"] as? String, "nudge")
        XCTAssertEqual(call["icon"] as? String, "emblem-favorite")
        XCTAssertEqual(call["summary"] as? String, "Achievement unlocked: Centurion")
        XCTAssertEqual(call["body"] as? String, "100 days & counting", "plain: this server reads no markup")
        XCTAssertEqual(call["actions"] as? [String], [])
        XCTAssertEqual(call["urgency"] as? Int, 0, "low")
        XCTAssertEqual(call["category"] as? String, "x-nudge.streak")
        XCTAssertEqual(call["suppress-sound"] as? Bool, true)
        XCTAssertTrue(call["sound-name"] is NSNull, "no sound named: \(call)")
        XCTAssertEqual(call["timeout"] as? Int, -1, "the server's own timeout")
        XCTAssertEqual((try dir.json("state.json")["commandQueue"] as? [Any])?.count, 0, "delivered")
        let next = try cron("run", at: "2026-11-21T09:01:00Z")
        XCTAssertEqual(next.stderr, "", next.summary)
        XCTAssertEqual(server.calls("Notify").count, 1, "shown once")
        XCTAssertEqual(server.calls("CloseNotification").count, 0, "nothing to close")
    }

    func testTheTestNotificationRingsAndALateNoteSaysSo() throws {
        let test = try cron("test", at: "2026-11-21T10:00:00Z")
        XCTAssertEqual(test.status, 0, test.summary)
        let call = try XCTUnwrap(server.calls("Notify").first)
        XCTAssertEqual(call["summary"] as? String, "Test Notification")
        XCTAssertEqual(call["urgency"] as? Int, 1, "high is normal")
        XCTAssertEqual(call["category"] as? String, "x-nudge.test")
        XCTAssertEqual(call["icon"] as? String, "dialog-information")
        XCTAssertEqual(call["sound-name"] as? String, "message-new-instant")
        XCTAssertTrue(call["suppress-sound"] is NSNull, "\(call)")

        try dir.write("streaks.json", #"""
            { "games": [], "achievements": [ { "id": "a-1", "title": "Centurion", "description": "100 days",
                                               "unlockedAt": "2026-11-21T09:00:00Z" } ] }
            """#)
        try cron("run", at: "2026-11-21T08:00:00Z")
        let late = try cron("run", at: "2026-11-21T09:25:00Z")
        XCTAssertEqual(late.stderr, "", late.summary)
        XCTAssertEqual(server.calls("Notify").last?["body"] as? String, "100 days (25 min late)")
    }

    func testAnErrorReplyIsAFailureSaidOnceAndRetriedUntilTheServerShowsIt() throws {
        server.refuse(true)
        let failed = try deliverLowAchievementWithSoundOff()
        XCTAssertEqual(failed.status, 0, "a failed channel does not change run's exit code: \(failed.summary)")
        XCTAssertEqual(failed.stderrLines.count, 1, failed.summary)
        XCTAssertTrue(failed.stderr.contains("org.freedesktop.Notifications.Error.Test: the test server refuses"),
                      failed.summary)
        XCTAssertEqual(DesktopSession.waiters(for: dir.path), [])
        let again = try cron("run", at: "2026-11-21T09:01:00Z")
        XCTAssertEqual(again.stderr, "", "said once, not on every retry: \(again.summary)")
        XCTAssertEqual(server.calls("Refused").count, 2, "retried")

        server.refuse(false)
        let through = try cron("run", at: "2026-11-21T09:02:00Z")
        XCTAssertEqual(through.stderrLines, ["nudge: desktop notification got through for streak.achievement:a-1:unlocked "
            + "after 2 failed attempts"], through.summary)
        XCTAssertEqual(server.calls("Notify").map { $0["summary"] as? String }, ["Achievement unlocked: Centurion"])
        XCTAssertEqual((try dir.json("state.json")["commandQueue"] as? [Any])?.count, 0)
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
