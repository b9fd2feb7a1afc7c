import Foundation
import XCTest

/// The desktop channel on mako, the notification server of sway and other wlroots desktops, under a headless
/// sway run as an unprivileged user (docs/desktop.md): what arrives, clicks made with mako's own binding
/// (`makoctl invoke`, which a left click runs), the close at expiry and a restarted mako.
final class MakoTests: DesktopServerTestCase {
    private var session: RealServerSession!

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = try RealServerSession(.mako)
        try use(session.desktop)
    }

    /// The id mako gave the one notification with `summary` it shows, once it shows it.
    private func shown(_ summary: String) throws -> Int {
        try session.waitUntil("mako to show \(summary)") {
            self.session.makoNotifications().contains { $0.summary == summary }
        }
        return try XCTUnwrap(session.makoNotifications().first { $0.summary == summary }?.id)
    }

    func testCriticalAlarmArrivesCriticalWithSoundAndButtonsAndMakoShowsIt() throws {
        try deliverCriticalAlarm()
        try assertCriticalAlarmArrivedAsSpecified()
        _ = try shown("Morning Prayer Time")
    }

    func testLowNotificationWithSoundOffIsLowSilentWithoutButtonsNorWaiter() throws {
        try deliverLowAchievementWithSoundOff()
        try assertLowSilentNoteArrivedAsSpecified()
        _ = try shown("Achievement unlocked: Centurion")
    }

    func testSnoozeInvokedInMakoAppliesOnceAndNudgeClosesIt() throws {
        let notify = try deliverCriticalAlarm()
        try session.makoInvoke(id: try shown("Morning Prayer Time"), "SNOOZE")
        try session.waitUntil("the snooze") { ((try? self.dir.text("state.json")) ?? "").contains(":snooze-1") }
        try waitForNoWaiter()
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 1)
        XCTAssertEqual(session.monitorRecords("CloseNotification").map(\.sender), [notify.sender],
                       "mako keeps an invoked notification: nudge closes it")
        try session.waitUntil("mako to show nothing") { self.session.makoNotifications().isEmpty }
        // Snoozing it again moves the one snooze (docs/promises.md): still one.
        let again = try cron("act", at: "2026-11-21T04:31:00Z", "alarm.prayer:fajr:2026-11-21", "SNOOZE")
        XCTAssertTrue(again.stdout.hasPrefix("Moved the snooze"), again.summary)
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 1)
    }

    func testABodyClickAppliesNothingAndEndsTheWaiter() throws {
        try deliverCriticalAlarm()
        try session.makoInvoke(id: try shown("Morning Prayer Time"))
        try waitForNoWaiter()
        XCTAssertEqual(session.monitorRecords("ActionInvoked").first?.arguments.last, "string \"default\"",
                       session.monitorText())
        try session.waitUntil("mako to show nothing") { self.session.makoNotifications().isEmpty }
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 0)
        XCTAssertEqual((try state()["timers"] as? [Any])?.count, 0)
    }

    func testExpiryClosesItFromTheConnectionThatCreatedIt() throws {
        let notify = try deliverExpiringLeaveTime()
        _ = try shown("Time to Leave")
        try waitForNoWaiter()
        try session.waitUntil("mako to show nothing") { self.session.makoNotifications().isEmpty }
        let closes = session.monitorRecords("CloseNotification")
        XCTAssertEqual(closes.map(\.sender), [notify.sender])
        let closed = try XCTUnwrap(session.monitorRecords("NotificationClosed").first, "mako says it to every client")
        XCTAssertEqual(closed.arguments, [closes.first?.arguments.first ?? "", "uint32 3"], "closed by the call")
    }

    func testARestartedMakoEndsTheWaiterAndNothingOfAnotherApplicationIsClosed() throws {
        let nudge = try deliverWashComplete().sender
        let id = try shown("Wash Complete!")
        XCTAssertEqual(waiters.count, 1, "holding notification \(id) for 6 hours")
        try session.restartServer()
        try waitForNoWaiter()
        let others = try notifyFromAnotherApplication()
        try session.waitUntil("mako to show the other application's notifications") {
            Set(self.session.makoNotifications().map(\.summary)) == Set(others)
        }
        XCTAssertEqual(session.monitorRecords("CloseNotification").filter { $0.sender == nudge }.map(\.description), [])
        let shownNow = session.makoNotifications().sorted { $0.id < $1.id }
        print("mako before the restart: notification \(id) \"Wash Complete!\", 1 waiter; after: 0 waiters, "
            + "CloseNotification from nudge: 0; mako shows \(shownNow.map { "\($0.id) \"\($0.summary)\"" })")
    }

    /// docs/desktop.md's configuration for mako's do-not-disturb mode, verbatim.
    static let doNotDisturb = """
        [mode=do-not-disturb]
        invisible=1

        [mode=do-not-disturb urgency=critical]
        invisible=0
        """

    /// In do-not-disturb a critical alarm is drawn and the rest are not, with docs/desktop.md's configuration; mako
    /// draws what it shows, so a screenshot (grim) is the judge: critical ones in red here, the rest in mako's
    /// default blue.
    func testTheDocumentedDoNotDisturbModeDrawsCriticalAlarmsOnly() throws {
        let page = try String(contentsOf: RepositoryScript.root.appendingPathComponent("docs/desktop.md"), encoding: .utf8)
        XCTAssertTrue(page.contains(Self.doNotDisturb), "docs/desktop.md gives this configuration")
        let red: (UInt8, UInt8, UInt8) = (0xcc, 0, 0), blue: (UInt8, UInt8, UInt8) = (0x28, 0x55, 0x77)
        try session.configureMako("[urgency=critical]\nbackground-color=#cc0000\n\n" + Self.doNotDisturb + "\n")
        XCTAssertEqual(session.run("makoctl", ["mode", "-s", "do-not-disturb"]).status, 0)

        try deliverCriticalAlarm()
        let critical = try shown("Morning Prayer Time")
        try session.waitUntil("mako to draw the critical alarm") { ((try? self.session.pixels(of: red)) ?? 0) > 100 }
        try deliverLowAchievementWithSoundOff()
        _ = try shown("Achievement unlocked: Centurion")
        // A redraw after the achievement arrived: the alarm dismissed, its red gone from the screen.
        XCTAssertEqual(session.run("makoctl", ["dismiss", "-n", String(critical)]).status, 0)
        try session.waitUntil("mako to take the alarm off the screen") {
            ((try? self.session.pixels(of: red)) ?? 1) == 0
        }
        XCTAssertEqual(try session.pixels(of: blue), 0, "the achievement is not drawn in do-not-disturb")
        XCTAssertEqual(session.run("makoctl", ["mode", "-s", "default"]).status, 0)
        try session.waitUntil("mako to draw the achievement out of do-not-disturb") {
            ((try? self.session.pixels(of: blue)) ?? 0) > 100
        }
    }

    func testATerminalActClosesTheNotificationItSettled() throws {
        try checkATerminalActClosesTheNotificationItSettled()
        try session.waitUntil("mako to drop Wash Complete!") {
            !self.session.makoNotifications().contains { $0.summary == "Wash Complete!" }
        }
    }
}
