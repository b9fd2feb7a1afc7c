/// The calls nudge makes on the systemd user manager (`org.freedesktop.systemd1.Manager`) to arm its wakes
/// (docs/systemd.md), as messages ready to number and send on the manager's private socket.
public enum SystemdManagerBus {
    public static let name = "org.freedesktop.systemd1"
    static let path = "/org/freedesktop/systemd1"
    static let interface = "org.freedesktop.systemd1.Manager"
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
}
