import Foundation
import XCTest

/// The checks every notification server on Xvfb gets (xfce4-notifyd, notification-daemon; docs/desktop.md): what
/// arrives, a click made with the pointer on the last button, a body click, the close at expiry and a
/// restarted server, each checked in dbus-monitor's record and on the screen. A subclass names its server.
class X11ServerTestCase: DesktopServerTestCase {
    var kind: RealServerSession.Kind { .xfce }
    private(set) var session: RealServerSession!

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = try RealServerSession(kind)
        try use(session.desktop)
    }

    private func waitForBanner() throws {
        try session.waitUntil("the banner") { !self.session.banners().isEmpty }
    }

    func checkCriticalAlarmArrivesWithItsButtonsAndASnoozeClickAppliesOnce() throws {
        let notify = try deliverCriticalAlarm()
        try waitForBanner()
        XCTAssertTrue(notify.arguments.contains("variant             byte 2"), notify.description)
        XCTAssertTrue(notify.hasString("START_TIMER") && notify.hasString("Snooze"), notify.description)
        try assertCriticalAlarmArrivedAsSpecified()
        try session.clickLastButton()
        try session.waitUntil("the snooze") { ((try? self.dir.text("state.json")) ?? "").contains(":snooze-1") }
        try waitForNoWaiter()
        XCTAssertEqual(session.monitorRecords("ActionInvoked").first?.arguments.last, "string \"SNOOZE\"")
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 1)
        // Snoozing it again moves the one snooze (docs/promises.md): still one.
        let again = try cron("act", at: "2026-11-21T04:31:00Z", "alarm.prayer:fajr:2026-11-21", "SNOOZE")
        XCTAssertTrue(again.stdout.hasPrefix("Moved the snooze"), again.summary)
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 1)
    }

    func checkALowNoteWithSoundOffArrivesLowSilentWithoutButtons() throws {
        try deliverLowAchievementWithSoundOff()
        try assertLowSilentNoteArrivedAsSpecified()
        try waitForBanner()
    }

    func checkABodyClickAppliesNothingAndEndsTheWaiter() throws {
        try deliverCriticalAlarm()
        try waitForBanner()
        try session.clickBody()
        try waitForNoWaiter()
        try session.waitUntil("the click in dbus-monitor's record") {
            !self.session.monitorRecords("NotificationClosed").isEmpty
        }
        XCTAssertEqual(session.monitorRecords("ActionInvoked").first?.arguments.last, "string \"default\"",
                       session.monitorText())
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 0)
        XCTAssertEqual((try state()["timers"] as? [Any])?.count, 0)
    }

    func checkExpiryClosesTheBannerFromTheConnectionThatCreatedIt() throws {
        let notify = try deliverExpiringLeaveTime()
        try waitForBanner()
        try waitForNoWaiter()
        try session.waitUntil("the banner to go") { self.session.banners().isEmpty }
        let closes = session.monitorRecords("CloseNotification")
        XCTAssertEqual(closes.map(\.sender), [notify.sender], closes.description)
        let closed = try XCTUnwrap(session.monitorRecords("NotificationClosed").first)
        XCTAssertEqual(closed.arguments.last, "uint32 3", "closed by the call: \(closed)")
    }

    /// `bannerGoes`: whether the server takes the banner off the screen when it is closed. notification-daemon
    /// 3.20 acknowledges the close (NotificationClosed, reason 3) and keeps drawing the bubble until it is
    /// clicked, whoever closes it (docs/desktop.md).
    func checkATerminalActClosesTheBanner(bannerGoes: Bool = true) throws {
        try checkATerminalActClosesTheNotificationItSettled(onceShown: waitForBanner)
        if bannerGoes { try session.waitUntil("the banner to go") { self.session.banners().isEmpty } }
    }

    func checkARestartedServerEndsTheWaiterAndNothingOfAnotherApplicationIsClosed() throws {
        try deliverWashComplete()
        try waitForBanner()
        XCTAssertEqual(waiters.count, 1)
        try session.restartServer()
        try waitForNoWaiter()
        try notifyFromAnotherApplication()
        XCTAssertEqual(session.monitorRecords("Notify").count, 8)
        XCTAssertEqual(session.monitorRecords("CloseNotification").map(\.description), [])
    }
}
