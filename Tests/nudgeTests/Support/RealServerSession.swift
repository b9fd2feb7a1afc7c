import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A desktop's own notification server on a desktop of the test's own (`PrivateDesktop`):
///
/// - Xfce: xfce4-notifyd drawing its banners on Xvfb, clicked by `xdotool` with the pointer, where a person
///   clicks. Its settings daemon (xfconfd) is started by the private bus on demand and ends with it.
/// - notification-daemon (GNOME Flashback's server) the same way on Xvfb.
/// - GNOME: GNOME Shell itself, headless (`--headless --wayland --no-x11 --virtual-monitor`), with a private
///   system bus too and settings in memory, clicked through GNOME's RemoteDesktop pointer (`GnomeShellPointer`).
///   It is the strictest server: only the connection that created a notification may close it while that
///   connection lives.
/// - mako under headless sway, both as an unprivileged user (sway refuses root), clicked with `makoctl invoke`.
final class RealServerSession {
    enum Kind: String {
        case xfce, notificationDaemon = "notification-daemon", gnome, mako

        var programs: [String] {
            switch self {
            case .xfce, .notificationDaemon: return ["Xvfb", "xdotool"] + Self.bus
            case .gnome: return ["gnome-shell", GnomeShellPointer.python] + Self.bus
            case .mako: return ["sway", "mako", "makoctl", "grim", "busctl", "jq", "setpriv"] + Self.bus
            }
        }

        static let bus = ["dbus-daemon", "dbus-monitor", "dbus-send", "gdbus"]

        var serverPaths: [String] {
            switch self {
            case .xfce:
                return ["x86_64-linux-gnu", "aarch64-linux-gnu"].map { "/usr/lib/\($0)/xfce4/notifyd/xfce4-notifyd" }
                    + ["/usr/libexec/xfce4/notifyd/xfce4-notifyd"]
            case .notificationDaemon:
                return ["/usr/lib/notification-daemon/notification-daemon", "/usr/libexec/notification-daemon"]
            case .gnome: return [ExternalTool.find("gnome-shell")].compactMap { $0 }
            case .mako: return [ExternalTool.find("mako")].compactMap { $0 }
            }
        }

        var packages: String {
            switch self {
            case .xfce: return "xfce4-notifyd, xdotool, xvfb, dbus, libglib2.0-bin"
            case .notificationDaemon: return "notification-daemon, xdotool, xvfb, dbus, libglib2.0-bin"
            case .gnome: return "gnome-shell, python3-dbus, python3-gi, dbus, libglib2.0-bin"
            case .mako: return "sway, mako-notifier, grim, jq, systemd, dbus, libglib2.0-bin"
            }
        }
    }

    let kind: Kind
    let desktop: PrivateDesktop
    private let serverPath: String
    private(set) var server: pid_t = 0
    /// sway, under which mako draws.
    private var compositor: pid_t = 0

    /// Starts the session, or skips the test (fails it under CI) with the reason when a part is missing.
    init(_ kind: Kind) throws {
        self.kind = kind
        guard let found = kind.serverPaths.first(where: FileManager.default.isExecutableFile) else {
            throw RealPart.missing("no \(kind.rawValue) notification server here (Debian packages \(kind.packages); "
                + ".ci/run installs them)")
        }
        serverPath = found
        if kind == .gnome && !GnomeShellPointer.isAvailable {
            throw RealPart.missing("no python3 with dbus and gi's GdkPixbuf to click GNOME Shell "
                + "(Debian packages python3-dbus, python3-gi, gir1.2-gdkpixbuf-2.0)")
        }
        var parts = PrivateDesktop.Parts()
        switch kind {
        case .xfce, .notificationDaemon: parts.xvfb = true
        case .gnome: parts.systemBus = true
        case .mako: parts.owner = try TestUser.find()
        }
        desktop = try PrivateDesktop(kind.rawValue, programs: kind.programs, packages: kind.packages, parts: parts)
        do {
            try start()
        } catch {
            desktop.stop()
            throw error
        }
    }

    private func start() throws {
        switch kind {
        case .gnome:
            desktop.serverEnvironment["GSETTINGS_BACKEND"] = "memory"
        case .mako:
            let config = desktop.root.appendingPathComponent("sway.conf")
            _ = FileManager.default.createFile(atPath: config.path, contents: Data())
            desktop.serverEnvironment["WLR_BACKENDS"] = "headless"
            desktop.serverEnvironment["WLR_LIBINPUT_NO_DEVICES"] = "1"
            compositor = try desktop.launch("sway", ["-c", config.path], asOwner: true)
            let socket = desktop.runtimeDirectory.appendingPathComponent("wayland-1").path
            try waitUntil("sway's Wayland socket") { FileManager.default.fileExists(atPath: socket) }
            desktop.serverEnvironment["WAYLAND_DISPLAY"] = "wayland-1"
        case .xfce, .notificationDaemon:
            break
        }
        try startServer()
        try waitForAnswer()
        try desktop.startMonitor()
    }

    /// GNOME Shell holds the name before its JavaScript answers (seconds with llvmpipe on a busy machine, longer
    /// than nudge waits for a server to show a notification): deliver to a shell that answers.
    private func waitForAnswer() throws {
        guard kind == .gnome else { return }
        do {
            try waitUntil("GNOME Shell to answer", timeout: 30) {
                self.run("dbus-send", ["--session", "--print-reply", "--reply-timeout=2000",
                                       "--dest=org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                       "org.freedesktop.Notifications.GetServerInformation"]).status == 0
            }
        } catch {
            let log = (try? String(contentsOfFile: desktop.root.path + "/server.err")) ?? ""
            throw Unanswered(description: "\(error); the name's owner \(desktop.serverOwner()); "
                + "GNOME Shell's last words:\n\(log.suffix(3000))")
        }
    }

    private func startServer() throws {
        let arguments = kind == .gnome ? ["--headless", "--wayland", "--no-x11", "--virtual-monitor", "800x600"] : []
        server = try desktop.launch(serverPath, arguments, errors: desktop.root.appendingPathComponent("server.err").path,
                                    asOwner: kind == .mako)
        try desktop.waitForServer("\(kind.rawValue)'s notification server", pid: server,
                                  log: desktop.root.appendingPathComponent("server.err").path, timeout: 30)
    }

    /// A server that took its name but never answered.
    struct Unanswered: Error, CustomStringConvertible {
        let description: String
    }

    /// A session of `kind`, started again on a new private desktop when the server never answers: headless
    /// GNOME Shell 43 without a session manager now and then stops in its startup on a busy machine (its log
    /// ends after the PolicyKit warning, before "GNOME Shell started"), about one start in ten here.
    static func started(_ kind: Kind, attempts: Int = 3) throws -> RealServerSession {
        for attempt in 1... {
            do {
                return try RealServerSession(kind)
            } catch let error as Unanswered where attempt < attempts {
                print("\(kind.rawValue) did not answer (start \(attempt) of \(attempts)): \(error.description.prefix(200))")
            }
        }
        fatalError("unreachable")
    }

    /// Stops the server by its pid and starts a new one on the same bus and display.
    /// The server stopped and started again (a logout, a crash, an upgrade), answering before this returns. A
    /// GNOME Shell that stops in its startup (see `started`) is started once more, up to three times in all.
    func restartServer(attempts: Int = 3) throws {
        try desktop.stopServer(server)
        for attempt in 1... {
            try startServer()
            do {
                return try waitForAnswer()
            } catch let error as Unanswered where attempt < attempts {
                print("\(kind.rawValue) did not answer after a restart (start \(attempt) of \(attempts)): "
                    + error.description.prefix(200))
                try desktop.stopServer(server)
            }
        }
    }

    func stop() {
        desktop.stop()
    }

    func monitorText() -> String { desktop.monitorText() }

    func monitorRecords(_ member: String) -> [DBusMonitorRecord] { desktop.monitorRecords(member) }

    func cronEnvironment() -> [String: String] { desktop.cronEnvironment() }

    @discardableResult
    func run(_ program: String, _ arguments: [String]) -> (status: Int32, stdout: String) {
        desktop.run(program, arguments)
    }

    func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) throws {
        try Waiting.until(what, timeout: timeout, condition)
    }
}
