import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The desktop channel on GNOME Shell itself, headless (docs/desktop.md): GNOME lets only the connection that created a
/// notification close it while that connection lives, and sends clicks only to it. Checked in dbus-monitor's
/// record and on GNOME's screen, clicked with GNOME's own RemoteDesktop pointer. GNOME 43 forwards each call
/// inside the shell (from the name's owner to a second connection of its own), so the record shows each Notify
/// and CloseNotification twice; only nudge's own (sent to the well-known name, or from nudge's connection) are
/// counted.
final class GnomeShellTests: DesktopServerTestCase {
    private var session: RealServerSession!
    /// GNOME Shell draws with the CPU here (llvmpipe): on a busy machine it can take seconds to answer.
    override var patience: TimeInterval { 30 }

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = try RealServerSession.started(.gnome)
        try use(session.desktop)
    }

    func testCriticalAlarmArrivesCriticalWithItsButtonsAndTheBodysDefault() throws {
        let call = try deliverCriticalAlarm()
        XCTAssertTrue(call.arguments.contains("variant             byte 2"), call.description)
        for action in ["default", "START_TIMER", "Start Timer", "SNOOZE", "Snooze"] {
            XCTAssertTrue(call.hasString(action), "\(action) in \(call)")
        }
        XCTAssertEqual(waiters.count, 1)
        try assertCriticalAlarmArrivedAsSpecified()
    }

    func testALowNoteWithSoundOffArrivesLowSilentWithoutButtons() throws {
        try deliverLowAchievementWithSoundOff()
        try assertLowSilentNoteArrivedAsSpecified()
    }

    func testSnoozeClickedWithGnomesPointerAppliesOnceAndTheBannerGoes() throws {
        let notify = try deliverCriticalAlarm()
        try session.clickLastButton()
        try session.waitUntil("the snooze", timeout: patience) {
            ((try? self.dir.text("state.json")) ?? "").contains(":snooze-1")
        }
        try waitForNoWaiter()
        let invoked = session.monitorRecords("ActionInvoked").filter { $0.destination == notify.sender }
        XCTAssertFalse(invoked.isEmpty, session.monitorText())
        XCTAssertEqual(Set(invoked.compactMap(\.arguments.last)), ["string \"SNOOZE\""], invoked.description)
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 1, "one snooze, however often GNOME says it")
        // Snoozing it again moves the one snooze (docs/promises.md): still one.
        let again = try cron("act", at: "2026-11-21T04:31:00Z", "alarm.prayer:fajr:2026-11-21", "SNOOZE")
        XCTAssertTrue(again.stdout.hasPrefix("Moved the snooze"), again.summary)
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 1)
        try session.waitUntil("the banner to go", timeout: patience) {
            (try? self.session.gnomeShowsABannerWithButtons()) == false
        }
    }

    func testABodyClickAppliesNothingAndTheBannerGoes() throws {
        let notify = try deliverCriticalAlarm()
        try session.clickBody()
        try waitForNoWaiter()
        let invoked = session.monitorRecords("ActionInvoked").filter { $0.destination == notify.sender }
        XCTAssertEqual(Set(invoked.compactMap(\.arguments.last)), ["string \"default\""], session.monitorText())
        XCTAssertEqual((try state()["snoozes"] as? [Any])?.count, 0)
        XCTAssertEqual((try state()["timers"] as? [Any])?.count, 0)
        try session.waitUntil("the banner to go", timeout: patience) {
            (try? self.session.gnomeShowsABannerWithButtons()) == false
        }
    }

    func testExpiryIsClosedByTheConnectionThatCreatedItAndGnomeAccepts() throws {
        let notify = try deliverExpiringLeaveTime()
        try waitForNoWaiter()
        try session.waitUntil("GNOME's NotificationClosed to nudge", timeout: patience) {
            self.session.monitorRecords("NotificationClosed").contains { $0.destination == notify.sender }
        }
        let closes = session.monitorRecords("CloseNotification").filter { $0.sender == notify.sender }
        XCTAssertEqual(closes.count, 1, closes.description)
        let closed = try XCTUnwrap(session.monitorRecords("NotificationClosed").first { $0.destination == notify.sender })
        XCTAssertEqual(closed.sender, closes.first?.destination, "from the server nudge closed it at")
        XCTAssertEqual(closed.arguments.last, "uint32 3", "closed by the call, not refused: \(closed)")
        if ProcessInfo.processInfo.environment["NUDGE_PRINT_EXPIRY"] != nil {
            print(([notify] + closes + [closed]).map(\.description).joined(separator: "\n"))
        }
    }

    func testAStoppedShellEndsTheWaiterAndNothingOfAnotherApplicationIsClosed() throws {
        let nudge = try deliverWashComplete().sender
        XCTAssertEqual(waiters.count, 1)
        try session.restartServer()
        try waitForNoWaiter()
        try notifyFromAnotherApplication()
        XCTAssertEqual(session.monitorRecords("CloseNotification").filter { $0.sender == nudge }.map(\.description), [])
    }

    func testATerminalActClosesTheNotificationItSettledAndTheBannerGoes() throws {
        try checkATerminalActClosesTheNotificationItSettled()
        try session.waitUntil("the banner to go", timeout: patience) {
            (try? self.session.gnomeShowsABannerWithButtons()) == false
        }
    }

    /// A waiter killed with SIGKILL (docs/desktop.md, "A waiter that is gone"): GNOME forgets which connection
    /// created the banner once that connection is gone, and the next run closes it from its own.
    func testAKilledWaitersBannerIsClosedByTheNextRun() throws {
        let notify = try deliverWashComplete()
        try session.waitForGnomeBanner()
        let waiter = try XCTUnwrap(waiters.first)
        try killAndWaitUntilEnded(waiter)
        XCTAssertTrue(try session.gnomeShowsABannerWithButtons(), "a banner whose buttons nothing listens to")
        let run = try cron("run", at: "2026-11-21T08:46:00Z")
        XCTAssertEqual(run.status, 0, run.summary)
        try session.waitUntil("the banner to go", timeout: patience) {
            (try? self.session.gnomeShowsABannerWithButtons()) == false
        }
        let closes = session.monitorRecords("CloseNotification").filter { $0.sender != notify.sender }
        XCTAssertFalse(closes.isEmpty, "closed by the run's own connection: \(session.monitorText())")
        XCTAssertEqual(session.monitorRecords("CloseNotification").filter { $0.sender == notify.sender }.count, 0)
    }
}
