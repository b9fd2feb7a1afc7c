import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A real desktop notification session of the test's own: Xvfb on a display number nobody uses, a D-Bus
/// session bus whose socket lies in a temporary runtime directory, dunst as the notification server, and
/// dbus-monitor recording every call to it. Every process is started here and stopped by its pid.
///
/// A click is made the way a person's would reach nudge: dunst's context menu (`dunstctl context`) runs the
/// `dmenu` program of its configuration, here a script that picks the menu line of the wanted action.
final class DesktopSession {
    static let programs = ["Xvfb", "dbus-daemon", "dbus-monitor", "dbus-send", "dunst", "dunstctl", "gdbus"]

    /// The private bus, display and runtime directory, and every process, started and stopped there.
    let desktop: PrivateDesktop
    var root: URL { desktop.root }
    /// `XDG_RUNTIME_DIR` of the session: the bus socket is `bus` inside it.
    var runtimeDirectory: URL { desktop.runtimeDirectory }
    var busAddress: String { desktop.busAddress }
    private let dunstConfig: URL
    /// The running dunst's pid.
    private(set) var server: pid_t = 0

    /// Starts the session, or skips the test (fails it under CI) with the reason when a program is missing.
    init() throws {
        desktop = try PrivateDesktop("desktop", programs: Self.programs,
                                     packages: "dunst, libglib2.0-bin, dbus, dbus-bin, xvfb", parts: .init(xvfb: true))
        dunstConfig = desktop.root.appendingPathComponent("dunstrc")
        do {
            let menu = root.appendingPathComponent("menu.sh")
            try """
                #!/bin/sh
                cat > '\(root.path)/menu.in'
                grep -F "$(cat '\(root.path)/summary')" '\(root.path)/menu.in' \\
                    | grep -F ",$(cat '\(root.path)/choice')]" | head -n 1
                """.write(to: menu, atomically: true, encoding: .utf8)
            chmod(menu.path, 0o755)
            try "[global]\n    dmenu = \(menu.path)\n".write(to: dunstConfig, atomically: true, encoding: .utf8)
            try startServer()
            try desktop.startMonitor()
        } catch {
            desktop.stop()
            throw error
        }
    }

    private func startServer() throws {
        let log = desktop.root.appendingPathComponent("dunst.err").path
        server = try desktop.launch("dunst", ["-conf", dunstConfig.path], errors: log)
        try desktop.waitForServer("dunst", pid: server, log: log)
    }

    /// Stops dunst by its pid and starts a new one on the same bus and display, as a logout, crash or upgrade
    /// does: the new server knows nothing of the old one's notifications and numbers its own from 1 again.
    func restartServer() throws {
        try desktop.stopServer(server)
        try startServer()
    }

    /// Stops every process this session started, by its pid, last started first, and removes its files.
    func stop() {
        desktop.stop()
    }

    // MARK: - What the server received

    /// One `Notify` call as dbus-monitor printed it.
    struct NotifyCall {
        var appName = ""
        var icon = ""
        var summary = ""
        var body = ""
        /// Identifier, label, identifier, label, …
        var actions: [String] = []
        /// The actions without the body's `default` (which nudge offers with every button, docs/desktop.md).
        var buttons: [String] {
            guard let index = actions.firstIndex(of: "default"), index % 2 == 0, index + 1 < actions.count else {
                return actions
            }
            return Array(actions[..<index] + actions[(index + 2)...])
        }
        /// Hint name → the value as printed (`byte 2`, `string "x-nudge.alarm"`, `boolean true`).
        var hints: [String: String] = [:]
        var expireTimeout: Int32 = -2
    }

    /// Every Notify call so far, oldest first.
    func notifyCalls() -> [NotifyCall] {
        Self.notifyCalls(in: desktop.monitorText())
    }

    /// Every Notify call in dbus-monitor's output `text`, oldest first.
    static func notifyCalls(in text: String) -> [NotifyCall] {
        var calls: [NotifyCall] = []
        var block: [String]?
        for line in text.components(separatedBy: "\n") {
            if !line.hasPrefix(" ") {
                if let finished = block { calls.append(Self.parse(finished)) }
                block = line.contains("member=Notify") && line.hasPrefix("method call") ? [] : nil
            } else {
                block?.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        if let finished = block { calls.append(Self.parse(finished)) }
        return calls
    }

    private static func parse(_ lines: [String]) -> NotifyCall {
        var call = NotifyCall()
        var scalars: [String] = []
        var arrays: [[String]] = []
        var current: [String]?
        for line in lines {
            if line == "array [" { current = []; continue }
            if line == "]" { arrays.append(current ?? []); current = nil; continue }
            if current != nil { current?.append(line) } else { scalars.append(line) }
        }
        func text(_ line: String) -> String {
            guard let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close else { return "" }
            return String(line[line.index(after: open)..<close])
        }
        if scalars.count >= 6 {
            call.appName = text(scalars[0])
            call.icon = text(scalars[2])
            call.summary = text(scalars[3])
            call.body = text(scalars[4])
            call.expireTimeout = Int32(scalars[5].split(separator: " ").last ?? "") ?? -2
        }
        if arrays.count >= 2 {
            call.actions = arrays[0].map(text)
            var key: String?
            for line in arrays[1] {
                if line.hasPrefix("string \"") && key == nil { key = text(line) }
                else if line.hasPrefix("variant"), let name = key {
                    call.hints[name] = line.dropFirst("variant".count).trimmingCharacters(in: .whitespaces)
                    key = nil
                }
            }
        }
        return call
    }

    /// Everything dbus-monitor printed so far: the record of the calls and signals.
    func monitorRecord() -> String {
        desktop.monitorText()
    }

    typealias MonitorRecord = DBusMonitorRecord

    /// Every call or signal named `member` so far, oldest first.
    func monitorRecords(_ member: String) -> [MonitorRecord] {
        desktop.monitorRecords(member)
    }

    /// Every call or signal named `member` in dbus-monitor's output `text`, oldest first.
    static func monitorRecords(_ member: String, in text: String) -> [MonitorRecord] {
        DBusMonitorRecord.all(member, in: text)
    }

    /// The number of `NotificationClosed` signals seen.
    func closedSignals() -> Int {
        desktop.monitorText().components(separatedBy: "member=NotificationClosed").count - 1
    }

    /// Waits until the server received `count` Notify calls, and returns them.
    func waitForNotifyCalls(_ count: Int) throws -> [NotifyCall] {
        try waitUntil("\(count) notification(s) at the server") { self.notifyCalls().count >= count }
        return notifyCalls()
    }

    // MARK: - Clicking

    /// Clicks the button of `action` on the notification on screen (the one titled `summary`, when several
    /// offer it), through dunst's context menu, whose lines read `#Label (Summary) [number,ACTION]`.
    func click(_ action: String, on summary: String = "") throws {
        try action.write(to: root.appendingPathComponent("choice"), atomically: true, encoding: .utf8)
        try (summary.isEmpty ? "" : "(\(summary)) [").write(to: root.appendingPathComponent("summary"),
                                                            atomically: true, encoding: .utf8)
        guard succeeds("dunstctl", ["context"]) == true else {
            throw RealPart.missing("dunstctl context failed: this dunst cannot invoke actions headlessly")
        }
    }

    /// Clicks the body of the notification on top: dunst invokes its `default` action.
    func clickBody() throws {
        guard succeeds("dunstctl", ["action", "0"]) == true else {
            throw XCTSkip("dunstctl action failed: this dunst cannot invoke the default action headlessly")
        }
    }

    /// Shows a notification of another application (`gdbus call`), as a person's other programs do.
    func notifyFromAnotherApplication(_ summary: String) throws {
        guard desktop.notifyAsAnotherApplication(summary) else {
            throw NSError(domain: "DesktopSession", code: 2,
                          userInfo: [NSLocalizedDescriptionKey: "gdbus call Notify \(summary) failed"])
        }
    }

    /// The menu dunst offered at the last click: one line per button.
    func lastMenu() -> [String] {
        ((try? String(contentsOf: root.appendingPathComponent("menu.in"))) ?? "")
            .components(separatedBy: "\n").filter { !$0.isEmpty }
    }

    // MARK: - Processes

    /// The environment cron gives a job (PrivateDesktop.cronEnvironment).
    func cronEnvironment(runtimeDirectory: String? = nil) -> [String: String] {
        desktop.cronEnvironment(runtimeDirectory: runtimeDirectory)
    }

    /// Pids of nudge's click waiters (`nudge desktop-wait`, each under its `nudge channel-exec`) for a data
    /// directory.
    static func waiters(for dataDirectory: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.count > 1 && words[1] == "desktop-wait" && words.contains(dataDirectory)
        }
    }

    /// Stops the click waiters of a data directory with everything in their process groups (the channel-exec
    /// that started each).
    static func stopWaiters(for dataDirectory: String) {
        for pid in waiters(for: dataDirectory) {
            let group = getpgid(pid)
            if group > 1 { kill(-group, SIGKILL) } else { kill(pid, SIGKILL) }
        }
    }

    /// Runs a helper program to its end; nil when it is not installed.
    private func succeeds(_ program: String, _ arguments: [String]) -> Bool? {
        guard ExternalTool.find(program) != nil else { return nil }
        return desktop.run(program, arguments).status == 0
    }

    func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) throws {
        try Waiting.until(what, timeout: timeout, condition)
    }
}
