import FoundationEssentials

/// The timers a run arms in the systemd user manager so that nudge is woken only when something is due
/// (docs/systemd.md): `nudge.timer` at the plan's `nextWakeAt`, and, where the machine can be woken from
/// suspend, `nudge-alarm.timer` at the next critical record with `WakeSystem=`. Both are transient: the manager
/// forgets them once they elapse, and every run arms them afresh from the plan it wrote.
public struct SystemdWake: Equatable, Sendable {
    /// The transient timer of the next wake. It starts `nudge.service`, the unit of the same name.
    public static let timerName = "nudge.timer"
    /// The transient timer that resumes a suspended machine for a critical record. It starts
    /// `nudge-alarm.service`: a timer starts the service of its own name, and a second service keeps the
    /// ordinary schedule apart from one that may fail where the machine cannot wake (docs/systemd.md).
    public static let alarmTimerName = "nudge-alarm.timer"

    /// The next wake, on a whole second and never before the instant the plan asked for.
    public var at: Date
    /// The next critical record's fireAt, when this machine can be woken for it.
    public var alarmAt: Date?

    /// The wake of `plan`, nil when nothing is ahead. `canWakeMachine` says whether a timer with `WakeSystem=`
    /// works here (`WakeCapability`).
    public init?(plan: Plan, canWakeMachine: Bool) {
        guard let next = plan.nextWakeAt else { return nil }
        at = Self.wholeSecond(next)
        guard canWakeMachine else { return }
        let critical = plan.pending.filter { $0.priority == .critical }.map(\.fireAt)
            + plan.deferred.filter { $0.priority == .critical }.map(\.fireAt)
        alarmAt = critical.filter { $0 > plan.generatedAt }.min().map(Self.wholeSecond)
    }

    /// `instant` rounded up to a whole second: a calendar time names seconds, and a wake before its cause
    /// would find nothing due.
    static func wholeSecond(_ instant: Date) -> Date {
        Date(timeIntervalSince1970: instant.timeIntervalSince1970.rounded(.up))
    }

    /// An `OnCalendar=` value for one instant, in UTC: a local calendar time is skipped or doubled when the
    /// clocks change, and systemd reads a zone name written after the time.
    public static func calendar(_ instant: Date) -> String {
        // "2026-10-25T01:00:00Z" → "2026-10-25 01:00:00 UTC"
        let stamp = RFC3339.format(wholeSecond(instant))
        return String(stamp.dropLast()).split(separator: "T").joined(separator: " ") + " UTC"
    }

    /// The properties of a transient timer that elapses once at `instant` (what `systemd-run --on-calendar`
    /// sends): to the second, forgotten once elapsed, and resuming the machine when `wakeSystem` is set.
    public static func timerProperties(at instant: Date, wakeSystem: Bool) -> [(String, DBusValue)] {
        [
            ("Description", .string("nudge: the next run, at " + calendar(instant))),
            ("OnCalendar", .string(calendar(instant))),
            ("AccuracyUSec", .uint64(1_000_000)),
            ("RemainAfterElapse", .boolean(false)),
            ("WakeSystem", .boolean(wakeSystem)),
        ]
    }
}

/// Whether a timer can resume this machine from suspend (`WakeSystem=`), and the one line `nudge check` says
/// about it (docs/systemd.md). systemd arms such a timer on `CLOCK_REALTIME_ALARM`: the kernel must have a
/// real-time clock that can raise an alarm, and the manager must hold `CAP_WAKE_ALARM`. A timer that sets
/// `WakeSystem=` where either is missing fails and never runs, so nudge asks before it sets it.
public enum WakeCapability: Equatable, Sendable {
    case canWake
    /// The kernel answers no alarm clock (no RTC, or a virtual machine without one).
    case noAlarmClock
    /// No systemd user manager answered, or the data directory's runs are not `nudge run --systemd`: cron or a
    /// timer every minute cannot wake a machine.
    case noManager
    /// The user manager lacks `CAP_WAKE_ALARM`, as user managers do unless pam_systemd grants it.
    case managerWithoutCapability

    /// What the probes found: whether `clock_gettime(CLOCK_REALTIME_ALARM)` works, and the user manager's
    /// effective capabilities (nil when none answered).
    public init(alarmClock: Bool, managerCapabilities: UInt64?) {
        guard alarmClock else { self = .noAlarmClock; return }
        // Without the clock nothing wakes the machine; with it, what is missing is the manager's part.
        guard let capabilities = managerCapabilities else { self = .noManager; return }
        self = capabilities & (1 << Self.wakeAlarmBit) != 0 ? .canWake : .managerWithoutCapability
    }

    /// The `CapEff:` set of a `/proc/PID/status` text (hexadecimal), nil when it has none.
    public static func effectiveCapabilities(status: String) -> UInt64? {
        for line in status.split(separator: "\n") where line.hasPrefix("CapEff:") {
            return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.flatMap { UInt64($0, radix: 16) }
        }
        return nil
    }

    /// `CAP_WAKE_ALARM` in a capability set (linux/capability.h).
    public static let wakeAlarmBit: UInt64 = 35

    public var canWakeMachine: Bool { self == .canWake }

    /// `nudge check`'s line.
    public var checkLine: String {
        switch self {
        case .canWake:
            return "critical alarms wake this machine from suspend (nudge-alarm.timer sets WakeSystem=)"
        case .noAlarmClock:
            return "critical alarms cannot wake this machine from suspend: it has no alarm-capable real-time "
                + "clock (CLOCK_REALTIME_ALARM); they ring when it resumes"
        case .noManager:
            return "critical alarms cannot wake this machine from suspend: no systemd user manager wakes nudge "
                + "(cron cannot wake a machine); `nudge init --systemd` writes the units that can"
        case .managerWithoutCapability:
            return "a user manager without CAP_WAKE_ALARM cannot wake a suspended machine: grant it with "
                + "pam_systemd's default-capability-ambient-set=CAP_WAKE_ALARM (systemd 254 or later); until then "
                + "critical alarms ring when it resumes"
        }
    }
}
