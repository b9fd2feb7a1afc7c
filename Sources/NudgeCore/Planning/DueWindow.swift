import FoundationEssentials

/// Decides, for an occurrence whose fireAt is not after now, whether this run delivers it (docs/design.md,
/// "When a notification is due").
struct DueWindow {
    enum Verdict {
        /// Deliver now.
        case due
        /// Fell due since the previous run but expired undelivered: record as missed.
        case expired
        /// A one-off already past when a run first sees it: older than now on the first run ever, or expired when
        /// it appeared (written with a past time). Recorded so that it is never announced, also after a clock set
        /// back into its time to ring: only one set back before its fireAt makes it due again (docs/promises.md).
        case seen
        /// Nothing to do: a daily repeat that fell due before the previous run. It needs no record: each later
        /// run's previous run is after it too, until a clock set back before its fireAt makes it due at that time
        /// again (docs/promises.md).
        case notDue
    }

    let now: Date
    /// The previous run's `now`; nil on the first run.
    let previousNow: Date?
    /// The previous run's wall-clock reading, only when the zone changed since (travel).
    let previousLocal: LocalDateTime?

    /// `previousZone`: the zone `previous.timeZone` names, nil when it is unknown.
    init(previous: RunState?, now: Date, zone: Zone, previousZone: Zone?) {
        self.now = now
        previousNow = previous?.lastRunAt
        if let previousNow, let previousZone, previous?.timeZone != zone.identifier {
            previousLocal = WallClock(zone: previousZone).localDateTime(of: previousNow)
        } else {
            previousLocal = nil
        }
    }

    /// `planned`: the fireAt the previous run planned the occurrence at (a leave-time's, kept for the hysteresis),
    /// nil when it planned none. A one-off falls due between the runs when that time passed between them: one
    /// an edit or a zone change since moved from ahead of now into the past fell due at no run's time, as in a
    /// run every minute, so whenever the run before came (a run woken only when something is due comes hours
    /// earlier), it is due if unexpired and seen if expired, never missed.
    func classify(_ occurrence: Notification, planned: Date? = nil) -> Verdict {
        if let planned, let previousNow, occurrence.recurrence == .once {
            let fellDueSinceLastRun = planned > previousNow && planned <= now
            if now > occurrence.expiresAt { return fellDueSinceLastRun ? .expired : .seen }
            return .due
        }
        return classify(fireAt: occurrence.fireAt, expiresAt: occurrence.expiresAt,
                        recurrence: occurrence.recurrence)
    }

    /// The same from an occurrence's timing alone, for the planner to pass over one before building its record.
    func classify(fireAt: Date, expiresAt: Date, recurrence: Notification.Recurrence) -> Verdict {
        guard let previousNow else {
            // First run: nothing older than now is announced.
            if fireAt == now { return .due }
            return recurrence == .once ? .seen : .notDue
        }
        let fellDueSinceLastRun: Bool
        switch recurrence {
        case .once:
            fellDueSinceLastRun = fireAt > previousNow
        case let .daily(date, time):
            fellDueSinceLastRun = fireAt > previousNow || isAfterPreviousWallClock(date, time)
            if !fellDueSinceLastRun { return .notDue }
        }
        if now > expiresAt {
            if fellDueSinceLastRun { return .expired }
            return recurrence == .once ? .seen : .notDue
        }
        return .due
    }

    /// Whether every daily occurrence on `date` that fires no later than `end` (the end of that local day, which
    /// no occurrence of it follows unless quiet hours move it) is neither upcoming nor due nor missed: the day
    /// ended before now and before the previous run, and travel did not make its wall-clock times fall due again.
    /// The planner then passes over the date without timing each alarm on it.
    func passesOver(_ date: LocalDate, endingAt end: Date) -> Bool {
        guard end < now else { return false }
        if let previousNow, end >= previousNow { return false }
        if let previousLocal, date >= previousLocal.date { return false }
        return true
    }

    /// After travel east, local times the person's own clock passed between the runs count as fallen due even
    /// though their instants precede the previous run: 05:30 in Tokyo must ring for someone who left Berlin at
    /// 22:00. The occurrence id (one per local date) keeps them from ringing twice after travel west. The date
    /// and time are those the occurrence rings at: a message that quiet hours moved from 23:30 to 07:00 the next
    /// morning is passed at 07:00 (`QuietHours.moving` moves its recurrence with it).
    private func isAfterPreviousWallClock(_ date: LocalDate, _ time: WallTime) -> Bool {
        guard let previousLocal else { return false }
        let occurrence = LocalDateTime(date: date, time: time)
        return occurrence > previousLocal
    }
}
