import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The systemd user manager, reached on its private socket (`$XDG_RUNTIME_DIR/systemd/private`) as
/// `systemctl --user` reaches it: nudge arms its wakes there as transient timers (docs/systemd.md).
final class UserManager {
    struct Unreachable: Error, CustomStringConvertible {
        let description: String
    }

    private let connection: BusConnection
    /// How long one call may take: the manager answers at once unless it is busy starting a unit.
    private static let callTimeout = 5.0

    private init(connection: BusConnection) {
        self.connection = connection
    }

    /// The manager of this login, or why there is none.
    static func connect() throws -> UserManager {
        guard let runtime = ProcessEnvironment.variable("XDG_RUNTIME_DIR"), !runtime.isEmpty else {
            throw Unreachable(description: "XDG_RUNTIME_DIR is not set, so no systemd user manager can be reached")
        }
        let socket = runtime + "/systemd/private"
        switch BusConnection.open(address: "unix:path=" + socket, timeout: callTimeout, hello: false) {
        case .success(let connection): return UserManager(connection: connection)
        case .failure(let failure):
            throw Unreachable(description: "the systemd user manager at \(socket) does not answer (\(failure))")
        }
    }

    /// Starts the transient unit `name` with `properties`; throws `UnitExists` while one of that name is loaded.
    func startTransientUnit(_ name: String, properties: [(String, DBusValue)]) throws {
        _ = try connection.call(SystemdManagerBus.startTransientUnit(name, properties: properties),
                                until: Deadline(after: Self.callTimeout))
    }

    /// Moves the processes `pids` out of their unit into `unit`, which must be active and have `Delegate=yes`.
    func attach(_ pids: [pid_t], to unit: String) throws {
        _ = try connection.call(SystemdManagerBus.attachProcesses(pids, to: unit),
                                until: Deadline(after: Self.callTimeout))
    }

    /// The manager's effective capabilities (`CapEff` of its process), nil when they cannot be read.
    func capabilities() -> UInt64? {
        guard let pid = connection.peerPID(),
              case .success(let bytes) = PosixFile.contents(of: "/proc/\(pid)/status"),
              let status = String(validating: bytes, as: UTF8.self) else { return nil }
        return WakeCapability.effectiveCapabilities(status: status)
    }

    /// Replaces the transient timer `name` with one that elapses at each of `instants`; with none, only removes
    /// it. The manager logs "Stopped"/"Started" lines for it at info, which is why a run first asks `armedTimer`.
    func replace(_ name: String, with instants: [Date], wakeSystem: Bool) throws {
        let deadline = Deadline(after: Self.callTimeout)
        // The previous wake: still waiting, or failed (a failed unit stays loaded until reset).
        for call in [SystemdManagerBus.stopUnit(name), SystemdManagerBus.resetFailedUnit(name)] {
            _ = try? connection.call(call, until: deadline)
        }
        guard !instants.isEmpty else { return }
        let start = SystemdManagerBus.startTransientUnit(
            name, properties: SystemdWake.timerProperties(at: instants, wakeSystem: wakeSystem))
        do {
            _ = try connection.call(start, until: deadline)
        } catch BusConnection.Failure.error(SystemdManagerBus.unitExists, _) {
            // The stopped timer is unloaded when the manager collects it: wait for that, then arm once more.
            try waitUntilGone(name, until: deadline)
            _ = try connection.call(start, until: deadline)
        }
    }

    /// The timer loaded as `name`, nil when there is none.
    func armedTimer(_ name: String) throws -> ArmedTimer? {
        let deadline = Deadline(after: Self.callTimeout)
        let unit: DBusMessage
        do {
            unit = try connection.call(SystemdManagerBus.getUnit(name), until: deadline)
        } catch BusConnection.Failure.error(SystemdManagerBus.noSuchUnit, _) {
            return nil
        }
        guard let path = unit.body.first?.string else { return nil }
        let state = try connection.call(
            SystemdManagerBus.property("ActiveState", of: path, interface: SystemdManagerBus.unitInterface),
            until: deadline)
        guard case .variant(.string(let activeState))? = state.body.first else { return nil }
        let timer = try connection.call(
            SystemdManagerBus.allProperties(of: path, interface: SystemdManagerBus.timerInterface), until: deadline)
        return ArmedTimer(activeState: activeState, timer: SystemdManagerBus.properties(timer))
    }

    private func waitUntilGone(_ name: String, until deadline: Deadline) throws {
        while !deadline.hasPassed {
            do {
                _ = try connection.call(SystemdManagerBus.getUnit(name), until: deadline)
            } catch BusConnection.Failure.error(SystemdManagerBus.noSuchUnit, _) {
                return
            }
            usleep(10_000)
        }
        throw BusConnection.Failure.timedOut("the removal of \(name)")
    }
}
