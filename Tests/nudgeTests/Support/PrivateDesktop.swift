import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What every real notification server test stands on: a desktop of the test's own. A temporary root holds the
/// runtime directory (`XDG_RUNTIME_DIR`, whose `bus` is a private session bus), a home and settings of its own,
/// and, where asked, a private system bus and an Xvfb display; dbus-monitor records the notification interface.
/// Every program is started here with posix_spawn in one process group of the session's own (so that what a
/// desktop program spawns, or the bus starts for it, is stopped with it), reaped here, and stopped by its pid.
///
/// With an `owner`, the desktop's programs run as that unprivileged user (sway refuses root) in a runtime
/// directory of theirs, and the bus admits them too; the bus itself, nudge and the test's own calls (dbus-send,
/// dbus-monitor) stay the test's user, as nudge uses only a bus socket of its own user's.
final class PrivateDesktop {
    struct Parts {
        var xvfb = false
        var systemBus = false
        var owner: TestUser?
    }

    let root: URL
    let runtimeDirectory: URL
    let parts: Parts
    var busAddress: String { "unix:path=\(runtimeDirectory.path)/bus" }
    var systemBusAddress: String { "unix:path=\(root.path)/system_bus" }
    /// The X display (`:N`) when the desktop has Xvfb, "" otherwise.
    private(set) var display = ""
    /// Variables a server needs on top of the session's (WAYLAND_DISPLAY, GSETTINGS_BACKEND…).
    var serverEnvironment: [String: String] = [:]
    private let monitorLog: URL
    /// What the session bus wrote: the services it activated, and why one failed to start.
    let busLog: URL
    /// The pids started here, oldest first, and their process group (the first one's pid); kept by
    /// PrivateDesktop+Processes.
    var processes: [pid_t] = []
    var group: pid_t = 0

    /// Makes the directories and starts the buses (and Xvfb). Throws the skip (failure under CI) naming the
    /// packages when one of `programs` is missing.
    init(_ name: String, programs: [String], packages: String, parts: Parts = Parts()) throws {
        let missing = programs.filter { $0.hasPrefix("/") ? !FileManager.default.isExecutableFile(atPath: $0)
                                                          : ExternalTool.find($0) == nil }
        if !missing.isEmpty {
            throw RealPart.missing("no \(name) here: \(missing.joined(separator: ", ")) not installed "
                + "(Debian packages \(packages); .ci/run installs them)")
        }
        self.parts = parts
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-\(name)-\(UUID().uuidString)")
        runtimeDirectory = root.appendingPathComponent("run")
        monitorLog = root.appendingPathComponent("monitor.log")
        busLog = root.appendingPathComponent("session-bus.log")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        for directory in ["config", "cache", "data"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(directory),
                                                    withIntermediateDirectories: true)
        }
        if let owner = parts.owner {
            for path in [root, runtimeDirectory] + ["config", "cache", "data"].map(root.appendingPathComponent) {
                chown(path.path, owner.uid, owner.gid)
            }
        }
        do {
            try startBuses()
        } catch {
            stop()
            throw error
        }
    }

    private func startBuses() throws {
        if parts.xvfb {
            display = try Self.freeDisplay()
            try launch("Xvfb", [display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
            try waitUntil("Xvfb on \(display)") {
                FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(self.display.dropFirst())")
            }
        }
        if parts.systemBus {
            try launch("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(systemBusAddress)"])
            try waitUntil("the private system bus") { FileManager.default.fileExists(atPath: self.root.path + "/system_bus") }
        }
        var configuration = "--session"
        if let owner = parts.owner {
            // A session bus admits only its own user; the desktop's programs run as the owner.
            let file = root.appendingPathComponent("session-bus.conf")
            try Self.busAdmitting(owner.name).write(to: file, atomically: true, encoding: .utf8)
            configuration = "--config-file=\(file.path)"
        }
        try launch("dbus-daemon", [configuration, "--nofork", "--nopidfile", "--address=\(busAddress)"],
                   errors: busLog.path)
        try waitUntil("the session bus") { FileManager.default.fileExists(atPath: self.runtimeDirectory.path + "/bus") }
    }

    static func busAdmitting(_ user: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <include>/usr/share/dbus-1/session.conf</include>
          <policy context="mandatory"><allow user="\(user)"/></policy>
        </busconfig>
        """
    }

    /// Starts dbus-monitor on the notification interface; call once the server holds its name.
    func startMonitor() throws {
        _ = FileManager.default.createFile(atPath: monitorLog.path, contents: nil)
        try launch("dbus-monitor", ["--session", "interface='org.freedesktop.Notifications'"], output: monitorLog.path)
        try waitUntil("dbus-monitor") { self.monitorText().contains("NameAcquired") }
    }

    // MARK: - The notification server's name

    /// The unique name that holds org.freedesktop.Notifications now, "" when none does.
    func serverOwner() -> String {
        let answer = run("dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus.GetNameOwner", "string:org.freedesktop.Notifications"])
        return answer.status == 0 ? answer.stdout.components(separatedBy: "\n").last { $0.contains("string") } ?? "" : ""
    }

    /// Waits until a server holds org.freedesktop.Notifications. Asked of the bus, not of the server: a call to
    /// the server before it holds the name would have the bus start one from a D-Bus service file (dunst's,
    /// xfce4-notifyd's…) that no test could stop by its pid.
    ///
    /// When it never does, the failure says why as far as it can be seen: whether the server `pid` still runs,
    /// the last lines of its `log`, and the bus's last lines, where a D-Bus service the server needed and the bus
    /// could not start is named (GNOME Shell's notifications run in gjs, a package of their own).
    func waitForServer(_ what: String, pid: pid_t, log: String?, timeout: TimeInterval = 10) throws {
        do {
            try waitUntil("\(what) on the bus", timeout: timeout) { !self.serverOwner().isEmpty }
        } catch let timedOut as Waiting.TimedOut {
            let server = log.map { (try? String(contentsOfFile: $0)) ?? "" } ?? ""
            let bus = (try? String(contentsOf: busLog)) ?? ""
            let unstarted = bus.split(separator: "\n").compactMap { line -> String? in
                guard line.contains("failed"), let start = line.range(of: "Activated service ") else { return nil }
                return String(line[start.upperBound...])
            }
            throw Waiting.TimedOut(description: """
                \(timedOut.description): no process holds org.freedesktop.Notifications; the server (pid \(pid)) \
                \(describe(pid)); services the bus could not start: \
                \(unstarted.isEmpty ? "none" : unstarted.joined(separator: "; ")).
                Its last lines\(log.map { " (\($0))" } ?? ""):
                \(Self.lastLines(server))
                The session bus's last lines (\(busLog.path)):
                \(Self.lastLines(bus))
                """)
        }
    }

    /// The last `count` lines of `text`, or a word saying there were none.
    static func lastLines(_ text: String, count: Int = 15) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).suffix(count)
        return lines.isEmpty ? "(none)" : lines.joined(separator: "\n")
    }

    /// Stops the server `pid` and waits until its name is free, as a logout, crash or upgrade does.
    func stopServer(_ pid: pid_t) throws {
        let oldOwner = serverOwner()
        end(pid)
        try waitUntil("the old server to leave the bus") { self.serverOwner() != oldOwner }
    }

    // MARK: - What the bus carried

    func monitorText() -> String {
        String(decoding: (try? Data(contentsOf: monitorLog)) ?? Data(), as: UTF8.self)
    }

    /// Every call or signal named `member` so far, oldest first.
    func monitorRecords(_ member: String) -> [DBusMonitorRecord] {
        DBusMonitorRecord.all(member, in: monitorText())
    }

    // MARK: - Processes

    /// The environment cron gives a job: HOME and PATH only, and here the runtime directory of the session
    /// (as logind sets it for a login; cron does not, and nudge must then find /run/user/<uid>/bus itself).
    func cronEnvironment(runtimeDirectory: String? = nil) -> [String: String] {
        ["HOME": NSHomeDirectory(), "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
         "XDG_RUNTIME_DIR": runtimeDirectory ?? self.runtimeDirectory.path, "TZ": "UTC"]
    }

    /// The test's environment with this session's buses, display, home and settings directories.
    func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        environment["DISPLAY"] = parts.xvfb ? display : nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = parts.systemBus ? systemBusAddress : nil
        environment["HOME"] = root.path
        environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = root.appendingPathComponent("cache").path
        environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        environment["NO_AT_BRIDGE"] = "1"   // GTK would have the bus start an accessibility bus of its own
        if let owner = parts.owner {
            environment["USER"] = owner.name
            environment["LOGNAME"] = owner.name
        }
        for (key, value) in serverEnvironment { environment[key] = value }
        return environment
    }

    func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) throws {
        try Waiting.until(what, timeout: timeout, condition)
    }

    /// A display number with no X server: no lock file in /tmp. Starts at a random number, so that sessions of
    /// parallel test runs rarely try the same one first.
    private static func freeDisplay() throws -> String {
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
}
