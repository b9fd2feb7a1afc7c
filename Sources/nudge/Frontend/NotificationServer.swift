import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The notification server of the desktop session, as `nudge check` describes it: its name and version, and
/// whether it draws buttons (the `actions` capability).
struct NotificationServer {
    /// How long `check` waits for the bus and the server.
    static let timeout: Double = 3
    /// Asked without starting a server: `check` must not launch one that the session does not run.
    static let noAutoStart: UInt8 = 0x2

    var name: String
    var capabilities: [String]
    var offersButtons: Bool { capabilities.contains("actions") }

    /// The server running on the session bus now; nil without a bus or a server.
    static func running(environment: [String: String]) -> NotificationServer? {
        guard case .success(let session) = DesktopChannel.sessionEnvironment(environment),
              case .success(let connection) = BusConnection.open(address: session["DBUS_SESSION_BUS_ADDRESS"] ?? "",
                                                                 timeout: timeout) else { return nil }
        let deadline = Deadline(after: timeout)
        var information = NotificationsBus.getServerInformation()
        information.flags |= noAutoStart
        var asked = NotificationsBus.getCapabilities()
        asked.flags |= noAutoStart
        guard let about = try? connection.call(information, until: deadline).body.compactMap(\.string),
              let capabilities = try? connection.call(asked, until: deadline).body.first?.strings else { return nil }
        let name = about.count >= 3 ? "\(about[0]) \(about[2])" : about.first ?? "unknown"
        return NotificationServer(name: name, capabilities: capabilities)
    }
}
