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
    static let programs = ["Xvfb", "dbus-daemon", "dbus-monitor", "dbus-send", "dunst", "dunstctl", "notify-send"]

    let root: URL
    /// `XDG_RUNTIME_DIR` of the session: the bus socket is `bus` inside it.
    let runtimeDirectory: URL
    var busAddress: String { "unix:path=\(runtimeDirectory.path)/bus" }
    private var processes: [Process] = []
    private let monitorLog: URL
    /// The X display and dunst's configuration, to start dunst again (`restartServer`).
    private var display = ""
    private var dunstConfig: URL?
    /// The running dunst.
    private(set) var server: Process?

    /// Starts the session, or skips the test (fails it under CI) with the reason when a program is missing.
    init() throws {
        let missing = Self.programs.filter { ExternalTool.find($0) == nil }
        if !missing.isEmpty {
            throw RealPart.missing("no real notification server here: \(missing.joined(separator: ", ")) not installed "
                + "(Debian packages dunst, libnotify-bin, dbus, xvfb; .ci/run installs them)")
        }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-desktop-\(UUID().uuidString)")
        runtimeDirectory = root.appendingPathComponent("run")
        monitorLog = root.appendingPathComponent("monitor.log")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    private func start() throws {
        display = try freeDisplay()
        try launch("Xvfb", [display, "-nolisten", "tcp"], environment: [:])
        try waitUntil("Xvfb on \(display)") {
            FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display.dropFirst())")
        }
        try launch("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(busAddress)"],
                   environment: [:])
        try waitUntil("the session bus") { FileManager.default.fileExists(atPath: self.runtimeDirectory.path + "/bus") }
        let menu = root.appendingPathComponent("menu.sh")
        try """
            #!/bin/sh
            cat > '\(root.path)/menu.in'
            grep -F ",$(cat '\(root.path)/choice')]" '\(root.path)/menu.in' | head -n 1
            """.write(to: menu, atomically: true, encoding: .utf8)
        chmod(menu.path, 0o755)
        let config = root.appendingPathComponent("dunstrc")
        try "[global]\n    dmenu = \(menu.path)\n".write(to: config, atomically: true, encoding: .utf8)
        dunstConfig = config
        try startServer()
        _ = FileManager.default.createFile(atPath: monitorLog.path, contents: nil)
        try launch("dbus-monitor", ["--session", "interface='org.freedesktop.Notifications'"], environment: [:],
                   output: FileHandle(forWritingTo: monitorLog))
        try waitUntil("dbus-monitor") { ((try? String(contentsOf: self.monitorLog)) ?? "").contains("NameAcquired") }
    }

    private func startServer() throws {
        try launch("dunst", ["-conf", dunstConfig?.path ?? ""], environment: ["DISPLAY": display])
        server = processes.last
        // Asked of the bus, not of the server: a call to the server before dunst holds the name would have the
        // bus start a server from a D-Bus service file (dunst's, xfce4-notifyd's…) that no test could stop.
        try waitUntil("dunst on the bus") {
            self.succeeds("dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus",
                                        "/org/freedesktop/DBus", "org.freedesktop.DBus.GetNameOwner",
                                        "string:org.freedesktop.Notifications"]) == true
        }
    }

    /// Stops dunst by its pid and starts a new one on the same bus and display, as a logout, crash or upgrade
    /// does: the new server knows nothing of the old one's notifications and numbers its own from 1 again.
    func restartServer() throws {
        let oldOwner = serverOwner()
        if let old = server, old.isRunning {
            kill(old.processIdentifier, SIGTERM)
            old.waitUntilExit()
        }
        try waitUntil("the old dunst to leave the bus") { self.serverOwner() != oldOwner }
        try startServer()
    }

    /// The unique name that holds org.freedesktop.Notifications now, "" when none does.
    private func serverOwner() -> String {
        guard let path = ExternalTool.find("dbus-send") else { return "" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                             "org.freedesktop.DBus.GetNameOwner", "string:org.freedesktop.Notifications"]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self).components(separatedBy: "\n").last { $0.contains("string") } ?? "" : ""
    }

    /// Stops every process this session started, by its pid, last started first, and removes its files.
    func stop() {
        for process in processes.reversed() where process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        processes = []
        try? FileManager.default.removeItem(at: root)
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
        /// The actions without the body's `default` (which nudge offers with every button, SPEC §11.39).
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
        let text = (try? String(contentsOf: monitorLog)) ?? ""
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
        (try? String(contentsOf: monitorLog)) ?? ""
    }

    /// One message of the notification interface as dbus-monitor printed it: who sent it to whom, and its
    /// arguments as printed (`uint32 3`, `string "default"`).
    struct MonitorRecord: CustomStringConvertible {
        var header: String
        var arguments: [String]
        var sender: String { Self.field("sender", header) }
        var destination: String { Self.field("destination", header) }
        var description: String { ([header] + arguments.map { "   " + $0 }).joined(separator: "\n") }

        private static func field(_ name: String, _ header: String) -> String {
            guard let start = header.range(of: name + "=") else { return "" }
            return String(header[start.upperBound...].prefix { $0 != " " && $0 != ";" })
        }
    }

    /// Every call or signal named `member` so far, oldest first.
    func monitorRecords(_ member: String) -> [MonitorRecord] {
        Self.monitorRecords(member, in: (try? String(contentsOf: monitorLog)) ?? "")
    }

    /// Every call or signal named `member` in dbus-monitor's output `text`, oldest first.
    static func monitorRecords(_ member: String, in text: String) -> [MonitorRecord] {
        var records: [MonitorRecord] = []
        var current: MonitorRecord?
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix(" ") {
                current?.arguments.append(line.trimmingCharacters(in: .whitespaces))
                continue
            }
            if let finished = current { records.append(finished) }
            current = line.contains("member=\(member)") ? MonitorRecord(header: line, arguments: []) : nil
        }
        if let finished = current { records.append(finished) }
        return records
    }

    /// The number of `NotificationClosed` signals seen.
    func closedSignals() -> Int {
        ((try? String(contentsOf: monitorLog)) ?? "").components(separatedBy: "member=NotificationClosed").count - 1
    }

    /// Waits until the server received `count` Notify calls, and returns them.
    func waitForNotifyCalls(_ count: Int) throws -> [NotifyCall] {
        try waitUntil("\(count) notification(s) at the server") { self.notifyCalls().count >= count }
        return notifyCalls()
    }

    // MARK: - Clicking

    /// Clicks the button of `action` on the notification on screen, through dunst's context menu.
    func click(_ action: String) throws {
        try action.write(to: root.appendingPathComponent("choice"), atomically: true, encoding: .utf8)
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

    /// Shows a notification of another application (`notify-send`), as a person's other programs do.
    func notifyFromAnotherApplication(_ summary: String) throws {
        guard succeeds("notify-send", ["--app-name=other", summary]) == true else {
            throw NSError(domain: "DesktopSession", code: 2,
                          userInfo: [NSLocalizedDescriptionKey: "notify-send \(summary) failed"])
        }
    }

    /// The menu dunst offered at the last click: one line per button.
    func lastMenu() -> [String] {
        ((try? String(contentsOf: root.appendingPathComponent("menu.in"))) ?? "")
            .components(separatedBy: "\n").filter { !$0.isEmpty }
    }

    // MARK: - Processes

    /// The environment cron gives a job: HOME and PATH only, and here the runtime directory of the session
    /// (as logind sets it for a login; cron does not, and nudge must then find /run/user/<uid>/bus itself).
    func cronEnvironment(runtimeDirectory: String? = nil) -> [String: String] {
        ["HOME": NSHomeDirectory(), "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
         "XDG_RUNTIME_DIR": runtimeDirectory ?? self.runtimeDirectory.path, "TZ": "UTC"]
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
    /// that started each, and its notify-send).
    static func stopWaiters(for dataDirectory: String) {
        for pid in waiters(for: dataDirectory) {
            let group = getpgid(pid)
            if group > 1 { kill(-group, SIGKILL) } else { kill(pid, SIGKILL) }
        }
    }

    private func launch(_ program: String, _ arguments: [String], environment extra: [String: String],
                        output: FileHandle? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.find(program) ?? program)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        processes.append(process)
    }

    /// Runs a helper program to its end; nil when it is not installed.
    private func succeeds(_ program: String, _ arguments: [String]) -> Bool? {
        guard let path = ExternalTool.find(program) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// A display number with no X server: no lock file in /tmp. Starts at a random number, so that sessions of
    /// parallel test runs rarely try the same one first.
    private func freeDisplay() throws -> String {
        let first = Int.random(in: 200...900)
        for offset in 0...700 {
            let number = 200 + (first - 200 + offset) % 701
            if !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
                && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
                return ":\(number)"
            }
        }
        throw RealPart.missing("no free X display number between 200 and 900")
    }

    func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) throws {
        try Waiting.until(what, timeout: timeout, condition)
    }
}
