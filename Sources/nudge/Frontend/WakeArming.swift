import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

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

    /// Arms `plan`'s wakes: `nudge.timer` by its next wake, and `nudge-alarm.timer` by its next critical record
    /// where the machine can be woken. A timer that already elapses by then is left alone; one that does not is
    /// replaced by the wakes `upcoming` plans ahead. Throws what kept it from the manager; the hourly run arms them
    /// again.
    static func arm(_ plan: Plan, upcoming: () -> [UpcomingWake]) throws {
        let manager = try UserManager.connect()
        let canWakeMachine = capability(of: manager).canWakeMachine
        let wake = needsArming(SystemdWake.timerName, by: SystemdWake.next(plan), manager)
        // Where the machine cannot wake, a timer with WakeSystem= would fail: none is kept.
        let alarm = canWakeMachine
            ? SystemdWake.nextCritical(plan).map { needsArming(SystemdWake.alarmTimerName, by: $0, manager) } ?? false
            : needsArming(SystemdWake.alarmTimerName, by: nil, manager)
        guard wake || alarm else { return }
        let wakes = SystemdWake(upcoming: upcoming(), canWakeMachine: canWakeMachine)
        if wake { try manager.replace(SystemdWake.timerName, with: wakes?.instants ?? [], wakeSystem: false) }
        if alarm { try manager.replace(SystemdWake.alarmTimerName, with: wakes?.alarmInstants ?? [], wakeSystem: true) }
    }

    /// Whether the timer `name` must be armed anew to elapse by `instant`; with nil (nothing ahead), whether one
    /// is left to remove. A timer that cannot be read is armed anew: a wake too many costs two journal lines, a
    /// wake missing costs a delivery.
    private static func needsArming(_ name: String, by instant: Date?, _ manager: UserManager) -> Bool {
        let armed: ArmedTimer?
        do {
            armed = try manager.armedTimer(name)
        } catch {
            return true
        }
        guard let instant else { return armed != nil }
        return armed?.wakes(by: instant) != true
    }
}
