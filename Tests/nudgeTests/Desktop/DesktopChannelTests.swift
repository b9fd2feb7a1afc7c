import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The desktop channel against a real notification server (docs/desktop.md): dunst on a private session bus,
/// nudge started the way cron starts it (no DBUS_SESSION_BUS_ADDRESS), and clicks made through dunst.
final class DesktopChannelTests: DesktopServerTestCase {
    private var session: DesktopSession!

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = try DesktopSession()
        try use(session.desktop)
    }

    // MARK: - What the server receives

    func testCriticalAlarmFromCronArrivesCriticalWithSoundCategoryIconAndButtons() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try cron("run", at: "2026-11-21T04:00:00Z")
        let run = try cron("run", at: "2026-11-21T04:30:00Z")
        XCTAssertEqual(run.status, 0, run.summary)
        XCTAssertEqual(run.stderr, "", "no failure: the bus was found without DBUS_SESSION_BUS_ADDRESS")

        let call = try XCTUnwrap(session.waitForNotifyCalls(1).first)
        XCTAssertEqual(call.appName, "nudge")
        XCTAssertEqual(call.summary, "Morning Prayer Time")
        XCTAssertEqual(call.body, "Take 15 minutes to pray")
        XCTAssertEqual(call.hints["urgency"], "byte 2", "critical")
        XCTAssertEqual(call.expireTimeout, 0, "a critical alarm stays until dismissed")
        XCTAssertEqual(call.hints["category"], "string \"x-nudge.alarm\"")
        XCTAssertEqual(call.hints["sound-name"], "string \"alarm-clock-elapsed\"")
        XCTAssertEqual(call.icon, "appointment-soon")
        XCTAssertEqual(call.actions, ["default", "Dismiss", "START_TIMER", "Start Timer", "SNOOZE", "Snooze"],
                       "the buttons, and the body's own click that applies nothing")
        XCTAssertEqual(DesktopSession.waiters(for: dir.path).count, 1, "one waiter for the notification's buttons")
        XCTAssertEqual((try state()["commandQueue"] as? [Any])?.count, 0, "shown: nothing left to retry")
    }

    func testLowNotificationWithSoundOffIsLowSilentAndHasNoButtonsNorWaiter() throws {
        let run = try deliverLowAchievementWithSoundOff()
        XCTAssertEqual(run.status, 0, run.summary)
        let call = try XCTUnwrap(session.waitForNotifyCalls(1).first)
        XCTAssertEqual(call.summary, "Achievement unlocked: Centurion")
        XCTAssertEqual(call.body, "100 days & counting",
                       "plain: dunst configured without `markup` offers no body-markup, and reads no entities")
        XCTAssertEqual(call.hints["urgency"], "byte 0", "low")
        XCTAssertEqual(call.expireTimeout, -1, "the server's own timeout")
        XCTAssertEqual(call.hints["suppress-sound"], "boolean true")
        XCTAssertNil(call.hints["sound-name"])
        XCTAssertEqual(call.hints["category"], "string \"x-nudge.streak\"")
        XCTAssertEqual(call.actions, [], "VIEW_ACHIEVEMENT opens nothing on this machine: no button")
        XCTAssertEqual(DesktopSession.waiters(for: dir.path), [])
    }

    // MARK: - Clicks

    func testStartTimerClickPlansTheTimerOnceAndTheWaiterEnds() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try cron("run", at: "2026-11-21T04:00:00Z")
        try cron("run", at: "2026-11-21T04:30:00Z")
        _ = try session.waitForNotifyCalls(1)
        try session.click("START_TIMER")
        try session.waitUntil("the timer in the plan") { ((try? self.dir.plannedIDs()) ?? []).contains("alarm.timerDone:fajr:2026-11-21") }
        // Read once the click has come through the menu: dunst runs the menu program after dunstctl returns.
        XCTAssertEqual(session.lastMenu().count, 3, "dunst offered both buttons and Dismiss: \(session.lastMenu())")
        try waitForNoWaiter()
        let timers = try XCTUnwrap(try state()["timers"] as? [[String: Any]])
        XCTAssertEqual(timers.map { $0["id"] as? String }, ["alarm.timerDone:fajr:2026-11-21"])
        XCTAssertEqual(timers.first?["title"] as? String, "Morning Prayer complete")
        XCTAssertEqual(timers.first?["body"] as? String, "Your 15 minutes are up.")

        let again = try cron("act", at: "2026-11-21T04:31:00Z", "alarm.prayer:fajr:2026-11-21", "START_TIMER")
        XCTAssertEqual(again.status, 0, again.summary)
        XCTAssertTrue(again.stdout.hasPrefix("Nothing to do"), again.summary)
        XCTAssertEqual((try state()["timers"] as? [Any])?.count, 1, "one timer per alarm occurrence")

        // The timer rings as a critical notification of its own, with no buttons.
        let done = try cron("run", at: "2026-11-21T04:46:00Z")
        XCTAssertEqual(done.status, 0, done.summary)
        let calls = try session.waitForNotifyCalls(2)
        XCTAssertEqual(calls[1].summary, "Morning Prayer complete")
        XCTAssertEqual(calls[1].hints["urgency"], "byte 2")
        XCTAssertEqual(calls[1].actions, [])
    }

    func testMarkFoldedClickFoldsTheCycleAndASecondClickChangesNothing() throws {
        try dir.write("laundry.json", #"""
            { "pets": [ { "id": "snowy", "name": "Snowy", "dryMinutes": 60,
                          "cycle": { "id": "c-9", "stage": "dry", "startedAt": "2026-11-21T08:00:00Z" } } ] }
            """#)
        try cron("run", at: "2026-11-21T08:30:00Z")
        try cron("run", at: "2026-11-21T09:00:00Z")
        let call = try XCTUnwrap(session.waitForNotifyCalls(1).first)
        XCTAssertEqual(call.summary, "Dry Complete!")
        XCTAssertEqual(call.buttons, ["COMPLETE_ACTION", "Mark Folded", "SNOOZE_ACTION", "Remind in 10 min"])
        try session.click("COMPLETE_ACTION")
        try session.waitUntil("the fold in laundry.json") { ((try? self.dir.text("laundry.json")) ?? "").contains("lastCompletedAt") }
        let pet = try XCTUnwrap((try dir.json("laundry.json")["pets"] as? [[String: Any]])?.first)
        XCTAssertNil(pet["cycle"], "folded: no cycle under way")
        try waitForNoWaiter()
        XCTAssertFalse(try dir.plannedIDs().contains("laundry.foldReminder:snowy:c-9"), "re-planned at once")

        let before = try dir.text("laundry.json")
        let again = try cron("act", at: "2026-11-21T09:02:00Z", "laundry.dryComplete:snowy:c-9", "COMPLETE_ACTION")
        XCTAssertEqual(again.status, 0, again.summary)
        XCTAssertTrue(again.stdout.hasPrefix("Nothing to do"), again.summary)
        XCTAssertEqual(try dir.text("laundry.json"), before)
    }

    func testStartDryerAndSnoozeClicksOnAFinishedWash() throws {
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T08:00:00Z", cycleID: "c-5"))
        try cron("run", at: "2026-11-21T08:30:00Z")
        try cron("run", at: "2026-11-21T08:45:00Z")
        let call = try XCTUnwrap(session.waitForNotifyCalls(1).first)
        XCTAssertEqual(call.buttons, ["COMPLETE_ACTION", "Start Dryer", "SNOOZE_ACTION", "Remind in 10 min"])
        try session.click("SNOOZE_ACTION")
        try session.waitUntil("the snooze in the plan") {
            ((try? self.dir.plannedIDs()) ?? []).contains("laundry.washComplete:snowy:c-5:snooze-1")
        }
        try waitForNoWaiter()
        // The snooze comes back as a notification with the same buttons; this time the dryer is started.
        try cron("run", at: "2026-11-21T08:55:00Z")
        let calls = try session.waitForNotifyCalls(2)
        XCTAssertEqual(calls[1].summary, "Wash Complete!")
        try session.click("COMPLETE_ACTION")
        try session.waitUntil("the dry stage in laundry.json") { ((try? self.dir.text("laundry.json")) ?? "").contains("\"dry\"") }
        let cycle = try XCTUnwrap(((try dir.json("laundry.json")["pets"] as? [[String: Any]])?.first)?["cycle"] as? [String: Any])
        XCTAssertEqual(cycle["id"] as? String, "c-5", "the dry stage keeps the cycle id")
        XCTAssertEqual(cycle["stage"] as? String, "dry")
    }

    func testMarkAsPlayedClickRecordsAPlayForEveryGameAtRiskAndKeepsTheFilesLayout() throws {
        let handWritten = #"""
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12, "url": "https://www.nytimes.com/games/wordle" },
                         { "id": "mini", "name": "Mini", "streak": 4 } ],
              "plays": [ { "game": "wordle", "at": "2026-11-20T19:42:11Z" },
                         { "game": "mini", "at": "2026-11-20T20:05:00Z" } ] }

            """#
        try dir.write("streaks.json", handWritten)
        try cron("run", at: "2026-11-21T17:00:00Z")
        try cron("run", at: "2026-11-21T18:00:00Z")
        let call = try XCTUnwrap(session.waitForNotifyCalls(1).first)
        XCTAssertEqual(call.summary, "Streaks at risk")
        XCTAssertEqual(call.buttons, ["PLAY_NOW", "Play Now", "REMIND_TOMORROW", "Remind Tomorrow",
                                      "MARK_PLAYED", "Mark as Played"])
        try session.click("MARK_PLAYED")
        try session.waitUntil("the plays in streaks.json") {
            ((try? self.dir.json("streaks.json")["plays"] as? [Any]) ?? []).count == 4
        }
        let plays = try XCTUnwrap(try dir.json("streaks.json")["plays"] as? [[String: Any]])
        XCTAssertEqual(plays.compactMap { $0["game"] as? String }, ["wordle", "mini", "wordle", "mini"])
        // The click added two plays, each on a line like the one before it; every other byte is the person's.
        let at = plays.compactMap { $0["at"] as? String }
        guard at.count == 4 else { return XCTFail("plays without an instant: \(plays)") }
        XCTAssertEqual(try dir.text("streaks.json"), handWritten.replacingOccurrences(
            of: #"{ "game": "mini", "at": "2026-11-20T20:05:00Z" }"#,
            with: #"{ "game": "mini", "at": "2026-11-20T20:05:00Z" },"# + "\n             "
                + #"{ "game": "wordle", "at": "\#(at[2])" },"# + "\n             " + #"{ "game": "mini", "at": "\#(at[3])" }"#))
        try waitForNoWaiter()
        let again = try cron("act", at: "2026-11-21T18:05:00Z", "streak.reminder:streaks:2026-11-21", "MARK_PLAYED")
        XCTAssertTrue(again.stdout.hasPrefix("Nothing to do"), again.summary)
    }

    // MARK: - Lifetime and failures

    func testWaiterClosesTheNotificationAtItsExpiry() throws {
        try dir.write("trips.json", #"""
            { "trips": [ { "id": "dentist", "destination": "Dentist", "arriveAt": "2026-11-24T13:30:00Z",
                           "travelMinutes": 20, "bufferMinutes": 10 } ] }
            """#)
        try cron("run", at: "2026-11-24T12:00:00Z")
        // Three seconds before the arrival the leave reminder is late but still worth showing, until arrival.
        try cron("run", at: "2026-11-24T13:29:57Z")
        let call = try XCTUnwrap(session.waitForNotifyCalls(1).first)
        XCTAssertEqual(call.summary, "Time to Leave")
        XCTAssertEqual(call.buttons, ["LEAVING_NOW", "Leaving now", "SNOOZE", "Snooze"])
        XCTAssertEqual(DesktopSession.waiters(for: dir.path).count, 1)
        try waitForNoWaiter()
        try session.waitUntil("the server to close it") { self.session.closedSignals() >= 1 }
        // Closed by the connection that created it (the only one GNOME Shell accepts), at the server that
        // showed it, and the server said so to that same connection.
        let notify = try XCTUnwrap(session.monitorRecords("Notify").first)
        let closes = session.monitorRecords("CloseNotification")
        let closed = try XCTUnwrap(session.monitorRecords("NotificationClosed").first)
        XCTAssertEqual(closes.count, 1, closes.description)
        XCTAssertEqual(closes.first?.sender, notify.sender, closes.description)
        XCTAssertEqual(closes.first?.destination, closed.sender, "sent to the server's own name")
        XCTAssertEqual(closed.destination, notify.sender)
        XCTAssertEqual(closed.arguments, [closes.first?.arguments.first ?? "", "uint32 3"], "closed by the call")
    }

    func testAWaiterStoppedByASignalClosesItsNotificationFirst() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try cron("run", at: "2026-11-21T04:00:00Z")
        try cron("run", at: "2026-11-21T04:30:00Z")
        _ = try session.waitForNotifyCalls(1)
        let notify = try XCTUnwrap(session.monitorRecords("Notify").first)
        let waiter = try XCTUnwrap(DesktopSession.waiters(for: dir.path).first)
        kill(waiter, SIGTERM)   // as systemd stops a unit at logout
        try waitForNoWaiter()
        try session.waitUntil("the notification to close") { self.session.closedSignals() >= 1 }
        let closes = session.monitorRecords("CloseNotification")
        XCTAssertEqual(closes.map(\.sender), [notify.sender], "closed once, by the connection that created it")
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 0, "nothing applied")
    }

    func testARestartedServerEndsTheWaiterAtOnceAndItClosesNothingOfAnotherApplication() throws {
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T08:00:00Z", cycleID: "c-5"))
        try cron("run", at: "2026-11-21T08:30:00Z")
        try cron("run", at: "2026-11-21T08:45:00Z")
        XCTAssertEqual(try session.waitForNotifyCalls(1).first?.summary, "Wash Complete!")
        XCTAssertEqual(DesktopSession.waiters(for: dir.path).count, 1, "holding it for 6 hours")

        try session.restartServer()
        try waitForNoWaiter()
        let closedBefore = session.closedSignals()
        for number in 1...7 { try session.notifyFromAnotherApplication("Other app message \(number)") }
        _ = try session.waitForNotifyCalls(8)
        XCTAssertEqual(session.monitorRecords("CloseNotification").map(\.description), [],
                       "nothing closed: the numbers belong to the other application now")
        XCTAssertEqual(session.closedSignals(), closedBefore)

        let later = try cron("run", at: "2026-11-21T08:46:00Z")
        XCTAssertEqual(later.stderr, "", later.summary)
        XCTAssertEqual(session.notifyCalls().count, 8, "delivered once: not shown again on the new server")
        let snoozed = try cron("act", at: "2026-11-21T08:47:00Z", "laundry.washComplete:snowy:c-5", "SNOOZE_ACTION")
        XCTAssertEqual(snoozed.status, 0, "`nudge act` still reaches it: \(snoozed.summary)")
    }

    func testABodyClickAppliesNothingClosesTheNotificationAndEndsTheWaiter() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try cron("run", at: "2026-11-21T04:00:00Z")
        try cron("run", at: "2026-11-21T04:30:00Z")
        let notify = try XCTUnwrap(session.waitForNotifyCalls(1).first)
        XCTAssertEqual(Array(notify.actions.prefix(2)), ["default", "Dismiss"])
        try session.clickBody()
        try waitForNoWaiter()
        let invoked = session.monitorRecords("ActionInvoked")
        XCTAssertEqual(invoked.first?.arguments.last, "string \"default\"", invoked.description)
        try session.waitUntil("the notification to close") { self.session.closedSignals() >= 1 }
        XCTAssertEqual(session.monitorRecords("CloseNotification").count, 1, "dunst keeps it open: nudge closes it")
        XCTAssertEqual((try state()["timers"] as? [Any])?.count, 0, "no timer started")
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 0, "no snooze")
        let snooze = try cron("act", at: "2026-11-21T04:31:00Z", "alarm.prayer:fajr:2026-11-21", "SNOOZE")
        XCTAssertEqual(snooze.status, 0, snooze.summary)
        XCTAssertFalse(snooze.stdout.hasPrefix("Nothing to do"), "the body click was not an action: \(snooze.summary)")
    }

    func testNoSessionBusIsSaidInWordsAndTheDeliveryGetsThroughOnceTheBusIsThere() throws {
        let uid = getuid()
        if FileManager.default.fileExists(atPath: "/run/user/\(uid)/bus") {
            throw XCTSkip("this machine has a session bus at /run/user/\(uid)/bus, so a missing bus cannot be staged")
        }
        let empty = try makeDirectory()
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try cron("run", at: "2026-11-21T04:00:00Z", runtimeDirectory: empty.path)
        let failed = try cron("run", at: "2026-11-21T04:30:00Z", runtimeDirectory: empty.path)
        XCTAssertEqual(failed.status, 0, "a failed channel does not change run's exit code: \(failed.summary)")
        XCTAssertTrue(failed.stderr.contains("no desktop session bus: not logged in to a desktop?"), failed.summary)
        XCTAssertEqual(session.notifyCalls().count, 0)
        let status = try NudgeProcess.run(["status", "--data", dir.path])
        XCTAssertTrue(status.stdout.contains("2026-11-21T04:30:00Z alarm.prayer:fajr:2026-11-21: desktop notification "
            + "failed: no desktop session bus"), status.summary)

        let retried = try cron("run", at: "2026-11-21T04:31:00Z")
        XCTAssertEqual(retried.stderrLines,
                       ["nudge: desktop notification got through for alarm.prayer:fajr:2026-11-21 after 1 failed attempt"],
                       retried.summary)
        XCTAssertEqual(try session.waitForNotifyCalls(1).first?.summary, "Morning Prayer Time")
        let later = try NudgeProcess.run(["status", "--data", dir.path])
        XCTAssertTrue(later.stdout.contains("desktop notification got through after 1 failed attempt(s)"), later.summary)
    }

    func testCheckSaysNothingOfButtonsOnAServerThatDrawsThem() throws {
        let check = try NudgeProcess.run(["check", "--data", dir.path], exactEnvironment: session.cronEnvironment())
        XCTAssertEqual(check.status, 0, check.summary)
        XCTAssertEqual(check.stderr, "", check.summary)
    }

    func testNudgeTestTellsTheTruth() throws {
        let empty = try makeDirectory()
        if !FileManager.default.fileExists(atPath: "/run/user/\(getuid())/bus") {
            let failed = try cron("test", at: "2026-11-21T10:00:00Z", runtimeDirectory: empty.path)
            XCTAssertEqual(failed.status, 69, failed.summary)
            XCTAssertFalse((failed.stdout + failed.stderr).contains("working perfectly"), failed.summary)
            XCTAssertTrue(failed.stderr.contains("did NOT reach the desktop notification: no desktop session bus"),
                          failed.summary)
        }
        let worked = try cron("test", at: "2026-11-21T10:00:00Z")
        XCTAssertEqual(worked.status, 0, worked.summary)
        XCTAssertTrue(worked.stdout.contains("Your notifications are working perfectly!"), worked.summary)
        XCTAssertEqual(try session.waitForNotifyCalls(1).last?.hints["category"], "string \"x-nudge.test\"")
        let ids = try dir.outboxIDs()
        XCTAssertEqual(Set(ids).count, ids.count, "two tests in one second are two occurrences: \(ids)")
    }
}
