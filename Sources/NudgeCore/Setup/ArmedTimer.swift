import FoundationEssentials

/// A wake timer as the systemd user manager holds it, read before a run arms its wakes (docs/systemd.md). Arming
/// replaces the timer, and the manager logs "Stopped …"/"Started …" at info for it: `LogLevelMax=` cannot silence
/// a timer. So a run leaves a timer alone that wakes nudge no later than the plan's next wake, and the journal
/// gets those lines only when the schedule moved earlier or ran out.
public struct ArmedTimer: Equatable, Sendable {
    /// Its `OnCalendar=` instants (`SystemdWake.calendar`), in any order.
    var instants: [Date]
    /// When it last elapsed, nil when it never has.
    var lastTrigger: Date?
    /// Waiting for its next instant, or running the service it started (`ActiveState=active`).
    var isActive: Bool

    init(instants: [Date], lastTrigger: Date?, isActive: Bool) {
        self.instants = instants
        self.lastTrigger = lastTrigger
        self.isActive = isActive
    }

    /// The timer as `GetAll("org.freedesktop.systemd1.Timer")` on its unit answers (`TimersCalendar` a(sst):
    /// base, calendar, next elapse; `LastTriggerUSec` t, 0 when never), and the unit's `ActiveState`. A calendar
    /// nudge did not write counts as no instant.
    public init(activeState: String, timer properties: [String: DBusValue]) {
        var instants: [Date] = []
        if case .array(_, let entries)? = properties["TimersCalendar"] {
            for case .structure(let fields) in entries where fields.count >= 2 {
                if let instant = fields[1].string.flatMap(SystemdWake.instant(calendar:)) { instants.append(instant) }
            }
        }
        var lastTrigger: Date?
        if case .uint64(let microseconds)? = properties["LastTriggerUSec"], microseconds > 0 {
            lastTrigger = Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
        }
        self.init(instants: instants, lastTrigger: lastTrigger, isActive: activeState == "active")
    }

    /// The instant it elapses next: systemd computes a calendar timer's next elapse from its last trigger, so the
    /// first instant after that one, even while the run it started goes on (then at once when the run ends).
    /// Nil when none is left: the manager forgets it after this run.
    var nextElapse: Date? {
        instants.filter { instant in lastTrigger.map { instant > $0 } ?? true }.min()
    }

    /// Whether it wakes nudge at or before `instant`: the run it starts then arms what comes after.
    public func wakes(by instant: Date) -> Bool {
        guard isActive, let next = nextElapse else { return false }
        return next <= instant
    }
}

extension SystemdWake {
    /// The instant of an `OnCalendar=` value that `calendar(_:)` wrote ("2026-10-25 01:00:00 UTC"), as the manager
    /// reports it back; nil for any other calendar.
    static func instant(calendar: String) -> Date? {
        let parts = calendar.split(separator: " ")
        guard parts.count == 3, parts[2] == "UTC", parts[0].count == 10, parts[1].count == 8 else { return nil }
        return RFC3339.parse(parts[0] + "T" + parts[1] + "Z")
    }
}
