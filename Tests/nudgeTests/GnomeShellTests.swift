import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The desktop channel on GNOME Shell itself, headless (SPEC §7.1): GNOME lets only the connection that created a
/// notification close it while that connection lives, and sends clicks only to it. Checked in dbus-monitor's
/// record. GNOME 43 forwards each call inside the shell (from the name's owner to a second connection of its own),
/// so the record shows each Notify and CloseNotification twice; only nudge's own (sent to the well-known name, or
/// from nudge's connection) are counted.
final class GnomeShellTests: DataDirectoryTestCase {
    private var session: RealServerSession!
    /// GNOME Shell draws with the CPU here (llvmpipe): on a busy machine it can take seconds to answer.
    static let patience: TimeInterval = 30

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = try RealServerSession(.gnome)
        try dir.write("settings.json", #"{ "timeZone": "Europe/Berlin", "deliver": { "desktop": true } }"#)
    }

    override func tearDown() {
        DesktopSession.stopWaiters(for: dir.path)
        session?.stop()
        super.tearDown()
    }

    @discardableResult
    private func cron(_ command: String, at now: String, _ arguments: String...) throws -> NudgeResult {
        try NudgeProcess.run([command, "--data", dir.path, "--now", now] + arguments,
                             exactEnvironment: session.cronEnvironment())
    }

    /// The Notify calls sent to the server's well-known name (by nudge or another application).
    private func notifyCalls() -> [DesktopSession.MonitorRecord] {
        session.monitorRecords("Notify").filter { $0.destination == "org.freedesktop.Notifications" }
    }

    private func waitForNoWaiter() throws {
        try session.waitUntil("the click waiter to end", timeout: Self.patience) { DesktopSession.waiters(for: self.dir.path).isEmpty }
    }

    func testCriticalAlarmArrivesCriticalWithItsButtonsAndTheBodysDefault() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try cron("run", at: "2026-11-21T04:00:00Z")
        let run = try cron("run", at: "2026-11-21T04:30:00Z")
        XCTAssertEqual(run.stderr, "", run.summary)
        try session.waitUntil("the Notify call", timeout: Self.patience) { !self.notifyCalls().isEmpty }
        let call = try XCTUnwrap(notifyCalls().first)
        XCTAssertTrue(call.arguments.contains("variant             byte 2"), call.description)
        for action in ["default", "START_TIMER", "Start Timer", "SNOOZE", "Snooze"] {
            XCTAssertTrue(call.arguments.contains("string \"\(action)\""), "\(action) in \(call)")
        }
        XCTAssertEqual(DesktopSession.waiters(for: dir.path).count, 1)
    }

    func testExpiryIsClosedByTheConnectionThatCreatedItAndGnomeAccepts() throws {
        try dir.write("trips.json", #"""
            { "trips": [ { "id": "dentist", "destination": "Dentist", "arriveAt": "2026-11-24T13:30:00Z",
                           "travelMinutes": 20, "bufferMinutes": 10 } ] }
            """#)
        try cron("run", at: "2026-11-24T12:00:00Z")
        try cron("run", at: "2026-11-24T13:29:57Z")
        try session.waitUntil("the Notify call", timeout: Self.patience) { !self.notifyCalls().isEmpty }
        let notify = try XCTUnwrap(notifyCalls().first)
        try waitForNoWaiter()
        try session.waitUntil("GNOME's NotificationClosed to nudge", timeout: Self.patience) {
            self.session.monitorRecords("NotificationClosed").contains { $0.destination == notify.sender }
        }
        let closes = session.monitorRecords("CloseNotification").filter { $0.sender == notify.sender }
        XCTAssertEqual(closes.count, 1, closes.description)
        let closed = try XCTUnwrap(session.monitorRecords("NotificationClosed").first { $0.destination == notify.sender })
        XCTAssertEqual(closed.sender, closes.first?.destination, "from the server nudge closed it at")
        XCTAssertEqual(closed.arguments.last, "uint32 3", "closed by the call, not refused: \(closed)")
    }

    func testAStoppedShellEndsTheWaiterAndNothingOfAnotherApplicationIsClosed() throws {
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T08:00:00Z", cycleID: "c-5"))
        try cron("run", at: "2026-11-21T08:30:00Z")
        try cron("run", at: "2026-11-21T08:45:00Z")
        try session.waitUntil("the Notify call", timeout: Self.patience) { !self.notifyCalls().isEmpty }
        let nudge = try XCTUnwrap(notifyCalls().first?.sender)
        XCTAssertEqual(DesktopSession.waiters(for: dir.path).count, 1)
        try session.restartServer()
        try waitForNoWaiter()
        let others = (1...7).map { "Other app message \($0)" }
        for summary in others { session.run("notify-send", ["--app-name=other", summary]) }
        try session.waitUntil("the other application's notifications", timeout: Self.patience) {
            let shown = Set(self.session.monitorRecords("Notify").flatMap(\.arguments))
            return others.allSatisfy { shown.contains("string \"\($0)\"") }
        }
        XCTAssertEqual(session.monitorRecords("CloseNotification").filter { $0.sender == nudge }.map(\.description), [])
    }
}
