import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// Closes the notifications that killed waiters left on screen, buttons and all (docs/desktop.md, "A waiter that is
/// gone"), from the run's own connection to the session bus. GNOME Shell forgets which connection created a
/// notification once that connection is gone, and then takes a close from any; every other server takes one from
/// any connection anyway. The close goes to the unique name of the server that showed it, on the same bus
/// instance: a server started again, which numbers from 1 again, has another name, and the bus refuses the call
/// instead of handing the number to it; a bus started again has another id, and nothing is sent there.
final class OrphanCloser {
    /// How long the bus and the server may take to answer each call.
    static let timeout: Double = 3

    private enum Bus {
        case connected(BusConnection, id: String)
        /// No session bus, or none at its address: the desktop session and its notifications are gone.
        case gone
        /// A bus that does not answer now.
        case unanswered
    }

    private var bus: Bus?

    /// Whether nothing of `held` is left on screen: closed now, or gone with its server or its bus. false when
    /// that cannot be told now (the bus does not answer, the server refuses): the next run tries again, until
    /// the notification's expiry has passed.
    func close(_ held: HeldNotification, now: Date) -> Bool {
        switch connect() {
        case .gone:
            return true
        case .unanswered:
            return now > held.expiresAt
        case .connected(let connection, let id):
            guard id == held.busID else { return true }
            do {
                _ = try connection.call(NotificationsBus.closeNotification(held.number, server: held.server),
                                        until: Deadline(after: Self.timeout))
                return true
            } catch BusConnection.Failure.error(let name, _) where NotificationsBus.isNoOwnerError(name) {
                return true
            } catch {
                return now > held.expiresAt
            }
        }
    }

    /// The run's connection and the bus's id, made at the first close.
    private func connect() -> Bus {
        if let bus { return bus }
        let made: Bus
        switch DesktopChannel.sessionEnvironment(ProcessEnvironment.all()) {
        case .failure:
            made = .gone
        case .success(let environment):
            switch BusConnection.open(address: environment["DBUS_SESSION_BUS_ADDRESS"] ?? "", timeout: Self.timeout) {
            case .success(let connection):
                let id = try? connection.call(NotificationsBus.getID(), until: Deadline(after: Self.timeout))
                made = id?.body.first?.string.map { .connected(connection, id: $0) } ?? .unanswered
            case .failure(.system), .failure(.address), .failure(.noBus):
                made = .gone
            case .failure:
                made = .unanswered
            }
        }
        bus = made
        return made
    }
}
