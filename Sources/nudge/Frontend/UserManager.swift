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

    /// The manager's effective capabilities (`CapEff` of its process), nil when they cannot be read.
    func capabilities() -> UInt64? {
        guard let pid = connection.peerPID(),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return WakeCapability.effectiveCapabilities(status: status)
    }

    /// Arms the transient timer `name` to elapse once at `instant`, replacing the one armed before; with nil,
    /// only removes it.
    func arm(_ name: String, at instant: Date?, wakeSystem: Bool) throws {
        let deadline = Date().addingTimeInterval(Self.callTimeout)
        // The previous wake: still waiting, or failed (a failed unit stays loaded until reset).
        for call in [SystemdManagerBus.stopUnit(name), SystemdManagerBus.resetFailedUnit(name)] {
            _ = try? connection.call(call, until: deadline)
        }
        guard let instant else { return }
        let start = SystemdManagerBus.startTransientUnit(
            name, properties: SystemdWake.timerProperties(at: instant, wakeSystem: wakeSystem))
        do {
            _ = try connection.call(start, until: deadline)
        } catch BusConnection.Failure.error(SystemdManagerBus.unitExists, _) {
            // The stopped timer is unloaded when the manager collects it: wait for that, then arm once more.
            try waitUntilGone(name, until: deadline)
            _ = try connection.call(start, until: deadline)
        }
    }

    private func waitUntilGone(_ name: String, until deadline: Date) throws {
        while Date() < deadline {
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

/// Arms the wakes of a plan in the user manager after a run or an edit wrote it (docs/systemd.md).
enum WakeArming {
    /// `CLOCK_REALTIME_ALARM` (linux/time.h).
    private static let realtimeAlarm = clockid_t(8)

    /// Whether the kernel has an alarm clock that can resume the machine: what systemd needs for
    /// `WakeSystem=`. `NUDGE_ALARM_CLOCK=yes` makes nudge take it as there (a test on a machine without one
    /// shows what the manager does with such a timer; docs/systemd.md).
    static func hasAlarmClock() -> Bool {
        if ProcessEnvironment.variable("NUDGE_ALARM_CLOCK") == "yes" { return true }
        var now = timespec()
        return clock_gettime(realtimeAlarm, &now) == 0
    }

    /// Whether this machine can be woken for a critical record, and why not.
    static func capability(of manager: UserManager?) -> WakeCapability {
        WakeCapability(alarmClock: hasAlarmClock(), managerCapabilities: manager.map { $0.capabilities() ?? 0 })
    }

    /// Arms `plan`'s wakes: `nudge.timer` at its next wake, and `nudge-alarm.timer` at its next critical record
    /// where the machine can be woken. Throws what kept it from the manager; the hourly run arms them again.
    static func arm(_ plan: Plan) throws {
        let manager = try UserManager.connect()
        let capability = capability(of: manager)
        let wake = SystemdWake(plan: plan, canWakeMachine: capability.canWakeMachine)
        try manager.arm(SystemdWake.timerName, at: wake?.at, wakeSystem: false)
        try manager.arm(SystemdWake.alarmTimerName, at: wake?.alarmAt, wakeSystem: true)
    }
}
