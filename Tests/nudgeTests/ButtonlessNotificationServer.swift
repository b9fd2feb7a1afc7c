import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A notification server without buttons, on a private session bus of the test's own: a few lines of Python
/// (Debian's python3-dbus and python3-gi) that answer GetCapabilities without "actions" and log every Notify
/// and CloseNotification as a JSON line. Stands for the small servers that draw no buttons. Every process is
/// started here and stopped by its pid.
final class ButtonlessNotificationServer {
    static let python = "/usr/bin/python3"
    static let script = #"""
        import json, sys
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        log = open(sys.argv[1], "a")
        INTERFACE = "org.freedesktop.Notifications"

        class Server(dbus.service.Object):
            def __init__(self, bus):
                super().__init__(bus, "/org/freedesktop/Notifications")
                self.last = 0

            def record(self, entry):
                log.write(json.dumps(entry) + "\n")
                log.flush()

            @dbus.service.method(INTERFACE, out_signature="as")
            def GetCapabilities(self):
                return ["body"]

            @dbus.service.method(INTERFACE, out_signature="ssss")
            def GetServerInformation(self):
                return ("plain-notifier", "nudge tests", "1.0", "1.2")

            @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u")
            def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
                self.last += 1
                self.record({"call": "Notify", "id": self.last, "app": str(app), "summary": str(summary),
                             "body": str(body), "actions": [str(a) for a in actions],
                             "urgency": int(hints.get("urgency", -1)), "timeout": int(timeout)})
                return self.last

            @dbus.service.method(INTERFACE, in_signature="u")
            def CloseNotification(self, number):
                self.record({"call": "CloseNotification", "id": int(number)})

        bus = dbus.SessionBus()
        name = dbus.service.BusName("org.freedesktop.Notifications", bus)
        server = Server(bus)
        server.record({"call": "ready"})
        GLib.MainLoop().run()
        """#

    let root: URL
    let runtimeDirectory: URL
    var busAddress: String { "unix:path=\(runtimeDirectory.path)/bus" }
    private let log: URL
    private var processes: [Process] = []

    /// Starts the bus and the server, or skips the test with the reason when a part is missing.
    init() throws {
        guard ExternalTool.find("dbus-daemon") != nil, Self.pythonHasDBus() else {
            throw XCTSkip("no buttonless test server here: dbus-daemon, or python3 with its dbus and gi modules, is "
                + "not installed (Debian packages dbus, python3-dbus, python3-gi; .ci/run installs them)")
        }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-plain-\(UUID().uuidString)")
        runtimeDirectory = root.appendingPathComponent("run")
        log = root.appendingPathComponent("calls.jsonl")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    private static func pythonHasDBus() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import dbus, dbus.mainloop.glib, gi.repository.GLib"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    private func start() throws {
        try launch(ExternalTool.find("dbus-daemon") ?? "dbus-daemon",
                   ["--session", "--nofork", "--nopidfile", "--address=\(busAddress)"])
        try waitUntil("the session bus") { FileManager.default.fileExists(atPath: self.runtimeDirectory.path + "/bus") }
        let script = root.appendingPathComponent("server.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let errors = root.appendingPathComponent("server.err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        try launch(Self.python, [script.path, log.path], errors: FileHandle(forWritingTo: errors))
        try waitUntil("the test server on the bus (\(errors.path))") { !self.calls("ready").isEmpty }
    }

    /// Every call logged so far, oldest first.
    func calls(_ name: String) -> [[String: Any]] {
        let text = (try? String(contentsOf: log)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["call"] as? String == name }
    }

    /// The environment cron gives a job, with the runtime directory of this bus.
    func cronEnvironment() -> [String: String] {
        ["HOME": NSHomeDirectory(), "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
         "XDG_RUNTIME_DIR": runtimeDirectory.path, "TZ": "UTC"]
    }

    /// Stops every process started here, by its pid, last started first, and removes the files.
    func stop() {
        for process in processes.reversed() where process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        processes = []
        try? FileManager.default.removeItem(at: root)
    }

    private func launch(_ path: String, _ arguments: [String], errors: FileHandle? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        processes.append(process)
    }

    func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else {
                throw NSError(domain: "ButtonlessNotificationServer", code: 2,
                              userInfo: [NSLocalizedDescriptionKey: "timed out waiting for \(what)"])
            }
            usleep(20_000)
        }
    }
}
