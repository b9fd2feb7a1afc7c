import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A waiter killed with SIGKILL leaves no notification with dead buttons (docs/desktop.md, "A waiter that is
/// gone"): the next run closes it from its own connection, at the server that showed it, and never closes a
/// number that a restarted server gave to another application. On dunst; GNOME Shell in `GnomeShellTests`.
final class OrphanedNotificationTests: DesktopServerTestCase {
    private var session: DesktopSession!

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = try DesktopSession()
        try use(session.desktop)
    }

    /// How many notifications dunst shows now.
    private func displayed() -> Int {
        Int(session.desktop.run("dunstctl", ["count", "displayed"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The numbers the server says were closed by a CloseNotification call (reason 3), oldest first.
    private func closedByACall() -> [String] {
        desktop.monitorRecords("NotificationClosed").filter { $0.arguments.last == "uint32 3" }
            .compactMap(\.arguments.first)
    }

    /// Kills the one waiter with SIGKILL, by its pid, and waits until it is gone.
    private func killTheWaiter() throws {
        XCTAssertEqual(waiters.count, 1)
        let waiter = try XCTUnwrap(waiters.first)
        // Killed before its hold file is written (after Notify and GetId), a waiter leaves the run nothing to close
        // from: wait for the file, as a person's kill comes long after the notification appeared.
        try session.waitUntil("the waiter's hold file") {
            ((try? FileManager.default.contentsOfDirectory(atPath: self.dir.path + "/.waiters")) ?? []).count == 1
        }
        try killAndWaitUntilEnded(waiter)
    }

    /// Shows a notification of another application; returns the number the server gave it.
    private func notifyAsAnotherApplication(_ summary: String) throws -> String {
        let answer = desktop.run("gdbus", ["call", "--session", "--dest", "org.freedesktop.Notifications",
                                           "--object-path", "/org/freedesktop/Notifications",
                                           "--method", "org.freedesktop.Notifications.Notify", "@s 'other'", "@u 0",
                                           "@s ''", "@s '\(summary)'", "@s ''", "@as []", "@a{sv} {}", "@i 0"])
        XCTAssertEqual(answer.status, 0, answer.stdout)
        let number = answer.stdout.drop { !$0.isNumber }.prefix { $0.isNumber }
        return "uint32 " + number
    }

    func testAKilledWaitersNotificationIsClosedByTheNextRun() throws {
        let notify = try deliverWashComplete()
        try killTheWaiter()
        XCTAssertEqual(displayed(), 1, "Wash Complete! with buttons nothing listens to")
        let run = try cron("run", at: "2026-11-21T08:46:00Z")
        XCTAssertEqual(run.status, 0, run.summary)
        try session.waitUntil("the next run to close the notification") { self.displayed() == 0 }
        let close = try XCTUnwrap(desktop.monitorRecords("CloseNotification").last, desktop.monitorText())
        XCTAssertNotEqual(close.sender, notify.sender, "closed from the run's own connection")
        XCTAssertEqual(closedByACall().count, 1, desktop.monitorText())
        let again = try cron("run", at: "2026-11-21T08:47:00Z")
        XCTAssertEqual(again.status, 0, again.summary)
        XCTAssertEqual(desktop.monitorRecords("CloseNotification").count, 1, "closed once")
    }

    /// A restarted dunst numbers from 1 again: the killed waiter's number now belongs to another application,
    /// whose notifications stay; a killed waiter's notification on the new server is closed.
    func testAfterARestartedServerOnlyTheKilledWaitersNotificationOnTheNewServerIsClosed() throws {
        try dir.write("alarms.json", Fixture.alarm(time: "09:47"))   // 08:47Z, with Start Timer and Snooze
        try deliverWashComplete()
        try killTheWaiter()
        try session.restartServer()
        // Wash Complete! was the first notification of a fresh dunst, and so is the first of these: the killed
        // waiter's number now belongs to another application.
        let others = try (1...7).map { try notifyAsAnotherApplication("Other app message \($0)") }
        let closedBefore = closedByACall().count
        try cron("run", at: "2026-11-21T08:47:00Z")
        try session.waitUntil("the prayer alarm on the new server") {
            self.desktop.monitorRecords("Notify").contains { $0.hasString("Morning Prayer Time") }
        }
        try killTheWaiter()

        let run = try cron("run", at: "2026-11-21T08:48:00Z")
        XCTAssertEqual(run.status, 0, run.summary)
        try session.waitUntil("the next run to close the prayer alarm") { self.closedByACall().count > closedBefore }
        let closed = Array(closedByACall().dropFirst(closedBefore))
        XCTAssertEqual(closed.count, 1, desktop.monitorText())
        XCTAssertFalse(others.contains(closed[0]), "another application's \(closed[0]) was closed")
        XCTAssertEqual(displayed(), 7, "the other application's notifications stay")
    }
}
