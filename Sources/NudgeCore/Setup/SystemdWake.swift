import FoundationEssentials

/// The timers a run arms in the systemd user manager so that nudge is woken only when something is due
/// (docs/systemd.md): `nudge.timer` at the plan's `nextWakeAt`, and, where the machine can be woken from
/// suspend, `nudge-alarm.timer` at the critical records with `WakeSystem=`. Both are transient: the manager
/// forgets them once their last instant has elapsed.
///
/// Each timer carries the wakes after the first that planning ahead finds (`Planner.upcomingWakes`), so that the run
/// it starts finds the next one armed and leaves the timer alone: arming adds the manager's "Stopped"/"Started"
/// lines to the journal, and an ordinary run adds none (`ArmedTimer`).
public struct SystemdWake: Equatable, Sendable {
    /// The transient timer of the next wake. It starts `nudge.service`, the unit of the same name.
    public static let timerName = "nudge.timer"
    /// The transient timer that resumes a suspended machine for a critical record. It starts
    /// `nudge-alarm.service`: a timer starts the service of its own name, and a second service keeps the
    /// ordinary schedule apart from one that may fail where the machine cannot wake (docs/systemd.md).
    public static let alarmTimerName = "nudge-alarm.timer"
    /// How many wakes one timer carries: four days of the example household's (docs/systemd.md). A timer with
    /// none left is armed afresh by the run its last one starts.
    public static let maximumInstants = 32

    /// The instants `nudge.timer` elapses at, in time order, on whole seconds: the next wake first, never before
    /// the instant the plan asked for.
    public var instants: [Date]
    /// The instants of `nudge-alarm.timer`: the wakes that deliver a critical record, when this machine can be
    /// woken for them.
    public var alarmInstants: [Date]

    /// The wakes of `upcoming` (`Planner.upcomingWakes`), nil when nothing is ahead. `canWakeMachine` says
    /// whether a timer with `WakeSystem=` works here (`WakeCapability`).
    public init?(upcoming: [UpcomingWake], canWakeMachine: Bool) {
        guard !upcoming.isEmpty else { return nil }
        instants = Self.distinct(upcoming.map(\.at))
        alarmInstants = canWakeMachine ? Self.distinct(upcoming.filter(\.isCritical).map(\.at)) : []
    }

    /// The next wake of `plan`: what the timer armed must elapse by.
    public static func next(_ plan: Plan) -> Date? {
        plan.nextWakeAt.map(wholeSecond)
    }

    /// The next critical record of `plan`, where the machine can be woken for it: what the alarm timer armed
    /// must elapse by. Nil when the plan has none (the alarm timer then stays as armed).
    public static func nextCritical(_ plan: Plan) -> Date? {
        let critical = plan.pending.filter { $0.priority == .critical }.map(\.fireAt)
            + plan.deferred.filter { $0.priority == .critical }.map(\.fireAt)
        return critical.filter { $0 > plan.generatedAt }.min().map(wholeSecond)
    }

    private static func distinct(_ instants: [Date]) -> [Date] {
        Array(Set(instants.map(wholeSecond)).sorted().prefix(maximumInstants))
    }

    /// `instant` rounded up to a whole second: a calendar time names seconds, and a wake before its cause
    /// would find nothing due.
    static func wholeSecond(_ instant: Date) -> Date {
        Date(timeIntervalSince1970: instant.timeIntervalSince1970.rounded(.up))
    }

    /// An `OnCalendar=` value for one instant, in UTC: a local calendar time is skipped or doubled when the
    /// clocks change, and systemd reads a zone name written after the time.
    static func calendar(_ instant: Date) -> String {
        // "2026-10-25T01:00:00Z" → "2026-10-25 01:00:00 UTC"
        let stamp = RFC3339.format(wholeSecond(instant))
        return String(stamp.dropLast()).split(separator: "T").joined(separator: " ") + " UTC"
    }

    /// The properties of a transient timer that elapses at each of `instants`: to the second, forgotten once the
    /// last has elapsed, and resuming the machine when `wakeSystem` is set. The instants go in one
    /// `TimersCalendar` list of `OnCalendar` entries: the property `OnCalendar` itself (what `systemd-run
    /// --on-calendar` sends) makes the manager log a notice "obsolete OnCalendar= transient property" for each
    /// entry at every arming (docs/systemd.md).
    public static func timerProperties(at instants: [Date], wakeSystem: Bool) -> [(String, DBusValue)] {
        [("Description", .string("nudge: runs when something is due")),
         ("TimersCalendar", .array(element: "(ss)", instants.map {
             .structure([.string("OnCalendar"), .string(calendar($0))])
         }))]
            + [
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
    static let wakeAlarmBit: UInt64 = 35

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
