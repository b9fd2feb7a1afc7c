import Foundation
import XCTest

/// Handled notifications close (docs/desktop.md): whatever route settles a notification on screen — a command in
/// a terminal, another notification's button, an editing command, a hand edit — its waiter closes it from the
/// connection that showed it and ends. On dunst, on a private bus, nudge started as cron starts it; the same
/// terminal `act` is checked on every other server (`checkATerminalActClosesTheNotificationItSettled`).
final class HandledNotificationCloseTests: DesktopServerTestCase {
    private var session: DesktopSession!

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = try DesktopSession()
        try use(session.desktop)
    }

    /// Snowy's load in the dryer since 08:00 for 60 min: "Dry Complete!" is shown by the 09:00 run.
    private func deliverDryComplete() throws {
        try dir.write("laundry.json", #"""
            { "pets": [ { "id": "snowy", "name": "Snowy", "dryMinutes": 60,
                          "cycle": { "id": "c-9", "stage": "dry", "startedAt": "2026-11-21T08:00:00Z" } } ] }
            """#)
        try cron("run", at: "2026-11-21T08:30:00Z")
        try cron("run", at: "2026-11-21T09:00:00Z")
    }

    func testATerminalActClosesWashCompleteAndItsWaiterEnds() throws {
        try checkATerminalActClosesTheNotificationItSettled()
    }

    func testLaundryStartDryTypedClosesWashComplete() throws {
        let notify = try deliverWashComplete()
        let start = try cron("laundry", at: "2026-11-21T08:47:00Z", "start", "snowy", "dry")
        XCTAssertEqual(start.status, 0, start.summary)
        try assertClosedByItsWaiter(notify)
    }

    /// No message goes from a command to the waiter: the files are the signal. A person folding by hand in an
    /// editor is seen as `laundry fold` is, and so is a command killed right after it wrote the file.
    func testAHandEditThatFoldsTheLaundryClosesDryComplete() throws {
        try deliverDryComplete()
        let notify = try XCTUnwrap(waitForNotify().first)
        // An unrelated hand edit changes nothing on screen.
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try dir.write("laundry.json", #"{ "pets": [ { "id": "snowy", "name": "Snowy", "dryMinutes": 60 } ] }"#)
        try assertClosedByItsWaiter(notify)
    }

    /// In the default data directory nudge's own files live in `$XDG_STATE_HOME/nudge` (docs/files.md, "Where nudge
    /// keeps its own files"): the waiter watches state.json there, so `nudge snooze`, which writes nothing else,
    /// still wakes it and closes the notification.
    func testInTheDefaultDirectoryASnoozeTypedClosesItToo() throws {
        let home = try makeDirectory()
        let data = home.path + "/.local/share/nudge"
        defer { DesktopSession.stopWaiters(for: data) }
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try dir.data("settings.json").write(to: URL(fileURLWithPath: data + "/settings.json"))
        try Fixture.laundry(washStartedAt: "2026-11-21T08:00:00Z", cycleID: "c-5")
            .write(toFile: data + "/laundry.json", atomically: true, encoding: .utf8)
        var environment = desktop.cronEnvironment()
        environment["HOME"] = home.path
        func nudge(_ arguments: String...) throws -> NudgeResult {
            try NudgeProcess.run(arguments, exactEnvironment: environment)
        }
        XCTAssertEqual(try nudge("run", "--now", "2026-11-21T08:30:00Z").status, 0)
        XCTAssertEqual(try nudge("run", "--now", "2026-11-21T08:45:00Z").status, 0)
        let notify = try XCTUnwrap(waitForNotify().first)
        XCTAssertTrue(home.exists(".local/state/nudge/state.json"), "the own files are in the state directory")
        let snooze = try nudge("snooze", "--now", "2026-11-21T08:46:00Z")
        XCTAssertEqual(snooze.status, 0, snooze.summary)
        try assertClosedByItsWaiter(notify)
    }

    /// `nudge snooze` in a terminal closes the notification it snoozed; a second snooze moves the one snooze,
    /// which comes once.
    func testNudgeSnoozeTypedClosesItAndTheOneSnoozeComesOnce() throws {
        let notify = try deliverWashComplete()
        let snooze = try cron("snooze", at: "2026-11-21T08:46:00Z")
        XCTAssertEqual(snooze.status, 0, snooze.summary)
        try assertClosedByItsWaiter(notify)
        let again = try cron("snooze", at: "2026-11-21T08:47:00Z", "laundry.washComplete:snowy:c-5", "--minutes", "3")
        XCTAssertTrue(again.stdout.hasPrefix("Moved the snooze"), again.summary)
        try cron("run", at: "2026-11-21T08:50:00Z")
        try cron("run", at: "2026-11-21T08:57:00Z")
        XCTAssertEqual(try dir.outboxIDs(), ["laundry.washComplete:snowy:c-5", "laundry.washComplete:snowy:c-5:snooze-1"])
        XCTAssertEqual(try waitForNotify(2).count, 2)
    }

    /// "Mark Folded" on the fold reminder settles "Dry Complete!", its sibling with the same button: both go.
    func testMarkFoldedOnTheFoldReminderClosesDryCompleteToo() throws {
        try deliverDryComplete()
        try cron("run", at: "2026-11-21T09:30:00Z")
        let shown = try waitForNotify(2)
        XCTAssertEqual(waiters.count, 2)
        try session.click("COMPLETE_ACTION", on: "Still waiting to be folded")
        try session.waitUntil("the fold in laundry.json") {
            !((try? self.dir.text("laundry.json")) ?? "\"cycle\"").contains("\"cycle\"")
        }
        for notify in shown { try assertClosedByItsWaiter(notify) }
        XCTAssertEqual(session.lastMenu().filter { $0.contains("Still waiting to be folded") }.isEmpty, false)
    }

    /// `nudge play` of the last game at risk settles the streak reminder; the play of one of two does not.
    func testPlayOfTheLastGameAtRiskClosesTheStreakReminder() throws {
        try dir.write("streaks.json", #"""
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 12 }, { "id": "mini", "name": "Mini", "streak": 4 } ],
              "plays": [ { "game": "wordle", "at": "2026-11-20T19:42:11Z" }, { "game": "mini", "at": "2026-11-20T20:05:00Z" } ] }
            """#)
        try cron("run", at: "2026-11-21T17:00:00Z")
        try cron("run", at: "2026-11-21T18:00:00Z")
        let notify = try XCTUnwrap(waitForNotify().first)
        XCTAssertEqual(try cron("play", at: "2026-11-21T18:01:00Z", "wordle").status, 0)
        try cron("run", at: "2026-11-21T18:02:00Z")
        XCTAssertEqual(waiters.count, 1, "Mini is still at risk: Mark as Played still does something")
        XCTAssertEqual(try cron("play", at: "2026-11-21T18:03:00Z", "mini").status, 0)
        try assertClosedByItsWaiter(notify)
    }
}
