/// The calls nudge makes on the session bus (the freedesktop notification specification, version 1.2, and the
/// bus's own interface), as messages ready to number and send.
public enum NotificationsBus {
    public static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    static let bus = "org.freedesktop.DBus"

    /// The signals a waiter listens to: clicks and closings of the server's notifications, and the server's
    /// name changing owner (it stopped, or another server took over and reuses the numbers).
    public static let matchRules = [
        "type='signal',interface='\(interface)',path='\(path)'",
        "type='signal',sender='\(bus)',interface='\(bus)',member='NameOwnerChanged',arg0='\(name)'",
    ]

    private static func busCall(_ member: String, _ body: [DBusValue] = []) -> DBusMessage {
        DBusMessage(kind: .methodCall, path: "/org/freedesktop/DBus", interface: bus, member: member,
                    destination: bus, body: body)
    }

    /// The first call on a connection: the bus answers with the connection's unique name.
    public static func hello() -> DBusMessage { busCall("Hello") }

    public static func addMatch(_ rule: String) -> DBusMessage { busCall("AddMatch", [.string(rule)]) }

    /// The bus instance's id, answered with `s`: a bus started again (a new login) has another, and may hand the
    /// same unique names to other programs.
    public static func getID() -> DBusMessage { busCall("GetId") }

    private static func serverCall(_ member: String, _ body: [DBusValue] = [], to destination: String) -> DBusMessage {
        DBusMessage(kind: .methodCall, path: path, interface: interface, member: member, destination: destination,
                    body: body)
    }

    /// What the server can do ("actions", "body-markup", "sound", …); answered with `as`.
    public static func getCapabilities(to destination: String = name) -> DBusMessage {
        serverCall("GetCapabilities", to: destination)
    }

    /// Name, vendor, version and specification version of the server; answered with `ssss`.
    public static func getServerInformation(to destination: String = name) -> DBusMessage {
        serverCall("GetServerInformation", to: destination)
    }

    /// Closes a notification. Sent to the server's unique name (`:1.7`), not to the well-known name: if that
    /// server is gone, the bus refuses the call instead of handing the number to whoever shows notifications now.
    public static func closeNotification(_ id: UInt32, server: String) -> DBusMessage {
        serverCall("CloseNotification", [.uint32(id)], to: server)
    }

    /// Whether an error reply says that the call's destination is no longer on the bus (a server that stopped).
    public static func isNoOwnerError(_ name: String) -> Bool {
        ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner"].contains(name)
    }

    /// `Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)`.
    public static func notify(_ request: NotifyRequest, capabilities: [String]) -> DBusMessage {
        serverCall("Notify", request.body(capabilities: capabilities), to: name)
    }

    /// The unique name of a signal's or reply's sender, checked against the server's.
    static func isServerSignal(_ message: DBusMessage, _ member: String, server: String) -> Bool {
        message.kind == .signal && message.sender == server && message.interface == interface
            && message.member == member && message.path == path
    }
}
