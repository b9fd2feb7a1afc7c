import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A click is never lost (docs/desktop.md, "A click that cannot be applied at once"): "Start Dryer" clicked on dunst
/// while the data directory's lock is held past nudge's editing wait, or while laundry.json is broken, waits in
/// its waiter with the notification and its buttons on screen, and is applied once it can be; one that never can
/// be is reported by the next run (stderr, once) and by `nudge status`.
final class PendingClickTests: DesktopServerTestCase {
    private var session: DesktopSession!

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = try DesktopSession()
        try use(session.desktop)
    }

    /// laundry.json with a trailing comma: "Start Dryer" cannot edit it.
    private static let brokenLaundry = #"{ "pets": [ { "id": "snowy", "name": "Snowy", "washMinutes": 45 }, ] }"#

    private func cycleStage() -> String? {
        let pets = (try? dir.json("laundry.json"))?["pets"] as? [[String: Any]]
        return (pets?.first?["cycle"] as? [String: Any])?["stage"] as? String
    }

    /// How many notifications dunst shows now.
    private func displayed() -> Int {
        Int(session.desktop.run("dunstctl", ["count", "displayed"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The CloseNotification calls the waiter of `notify` sent.
    private func closes(by notify: DBusMonitorRecord) -> [DBusMonitorRecord] {
        desktop.monitorRecords("CloseNotification").filter { $0.sender == notify.sender }
    }

    /// The clicks the waiters note as waiting to be applied (`.waiters/`, docs/files.md): action names.
    private func pendingClicks() -> [String] {
        let folder = dir.fileURL(".waiters")
        // A waiter writes its file atomically: a temporary `.NAME.tmp-PID` beside it is the same click, not another.
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { !$0.contains(".tmp-") }
        return names.compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                  let note = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return (note["click"] as? [String: Any])?["action"] as? String
        }
    }

    /// Clicks "Start Dryer" and waits until its waiter heard it.
    private func clickStartDryer(on notify: DBusMonitorRecord) throws {
        try session.click("COMPLETE_ACTION")
        try session.waitUntil("the click to reach the waiter") {
            self.desktop.monitorRecords("ActionInvoked").contains { $0.destination == notify.sender }
        }
    }

    /// Waits until the waiter notes its click as pending; fails when it closes the notification instead.
    private func waitForThePendingClick(of notify: DBusMonitorRecord) throws {
        try session.waitUntil("the waiter to keep its click pending or close the notification") {
            !self.pendingClicks().isEmpty || !self.closes(by: notify).isEmpty
        }
        XCTAssertEqual(closes(by: notify).map(\.description), [],
                       "the waiter closed \"Wash Complete!\" though its click was not applied")
        XCTAssertEqual(pendingClicks(), ["COMPLETE_ACTION"])
        XCTAssertEqual(displayed(), 1, "the notification stays on screen with its buttons")
        XCTAssertEqual(waiters.count, 1, "its waiter still listens")
    }

    /// The lock held by another process past nudge's own wait for it (`DirectoryLock.editingWait`, 10 s): the
    /// waiter keeps the click, the notification stays, and the dryer starts as soon as the lock is free.
    func testAClickWhileTheLockIsHeldPastTheEditingWaitIsAppliedOnceTheLockIsFree() throws {
        let notify = try deliverWashComplete()
        let lock = open(dir.fileURL(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(lock, 0)
        XCTAssertEqual(flock(lock, LOCK_EX), 0, "the test holds the data directory's lock")
        var holding = true
        defer { if holding { close(lock) } }
        try clickStartDryer(on: notify)
        // An observation window, not a wait for something: the lock stays held past the 10 s an editing command
        // waits for it, and all the while nothing may be applied, closed or ended.
        let heldUntil = Date().addingTimeInterval(12)
        while Date() < heldUntil {
            XCTAssertEqual(cycleStage(), "wash", "nothing applied while the lock is held")
            guard closes(by: notify).isEmpty, waiters.count == 1 else {
                return XCTFail("the waiter gave up the click while the lock was held: "
                    + "\(closes(by: notify).map(\.description)), waiters \(waiters)")
            }
            usleep(100_000)
        }
        XCTAssertEqual(displayed(), 1, "the notification stays on screen with its buttons")
        flock(lock, LOCK_UN)
        close(lock)
        holding = false
        let released = Date()
        try session.waitUntil("the dryer started by the click") { self.cycleStage() == "dry" }
        print("applied \(String(format: "%.3f", Date().timeIntervalSince(released))) s after the lock was released")
        try assertClosedByItsWaiter(notify)
        XCTAssertEqual(displayed(), 0)
        XCTAssertEqual(pendingClicks(), [])
    }

    /// laundry.json broken when "Start Dryer" is clicked: the notification stays with its buttons, and the click
    /// is applied as soon as the file is fixed.
    func testAClickOnABrokenFileWaitsWithItsButtonsAndIsAppliedWhenTheFileIsFixed() throws {
        let notify = try deliverWashComplete()
        try dir.write("laundry.json", Self.brokenLaundry)
        try clickStartDryer(on: notify)
        try waitForThePendingClick(of: notify)
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T08:00:00Z", cycleID: "c-5"))
        let fixed = Date()
        try session.waitUntil("the dryer started by the click") { self.cycleStage() == "dry" }
        print("applied \(String(format: "%.3f", Date().timeIntervalSince(fixed))) s after the file was fixed")
        try assertClosedByItsWaiter(notify)
        XCTAssertEqual(pendingClicks(), [])
        let run = try cron("run", at: "2026-11-21T08:50:00Z")
        XCTAssertEqual(run.stderr, "", run.summary)
    }

    /// Never fixed: at the notification's expiry its waiter closes it and goes; the next run says once on stderr
    /// that the click was not applied, and `nudge status` lists it, as text and as JSON.
    func testAClickNeverAppliableIsReportedOnceByTheNextRunAndListedByStatus() throws {
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T08:00:00Z", cycleID: "c-5"))
        try cron("run", at: "2026-11-21T08:30:00Z")
        try cron("run", at: "2026-11-21T14:44:40Z")   // Wash Complete!, 20 s before it expires at 14:45
        let notify = try XCTUnwrap(waitForNotify().first)
        try dir.write("laundry.json", Self.brokenLaundry)
        try clickStartDryer(on: notify)
        try waitForThePendingClick(of: notify)
        try Waiting.until("the waiter to give up at the expiry", timeout: 60) { self.waiters.isEmpty }
        try assertClosedByItsWaiter(notify)

        let run = try cron("run", at: "2026-11-21T14:46:00Z")
        let reported = run.stderrLines.filter { $0.contains("not applied") }
        XCTAssertEqual(reported.count, 1, run.summary)
        let line = try XCTUnwrap(reported.first)
        for part in ["\"Start Dryer\"", "Wash Complete!", "laundry.washComplete:snowy:c-5", "laundry.json",
                     "nudge act laundry.washComplete:snowy:c-5 COMPLETE_ACTION"] {
            XCTAssertTrue(line.contains(part), "\(part) in \(line)")
        }
        let again = try cron("run", at: "2026-11-21T14:47:00Z")
        XCTAssertEqual(again.stderrLines.filter { $0.contains("not applied") }, [], "said once: \(again.summary)")

        let status = try cron("status", at: "2026-11-21T14:48:00Z")
        XCTAssertTrue(status.stdout.contains("not applied"), status.summary)
        XCTAssertTrue(status.stdout.contains("laundry.washComplete:snowy:c-5"), status.summary)
        let json = try cron("status", at: "2026-11-21T14:48:00Z", "--json")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let clicks = try XCTUnwrap(object["unappliedClicks"] as? [[String: Any]], json.stdout)
        XCTAssertEqual(clicks.count, 1)
        XCTAssertEqual(clicks.first?["id"] as? String, "laundry.washComplete:snowy:c-5")
        XCTAssertEqual(clicks.first?["action"] as? String, "COMPLETE_ACTION")
        XCTAssertTrue((clicks.first?["reason"] as? String ?? "").contains("laundry.json"), "\(clicks)")
        XCTAssertEqual(try dir.text("laundry.json"), Self.brokenLaundry, "nothing was applied")
    }
}
