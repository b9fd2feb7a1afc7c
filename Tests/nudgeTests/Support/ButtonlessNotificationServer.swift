import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A notification server without buttons, on a private session bus of the test's own: a few lines of Python
/// (Debian's python3-dbus and python3-gi) that answer GetCapabilities without "actions" and log every Notify
/// (with its hints) and CloseNotification as a JSON line. Stands for the small servers that draw no buttons.
/// While `refuse` says so, it answers Notify with an error, as a broken server does. Every process is started
/// here and stopped by its pid.
final class ButtonlessNotificationServer {
    static let python = DebianPython.path
    static let script = #"""
        import json, os, sys
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
                if os.path.exists(sys.argv[1] + ".refuse"):
                    self.record({"call": "Refused", "summary": str(summary)})
                    raise dbus.exceptions.DBusException("the test server refuses", name=INTERFACE + ".Error.Test")
                self.last += 1
                self.record({"call": "Notify", "id": self.last, "app": str(app), "icon": str(icon),
                             "summary": str(summary), "body": str(body), "actions": [str(a) for a in actions],
                             "urgency": int(hints.get("urgency", -1)), "category": str(hints.get("category", "")),
                             "sound-name": str(hints["sound-name"]) if "sound-name" in hints else None,
                             "suppress-sound": bool(hints["suppress-sound"]) if "suppress-sound" in hints else None,
                             "timeout": int(timeout)})
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

    let desktop: PrivateDesktop
    private let log: URL

    /// Starts the bus and the server, or skips the test (fails it under CI) with the reason when a part is missing.
    init() throws {
        guard DebianPython.runs("import dbus, dbus.mainloop.glib, gi.repository.GLib") else {
            throw RealPart.missing("no buttonless test server here: python3 with its dbus and gi modules is not "
                + "installed (Debian packages python3-dbus, python3-gi; .ci/run installs them)")
        }
        desktop = try PrivateDesktop("plain", programs: ["dbus-daemon", "dbus-send"], packages: "dbus, dbus-bin")
        log = desktop.root.appendingPathComponent("calls.jsonl")
        do {
            let script = desktop.root.appendingPathComponent("server.py")
            try Self.script.write(to: script, atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let errors = desktop.root.appendingPathComponent("server.err").path
            let server = try desktop.launch(Self.python, [script.path, log.path], errors: errors)
            try desktop.waitForServer("the test server", pid: server, log: errors)
        } catch {
            desktop.stop()
            throw error
        }
    }

    /// Every call logged so far, oldest first.
    func calls(_ name: String) -> [[String: Any]] {
        let text = (try? String(contentsOf: log)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["call"] as? String == name }
    }

    /// Whether Notify is answered with an error (`org.freedesktop.Notifications.Error.Test`) from now on.
    func refuse(_ refusing: Bool) {
        let flag = log.path + ".refuse"
        if refusing {
            _ = FileManager.default.createFile(atPath: flag, contents: nil)
        } else {
            try? FileManager.default.removeItem(atPath: flag)
        }
    }

    /// The environment cron gives a job, with the runtime directory of this bus.
    func cronEnvironment() -> [String: String] { desktop.cronEnvironment() }

    /// Stops every process started here, by its pid, and removes the files.
    func stop() { desktop.stop() }

    func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) throws {
        try Waiting.until(what, timeout: timeout, condition)
    }
}
