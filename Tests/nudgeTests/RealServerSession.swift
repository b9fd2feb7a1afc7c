import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A desktop's own notification server in a session of the test's own, with a private session bus, a home and
/// runtime directory of its own, and dbus-monitor recording the notification interface:
///
/// - Xfce: xfce4-notifyd drawing its banners on Xvfb, clicked by `xdotool` with the pointer, where a person
///   clicks. Its settings daemon (xfconfd) is started by the private bus on demand and ends with it.
/// - GNOME: GNOME Shell itself, headless (`--headless --wayland --no-x11 --virtual-monitor`), with a private
///   system bus too (`DBUS_SYSTEM_BUS_ADDRESS`) and settings in memory. It is the strictest server: only the
///   connection that created a notification may close it while that connection lives.
///
/// Every other process is started here and stopped by its pid.
final class RealServerSession {
    enum Kind {
        case xfce, gnome

        var programs: [String] {
            switch self {
            case .xfce: return ["Xvfb", "dbus-daemon", "dbus-monitor", "dbus-send", "xdotool", "notify-send"]
            case .gnome: return ["gnome-shell", "dbus-daemon", "dbus-monitor", "dbus-send", "notify-send"]
            }
        }

        var serverPaths: [String] {
            switch self {
            case .xfce:
                return ["/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd",
                        "/usr/lib/aarch64-linux-gnu/xfce4/notifyd/xfce4-notifyd",
                        "/usr/libexec/xfce4/notifyd/xfce4-notifyd"]
            case .gnome:
                return [ExternalTool.find("gnome-shell")].compactMap { $0 }
            }
        }

        var packages: String {
            switch self {
            case .xfce: return "xfce4-notifyd, xdotool, xvfb, dbus, libnotify-bin"
            case .gnome: return "gnome-shell, dbus, libnotify-bin"
            }
        }
    }

    let kind: Kind

    let root: URL
    let runtimeDirectory: URL
    var busAddress: String { "unix:path=\(runtimeDirectory.path)/bus" }
    private let monitorLog: URL
    private let serverPath: String
    private var display = ""
    /// The pids started here, oldest first, all in one process group of their own (`group`): what a desktop
    /// process spawns or the bus starts on its behalf (GNOME Shell starts more of itself) is stopped with it.
    private var processes: [pid_t] = []
    private var group: pid_t = 0
    private(set) var server: pid_t = 0

    /// Starts the session, or skips the test with the reason when a part is missing.
    init(_ kind: Kind) throws {
        self.kind = kind
        let missing = kind.programs.filter { ExternalTool.find($0) == nil }
        guard missing.isEmpty, let found = kind.serverPaths.first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("no \(kind) notification server here: missing \(missing.joined(separator: ", ")) "
                + "(Debian packages \(kind.packages); .ci/run installs them)")
        }
        serverPath = found
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-\(kind)-\(UUID().uuidString)")
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

    private var systemBusAddress: String { "unix:path=\(root.path)/system_bus" }

    private func start() throws {
        if kind == .xfce {
            for number in (0..<50).map({ _ in Int.random(in: 200...900) })
            where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
                display = ":\(number)"
                break
            }
            try launch(ExternalTool.find("Xvfb") ?? "Xvfb",
                       [display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
            try waitUntil("Xvfb on \(display)") {
                FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(self.display.dropFirst())")
            }
        } else {
            // GNOME Shell asks the system bus for logind, accounts and more; a private one that answers nothing
            // is enough for notifications.
            try launch(ExternalTool.find("dbus-daemon") ?? "dbus-daemon",
                       ["--session", "--nofork", "--nopidfile", "--address=\(systemBusAddress)"])
            try waitUntil("the private system bus") { FileManager.default.fileExists(atPath: self.root.path + "/system_bus") }
        }
        try launch(ExternalTool.find("dbus-daemon") ?? "dbus-daemon",
                   ["--session", "--nofork", "--nopidfile", "--address=\(busAddress)"])
        try waitUntil("the session bus") { FileManager.default.fileExists(atPath: self.runtimeDirectory.path + "/bus") }
        try startServer()
        _ = FileManager.default.createFile(atPath: monitorLog.path, contents: nil)
        try launch(ExternalTool.find("dbus-monitor") ?? "dbus-monitor",
                   ["--session", "interface='org.freedesktop.Notifications'"],
                   output: monitorLog.path)
        try waitUntil("dbus-monitor") { self.monitorText().contains("NameAcquired") }
    }

    private func startServer() throws {
        try launch(serverPath, kind == .gnome ? ["--headless", "--wayland", "--no-x11", "--virtual-monitor", "800x600"] : [])
        server = processes.last ?? 0
        // Asked of the bus, not of the server: a call to the server would have the bus start one of its own
        // (xfce4-notifyd's D-Bus service file), which this session could not stop by its pid.
        try waitUntil("\(kind)'s notification server on the bus", timeout: 30) {
            self.run("dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                   "org.freedesktop.DBus.NameHasOwner",
                                   "string:org.freedesktop.Notifications"]).stdout.contains("boolean true")
        }
    }

    /// Stops the server by its pid and starts a new one on the same bus and display.
    func restartServer() throws {
        let oldOwner = serverOwner()
        Self.end(server)
        try waitUntil("the old server to leave the bus") { self.serverOwner() != oldOwner }
        try startServer()
    }

    /// The unique name that holds org.freedesktop.Notifications now, "" when none does.
    private func serverOwner() -> String {
        let answer = run("dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus.GetNameOwner", "string:org.freedesktop.Notifications"])
        return answer.status == 0 ? answer.stdout.components(separatedBy: "\n").last { $0.contains("string") } ?? "" : ""
    }

    /// Stops every process started here, by its pid, last started first, and removes the files.
    func stop() {
        processes.reversed().forEach(Self.end)
        if group > 0 {
            // What the processes left behind in the group (reparented to init): by the group's id.
            kill(-group, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while kill(-group, 0) == 0 && Date() < deadline { usleep(20_000) }
            if kill(-group, 0) == 0 { kill(-group, SIGKILL) }
        }
        processes = []
        try? FileManager.default.removeItem(at: root)
    }

    /// Stops one child by its pid and reaps it: SIGTERM, SIGKILL after 3 s.
    private static func end(_ pid: pid_t) {
        guard pid > 0 else { return }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) != 0 { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if waitpid(pid, &status, WNOHANG) != 0 { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    func monitorText() -> String {
        String(decoding: (try? Data(contentsOf: monitorLog)) ?? Data(), as: UTF8.self)
    }

    func monitorRecords(_ member: String) -> [DesktopSession.MonitorRecord] {
        DesktopSession.monitorRecords(member, in: monitorText())
    }

    // MARK: - The screen

    /// The banners on screen (x, y, width, height): the visible windows smaller than the screen, as Xvfb has no
    /// window manager and no other program draws; xfce4-notifyd also keeps a 10×10 window of its own.
    func banners() -> [(x: Int, y: Int, width: Int, height: Int)] {
        let windows = run("xdotool", ["search", "--onlyvisible", "--name", ""]).stdout.split(separator: "\n")
        return windows.compactMap { window in
            var values: [String: Int] = [:]
            for line in run("xdotool", ["getwindowgeometry", "--shell", String(window)]).stdout.split(separator: "\n") {
                let pair = line.split(separator: "=")
                if pair.count == 2 { values[String(pair[0])] = Int(pair[1]) }
            }
            guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"], let height = values["HEIGHT"],
                  height > 50, width < 1000 else { return nil }
            return (x, y, width, height)
        }
    }

    /// Clicks the last button of the one banner on screen: xfce4-notifyd puts the buttons in a row at the
    /// bottom, right-aligned.
    func clickLastButton() throws {
        let banner = try XCTUnwrap(banners().first, "no banner on screen")
        click(x: banner.x + banner.width - 34, y: banner.y + banner.height - 15)
    }

    /// Clicks the banner beside its buttons: xfce4-notifyd invokes the `default` action. (A click on the summary
    /// at the top dismisses the banner instead, without an action.)
    func clickBody() throws {
        let banner = try XCTUnwrap(banners().first, "no banner on screen")
        click(x: banner.x + 50, y: banner.y + banner.height - 15)
    }

    private func click(x: Int, y: Int) {
        _ = run("xdotool", ["mousemove", String(x), String(y), "click", "1"])
    }

    // MARK: - Processes

    func cronEnvironment() -> [String: String] {
        ["HOME": NSHomeDirectory(), "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
         "XDG_RUNTIME_DIR": runtimeDirectory.path, "TZ": "UTC"]
    }

    /// Runs a helper program to its end on this session's bus and display.
    @discardableResult
    func run(_ program: String, _ arguments: [String]) -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.find(program) ?? program)
        process.arguments = arguments
        process.environment = environment()
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (-1, "") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The test's environment with this bus and display, and a home of the session's own for the desktop's
    /// settings and caches.
    private func environment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        if kind == .xfce {
            environment["DISPLAY"] = display
        } else {
            environment["DISPLAY"] = nil
            environment["WAYLAND_DISPLAY"] = nil
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBusAddress
            environment["GSETTINGS_BACKEND"] = "memory"
            environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        }
        environment["HOME"] = root.path
        environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = root.appendingPathComponent("cache").path
        environment["NO_AT_BRIDGE"] = "1"   // GTK would have the bus start an accessibility bus of its own
        return environment
    }

    /// Starts a program in the session's process group (posix_spawn, not Foundation's Process, so that its
    /// exit is this session's to reap), with standard output to `output` or nowhere.
    private func launch(_ path: String, _ arguments: [String], output: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, group)   // 0: a new group, led by the first process
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment().map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw NSError(domain: "RealServerSession", code: 3,
                          userInfo: [NSLocalizedDescriptionKey: "cannot start \(path): \(String(cString: strerror(result)))"])
        }
        if group == 0 { group = pid }
        processes.append(pid)
    }

    func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else {
                throw NSError(domain: "RealServerSession", code: 1,
                              userInfo: [NSLocalizedDescriptionKey: "timed out waiting for \(what)"])
            }
            usleep(20_000)
        }
    }
}
