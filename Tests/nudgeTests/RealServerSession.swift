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
    private var processes: [Process] = []
    private(set) var server: Process?

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
                   output: FileHandle(forWritingTo: monitorLog))
        try waitUntil("dbus-monitor") { self.monitorText().contains("NameAcquired") }
    }

    private func startServer() throws {
        try launch(serverPath, kind == .gnome ? ["--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800"] : [])
        server = processes.last
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
        if let old = server, old.isRunning {
            kill(old.processIdentifier, SIGTERM)
            old.waitUntilExit()
        }
        try startServer()
    }

    /// Stops every process started here, by its pid, last started first, and removes the files.
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

    private func launch(_ path: String, _ arguments: [String], output: FileHandle? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        processes.append(process)
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
