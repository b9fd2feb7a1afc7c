/// The calls nudge makes on the systemd user manager (`org.freedesktop.systemd1.Manager`) to arm its wakes
/// (docs/systemd.md), as messages ready to number and send on the manager's private socket.
public enum SystemdManagerBus {
    static let name = "org.freedesktop.systemd1"
    static let path = "/org/freedesktop/systemd1"
    static let interface = "org.freedesktop.systemd1.Manager"
    /// The interfaces of a unit's object whose properties a run reads.
    public static let unitInterface = "org.freedesktop.systemd1.Unit"
    public static let timerInterface = "org.freedesktop.systemd1.Timer"
    /// The error a transient unit's name gets while a unit of that name is still loaded.
    public static let unitExists = "org.freedesktop.systemd1.UnitExists"
    /// The error for a unit the manager does not know (an elapsed transient timer is gone).
    public static let noSuchUnit = "org.freedesktop.systemd1.NoSuchUnit"

    private static func call(_ member: String, _ body: [DBusValue]) -> DBusMessage {
        DBusMessage(kind: .methodCall, path: path, interface: interface, member: member, destination: name,
                    body: body)
    }

    /// `StartTransientUnit(name, "replace", properties, no auxiliary units)`: what `systemd-run` sends.
    public static func startTransientUnit(_ unit: String, properties: [(String, DBusValue)]) -> DBusMessage {
        let entries = properties.map { DBusValue.structure([.string($0.0), .variant($0.1)]) }
        return call("StartTransientUnit", [.string(unit), .string("replace"), .array(element: "(sv)", entries),
                                           .array(element: "(sa(sv))", [])])
    }

    /// `AttachProcessesToUnit(name, "", pids)`: moves processes into an active unit that has `Delegate=yes`.
    public static func attachProcesses(_ pids: [Int32], to unit: String) -> DBusMessage {
        call("AttachProcessesToUnit", [.string(unit), .string(""),
                                       .array(element: "u", pids.map { .uint32(UInt32($0)) })])
    }

    /// `StopUnit(name, "replace")`.
    public static func stopUnit(_ unit: String) -> DBusMessage {
        call("StopUnit", [.string(unit), .string("replace")])
    }

    /// `ResetFailedUnit(name)`: a failed unit stays loaded, under its name, until this.
    public static func resetFailedUnit(_ unit: String) -> DBusMessage {
        call("ResetFailedUnit", [.string(unit)])
    }

    /// `GetUnit(name)`: answered with the unit's object path, or `NoSuchUnit` once it is gone.
    public static func getUnit(_ unit: String) -> DBusMessage {
        call("GetUnit", [.string(unit)])
    }

    /// `Get(interface, property)` on the unit at `unitPath` (what `GetUnit` answered): answered with a variant.
    public static func property(_ property: String, of unitPath: String, interface: String) -> DBusMessage {
        DBusMessage(kind: .methodCall, path: unitPath, interface: propertiesInterface, member: "Get",
                    destination: name, body: [.string(interface), .string(property)])
    }

    /// `GetAll(interface)` on the unit at `unitPath`: answered with an `a{sv}`.
    public static func allProperties(of unitPath: String, interface: String) -> DBusMessage {
        DBusMessage(kind: .methodCall, path: unitPath, interface: propertiesInterface, member: "GetAll",
                    destination: name, body: [.string(interface)])
    }

    private static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// The entries of a `GetAll` answer's `a{sv}`, the variants unwrapped.
    public static func properties(_ reply: DBusMessage) -> [String: DBusValue] {
        guard case .array(_, let entries)? = reply.body.first else { return [:] }
        var properties: [String: DBusValue] = [:]
        for case .dictEntry(.string(let key), .variant(let value)) in entries { properties[key] = value }
        return properties
    }
}
