import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A test of the desktop channel on a real notification server (docs/desktop.md): a data directory with desktop
/// delivery on, nudge started the way cron starts it on the server's private desktop, and in tearDown nudge's
/// click waiters and every program of the desktop stopped by their pids. A subclass starts its server in
/// setUpWithError and hands its desktop to `use`; each test then reads: deliver, check, click, check.
class DesktopServerTestCase: DataDirectoryTestCase {
    private(set) var desktop: PrivateDesktop!
    /// How long a server may take to show or close something (GNOME Shell draws with the CPU: seconds).
    var patience: TimeInterval { 10 }

    /// Call from setUpWithError once the server runs.
    func use(_ desktop: PrivateDesktop) throws {
        self.desktop = desktop
        try dir.write("settings.json", #"{ "timeZone": "Europe/Berlin", "deliver": { "desktop": true } }"#)
    }

    override func tearDown() {
        if let dir { DesktopSession.stopWaiters(for: dir.path) }
        if ProcessInfo.processInfo.environment["NUDGE_PRINT_DBUS"] != nil, let desktop {
            print(desktop.monitorText())
        }
        desktop?.stop()
        super.tearDown()
    }

    /// `nudge COMMAND --data DIR --now NOW ARGUMENTS` with only HOME, PATH and the desktop's runtime directory
    /// (or `runtimeDirectory`).
    @discardableResult
    func cron(_ command: String, at now: String, _ arguments: String...,
              runtimeDirectory: String? = nil) throws -> NudgeResult {
        try NudgeProcess.run([command, "--data", dir.path, "--now", now] + arguments,
                             exactEnvironment: desktop.cronEnvironment(runtimeDirectory: runtimeDirectory))
    }

    func state() throws -> [String: Any] { try dir.json("state.json") }

    /// nudge's click waiters of this data directory now.
    var waiters: [Int32] { DesktopSession.waiters(for: dir.path) }

    func waitForNoWaiter() throws {
        try Waiting.until("the click waiter to end", timeout: patience) { self.waiters.isEmpty }
    }

    /// Kills `waiter` with SIGKILL, as a person's `kill -9` would, and waits until every thread of it has ended.
    /// Its command line is gone before that (the kernel lets a dying process's memory go before its files), so
    /// `waiters` alone would let the next run start while the waiter still holds its file's lock.
    func killAndWaitUntilEnded(_ waiter: Int32) throws {
        XCTAssertEqual(kill(waiter, SIGKILL), 0)
        try Waiting.until("the killed waiter \(waiter) to end", timeout: patience) {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(waiter)/task")) ?? []
            return threads.allSatisfy { thread in
                // The state is the first field after the command's ")": Z or X once the thread has ended.
                let stat = (try? String(contentsOfFile: "/proc/\(waiter)/task/\(thread)/stat", encoding: .utf8)) ?? ""
                let state = stat.split(separator: ")").last?.dropFirst().first
                return state == nil || state == "Z" || state == "X"
            }
        }
        try waitForNoWaiter()
    }

    /// Waits until the server has received `count` Notify calls from clients (nudge's or another
    /// application's; GNOME 43 forwards each inside the shell once more, from the server's own connection), and
    /// returns them.
    @discardableResult
    func waitForNotify(_ count: Int = 1) throws -> [DBusMonitorRecord] {
        let server = desktop.serverOwner().split(separator: "\"").dropFirst().first.map(String.init) ?? ""
        func calls() -> [DBusMonitorRecord] {
            desktop.monitorRecords("Notify").filter { $0.sender != server }
        }
        try Waiting.until("\(count) Notify call(s) at the server", timeout: patience) { calls().count >= count }
        return calls()
    }

    /// Every Notify call so far as dunst, or any server, received it (DesktopSession.NotifyCall), clients' only.
    func notifyCalls() -> [DesktopSession.NotifyCall] {
        let server = desktop.serverOwner().split(separator: "\"").dropFirst().first.map(String.init) ?? ""
        let text = desktop.monitorText().components(separatedBy: "\nmethod call").filter {
            !$0.contains(" sender=\(server) ")
        }.joined(separator: "\nmethod call")
        return DesktopSession.notifyCalls(in: text)
    }

    /// The critical alarm as docs/desktop.md has it reach every server: urgency 2, no expiry of the server's own, the
    /// alarm-clock sound, its buttons after the body's default. Returns the Notify call.
    @discardableResult
    func assertCriticalAlarmArrivedAsSpecified() throws -> DesktopSession.NotifyCall {
        let call = try XCTUnwrap(notifyCalls().first, desktop.monitorText())
        XCTAssertEqual(call.summary, "Morning Prayer Time")
        XCTAssertEqual(call.hints["urgency"], "byte 2", "critical")
        XCTAssertEqual(call.expireTimeout, 0, "a critical alarm stays until dismissed")
        XCTAssertEqual(call.hints["sound-name"], "string \"alarm-clock-elapsed\"")
        XCTAssertEqual(call.actions, ["default", "Dismiss", "START_TIMER", "Start Timer", "SNOOZE", "Snooze"])
        XCTAssertEqual(waiters.count, 1, "one waiter for the buttons")
        return call
    }

    /// The low note with sound off as docs/desktop.md has it reach every server, sent by nudge's own D-Bus code over
    /// a short connection: app name nudge, its icon and category, urgency 0, the server's own timeout, the sound
    /// suppressed and none named, the body's markup escaped (every server here reads markup), no buttons, and
    /// nothing waiting once the run has ended.
    func assertLowSilentNoteArrivedAsSpecified() throws {
        XCTAssertEqual(waiters, [], "nothing waits: the run saw its short connection end")
        try waitForNotify()
        let call = try XCTUnwrap(notifyCalls().first, desktop.monitorText())
        XCTAssertEqual(call.appName, "nudge")
        XCTAssertEqual(call.icon, "emblem-favorite")
        XCTAssertEqual(call.summary, "Achievement unlocked: Centurion")
        XCTAssertEqual(call.body, "100 days &amp; counting")
        XCTAssertEqual(call.hints["urgency"], "byte 0", "low")
        XCTAssertEqual(call.hints["category"], "string \"x-nudge.streak\"")
        XCTAssertEqual(call.hints["suppress-sound"], "boolean true")
        XCTAssertNil(call.hints["sound-name"])
        XCTAssertEqual(call.expireTimeout, -1, "the server's own timeout")
        XCTAssertEqual(call.actions, [], "no buttons")
        XCTAssertEqual(notifyCalls().count, 1, "shown once")
    }

    // MARK: - Deliveries every server test makes

    /// The critical Fajr alarm with its buttons (Start Timer, Snooze), due 05:30 Berlin, delivered at 04:30 UTC.
    @discardableResult
    func deliverCriticalAlarm() throws -> DBusMonitorRecord {
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        try cron("run", at: "2026-11-21T04:00:00Z")
        let run = try cron("run", at: "2026-11-21T04:30:00Z")
        XCTAssertEqual(run.stderr, "", run.summary)
        return try XCTUnwrap(waitForNotify().first)
    }

    /// A low note without buttons, with sound switched off: an achievement unlocked at 09:00 UTC. Returns the run.
    @discardableResult
    func deliverLowAchievementWithSoundOff() throws -> NudgeResult {
        try dir.write("settings.json", #"""
            { "timeZone": "Europe/Berlin", "notifications": { "sound": false }, "deliver": { "desktop": true } }
            """#)
        try dir.write("streaks.json", #"""
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 3 } ],
              "achievements": [ { "id": "a-1", "title": "Centurion", "description": "100 days & counting",
                                  "unlockedAt": "2026-11-21T09:00:00Z" } ] }
            """#)
        try cron("run", at: "2026-11-21T08:00:00Z")
        return try cron("run", at: "2026-11-21T09:00:00Z")
    }

    /// A leave-time three seconds before it expires: the waiter closes it at expiry.
    @discardableResult
    func deliverExpiringLeaveTime() throws -> DBusMonitorRecord {
        try dir.write("trips.json", #"""
            { "trips": [ { "id": "dentist", "destination": "Dentist", "arriveAt": "2026-11-24T13:30:00Z",
                           "travelMinutes": 20, "bufferMinutes": 10 } ] }
            """#)
        try cron("run", at: "2026-11-24T12:00:00Z")
        try cron("run", at: "2026-11-24T13:29:57Z")
        return try XCTUnwrap(waitForNotify().first)
    }

    /// Wash Complete (buttons, open for hours): its waiter waits.
    @discardableResult
    func deliverWashComplete() throws -> DBusMonitorRecord {
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T08:00:00Z", cycleID: "c-5"))
        try cron("run", at: "2026-11-21T08:30:00Z")
        try cron("run", at: "2026-11-21T08:45:00Z")
        return try XCTUnwrap(waitForNotify().first)
    }

    /// Handled notifications close (docs/desktop.md): "Start Dryer" applied in a terminal, with `nudge act`,
    /// closes "Wash Complete!" on the server — from the connection that showed it, the only one GNOME Shell
    /// accepts — and its waiter ends. Returns dbus-monitor's records: Notify, CloseNotification and the
    /// server's NotificationClosed.
    @discardableResult
    func checkATerminalActClosesTheNotificationItSettled(onceShown shown: () throws -> Void = {})
        throws -> [DBusMonitorRecord] {
        let notify = try deliverWashComplete()
        try shown()
        XCTAssertEqual(waiters.count, 1)
        let act = try cron("act", at: "2026-11-21T08:46:00Z", "laundry.washComplete:snowy:c-5", "COMPLETE_ACTION")
        XCTAssertEqual(act.status, 0, act.summary)
        XCTAssertTrue(act.stdout.hasPrefix("Snowy: dry started"), act.summary)
        let (close, closed) = try assertClosedByItsWaiter(notify)
        let records = [notify, close, closed]
        if ProcessInfo.processInfo.environment["NUDGE_PRINT_CLOSE"] != nil {
            print(records.map(\.description).joined(separator: "\n"))
        }
        return records
    }

    /// Waits until the waiter of the notification `notify` showed has ended and the server said it closed it,
    /// and checks that it was closed once, by that waiter's own connection, at the server that showed it.
    /// Returns the CloseNotification call and the server's NotificationClosed (sent to nudge, or to every
    /// client as mako, xfce4-notifyd and notification-daemon do).
    @discardableResult
    func assertClosedByItsWaiter(_ notify: DBusMonitorRecord, file: StaticString = #filePath, line: UInt = #line)
        throws -> (close: DBusMonitorRecord, closed: DBusMonitorRecord) {
        func closeAndClosed() -> (DBusMonitorRecord, DBusMonitorRecord)? {
            let calls = desktop.monitorRecords("CloseNotification")
            guard let close = calls.first(where: { $0.sender == notify.sender }) else { return nil }
            // GNOME Shell 43 hands the call on, inside the shell, to the connection that drew the banner, which
            // tells everyone it closed it; the shell's own signal to the waiter can come after the waiter has
            // ended, and the bus then drops it. Either answer says how the server closed it.
            let handedOn = calls.filter { $0.sender == close.destination }
            let closed = desktop.monitorRecords("NotificationClosed").first { signal in
                let answersTo = { (call: DBusMonitorRecord) in
                    call.destination == signal.sender && call.arguments.first == signal.arguments.first
                }
                let answers = answersTo(close) || handedOn.contains(where: answersTo)
                return answers && (signal.destination == notify.sender || signal.destination == "(null")
            }
            return closed.map { (close, $0) }
        }
        try Waiting.until("the waiter's CloseNotification and the server's NotificationClosed", timeout: patience) {
            closeAndClosed() != nil
        }
        try waitForNoWaiter()
        let closes = desktop.monitorRecords("CloseNotification").filter { $0.sender == notify.sender }
        XCTAssertEqual(closes.count, 1, closes.description, file: file, line: line)
        let (close, closed) = try XCTUnwrap(closeAndClosed(), file: file, line: line)
        XCTAssertEqual(closed.arguments.last, "uint32 3", "closed by the call, not refused: \(closed)",
                       file: file, line: line)
        return (close, closed)
    }

    /// Seven notifications of another application, shown after a restarted server: what a waiter holding an
    /// old number must never close.
    @discardableResult
    func notifyFromAnotherApplication(count: Int = 7) throws -> [String] {
        let summaries = (1...count).map { "Other app message \($0)" }
        for summary in summaries {
            XCTAssertTrue(desktop.notifyAsAnotherApplication(summary), "gdbus call Notify \(summary) failed")
        }
        try Waiting.until("the other application's notifications", timeout: patience) {
            let shown = self.desktop.monitorRecords("Notify")
            return summaries.allSatisfy { summary in shown.contains { $0.hasString(summary) } }
        }
        return summaries
    }
}
