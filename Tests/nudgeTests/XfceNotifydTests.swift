import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The desktop channel on Xfce's notification server (SPEC §7.1): what arrives, a click made with the pointer,
/// a body click, the close at expiry and a restarted server, each checked in dbus-monitor's record.
final class XfceNotifydTests: DataDirectoryTestCase {
    private var session: RealServerSession!

    override func setUpWithError() throws {
        try super.setUpWithError()
        session = try RealServerSession(.xfce)
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

    private func deliverAlarm() throws -> DesktopSession.MonitorRecord {
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try cron("run", at: "2026-11-21T04:00:00Z")
        let run = try cron("run", at: "2026-11-21T04:30:00Z")
        XCTAssertEqual(run.stderr, "", run.summary)
        try session.waitUntil("the banner") { !self.session.banners().isEmpty }
        return try XCTUnwrap(session.monitorRecords("Notify").first)
    }

    private func waitForNoWaiter() throws {
        try session.waitUntil("the click waiter to end") { DesktopSession.waiters(for: self.dir.path).isEmpty }
    }

    func testCriticalAlarmArrivesWithItsButtonsAndASnoozeClickAppliesOnce() throws {
        let notify = try deliverAlarm()
        XCTAssertTrue(notify.arguments.contains("variant             byte 2"), notify.description)
        XCTAssertTrue(notify.arguments.contains("string \"START_TIMER\"") && notify.arguments.contains("string \"Snooze\""),
                      notify.description)
        try session.clickLastButton()
        try session.waitUntil("the snooze") { ((try? self.dir.text("state.json")) ?? "").contains(":snooze-1") }
        try waitForNoWaiter()
        XCTAssertEqual(session.monitorRecords("ActionInvoked").first?.arguments.last, "string \"SNOOZE\"")
        let again = try cron("act", at: "2026-11-21T04:31:00Z", "alarm.prayer:fajr:2026-11-21", "SNOOZE")
        XCTAssertTrue(again.stdout.hasPrefix("Nothing to do"), again.summary)
    }

    func testABodyClickAppliesNothingAndEndsTheWaiter() throws {
        _ = try deliverAlarm()
        try session.clickBody()
        try waitForNoWaiter()
        try session.waitUntil("the click in dbus-monitor's record") {
            !self.session.monitorRecords("NotificationClosed").isEmpty
        }
        XCTAssertEqual(session.monitorRecords("ActionInvoked").first?.arguments.last, "string \"default\"",
                       session.monitorText())
        XCTAssertEqual((try dir.json("state.json")["snoozes"] as? [Any])?.count, 0)
        XCTAssertEqual((try dir.json("state.json")["timers"] as? [Any])?.count, 0)
    }

    func testExpiryClosesTheBannerFromTheConnectionThatCreatedIt() throws {
        try dir.write("trips.json", #"""
            { "trips": [ { "id": "dentist", "destination": "Dentist", "arriveAt": "2026-11-24T13:30:00Z",
                           "travelMinutes": 20, "bufferMinutes": 10 } ] }
            """#)
        try cron("run", at: "2026-11-24T12:00:00Z")
        try cron("run", at: "2026-11-24T13:29:57Z")
        try session.waitUntil("the banner") { !self.session.banners().isEmpty }
        try waitForNoWaiter()
        try session.waitUntil("the banner to go") { self.session.banners().isEmpty }
        let notify = try XCTUnwrap(session.monitorRecords("Notify").first)
        let closes = session.monitorRecords("CloseNotification")
        XCTAssertEqual(closes.map(\.sender), [notify.sender], closes.description)
        let closed = try XCTUnwrap(session.monitorRecords("NotificationClosed").first)
        XCTAssertEqual(closed.arguments.last, "uint32 3", "closed by the call: \(closed)")
    }

    func testARestartedServerEndsTheWaiterAndNothingOfAnotherApplicationIsClosed() throws {
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T08:00:00Z", cycleID: "c-5"))
        try cron("run", at: "2026-11-21T08:30:00Z")
        try cron("run", at: "2026-11-21T08:45:00Z")
        try session.waitUntil("the banner") { !self.session.banners().isEmpty }
        XCTAssertEqual(DesktopSession.waiters(for: dir.path).count, 1)
        try session.restartServer()
        try waitForNoWaiter()
        for number in 1...7 { session.run("notify-send", ["--app-name=other", "Other app message \(number)"]) }
        try session.waitUntil("the other application's notifications") {
            self.session.monitorRecords("Notify").count == 8
        }
        XCTAssertEqual(session.monitorRecords("CloseNotification").map(\.description), [])
    }
}
