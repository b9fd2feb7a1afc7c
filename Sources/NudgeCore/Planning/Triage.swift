import FoundationEssentials

/// Sorts a run's candidate occurrences into due, missed, seen or upcoming, passing over those already handled
/// (docs/design.md, "When a notification is due").
///
/// It holds the run's state while it sorts, since it records the occurrences it finds seen in the ledger, and
/// hands it back at `finish`.
struct Triage {
    var state: RunState
    let now: Date
    let window: DueWindow
    let clock: WallClock
    /// What `Planner.prepare` makes of each candidate before it is sorted.
    let plannedLeaveTimes: [String: Date]
    let quietHours: QuietHours?

    var due: [Notification] = []
    var missed: [(Notification, MissedRecord.Reason)] = []
    /// The next occurrence of each source: the notifications in a list, the index holding only where each
    /// source's is (a table of whole notifications would copy each record in and out).
    var upcoming: [Notification] = []
    private var upcomingIndex: UpcomingIndex
    /// The ledger's ids (`DeliveryMemory.handledFilter`); ids recorded as seen during the run are added as they are.
    private var handled: HandledFilter

    /// The index and the filter are sized up front for `candidates`: each source may have an upcoming occurrence.
    init(state: consuming RunState, sizedFor candidates: Candidates, now: Date, window: DueWindow, clock: WallClock,
         quietHours: QuietHours?) {
        let threads = candidates.oneOffs.count + state.userActions.snoozes.count + state.userActions.timers.count
            + candidates.dailyCount
            + candidates.alarms.count
        plannedLeaveTimes = state.plannedLeaveTimes
        upcomingIndex = UpcomingIndex(capacity: threads)
        handled = state.memory.handledFilter(capacity: threads)
        upcoming.reserveCapacity(threads)
        self.state = state
        self.now = now
        self.window = window
        self.clock = clock
        self.quietHours = quietHours
    }

    /// Considers every candidate of the run, in a fixed order: one-offs, snoozes, timers, the daily series,
    /// the alarms.
    mutating func considerAll(_ candidates: Candidates, of household: Household) {
        // Two loops, not one over `oneOffs + snoozes`: that copy of every one-off was the run's peak memory.
        for candidate in candidates.oneOffs {
            _ = consider(candidate)
        }
        // Snoozes and timers of something gone are dropped, neither delivered nor missed (docs/design.md,
        // "What a run plans"); they obey their kind's switch like the kind's own records: held while it is off.
        state.userActions.snoozes.removeAll(where: household.isGone)
        state.userActions.timers.removeAll(where: household.isGone)
        for snooze in state.userActions.snoozes where household.isSwitchedOn(snooze) {
            _ = consider(snooze)
        }
        for timer in state.userActions.timers where household.isSwitchedOn(timer) {
            _ = consider(timer)
        }
        if let series = candidates.streakReminder { walk(series: series, over: candidates) }
        if let series = candidates.personalized { walk(series: series, over: candidates) }
        walk(alarms: candidates)
    }

    /// Sorts one candidate into due, missed, seen or upcoming; true when it is the source's next occurrence.
    mutating func consider(_ candidate: consuming Notification) -> Bool {
        Planner.prepare(&candidate, plannedLeaveTimes: plannedLeaveTimes, quietHours: quietHours, clock: clock)
        // The source is hashed once, for the filter and the index of upcoming threads.
        let source = Notification.Identity.SourceKey(candidate.source)
        if state.memory.isHandled(candidate, source: source, filter: handled) {
            return false
        }
        if candidate.fireAt > now {
            keepIfNext(candidate, sourceHash: source.hash)
            return true
        }
        switch window.classify(candidate, planned: plannedLeaveTimes[candidate.id]) {
        case .due: due.append(candidate)
        case .expired: missed.append((candidate, .expired))
        case .seen:
            state.memory.record(candidate, .seen, at: now)
            handled.insert(candidate.id)
        case .notDue: break
        }
        return false
    }

    /// Keeps an upcoming `candidate` when it comes before the occurrence of its thread kept so far.
    private mutating func keepIfNext(_ candidate: consuming Notification, sourceHash: UInt64) {
        // One look-up that also reserves the slot when the thread is new, not a look-up then an insert.
        let slot = upcomingIndex.position(of: candidate, sourceHash: sourceHash, in: upcoming, next: upcoming.count)
        if slot == upcoming.count {
            upcoming.append(candidate)
        } else if Planner.comesFirst(candidate, upcoming[slot]) {
            upcoming[slot] = candidate
        }
    }

    /// Walks a daily series date by date only up to its next undelivered occurrence: two or three occurrences
    /// of each alarm, not a week of them.
    private mutating func walk(series: Candidates.Series, over candidates: Candidates) {
        var date = candidates.firstDate
        while date <= candidates.lastDate {
            if let occurrence = series(date), consider(occurrence) { break }
            date = date.adding(days: 1)
        }
    }

    /// Walks each alarm up to its next occurrence. Alarms are critical, which quiet hours never move, so an
    /// occurrence's fireAt is known before its record is built: one already past that is not due is passed over
    /// without building it (`consider` would drop it too), and only the next one and the few due or missed are
    /// built. A whole day long gone (yesterday, in a run every minute) is passed over without timing each alarm
    /// on it.
    private mutating func walk(alarms candidates: Candidates) {
        // The alarms' dates run from the first day that is not passed over to the last day planned.
        var firstAlarmDate = candidates.firstDate
        while firstAlarmDate <= candidates.lastDate,
              window.passesOver(firstAlarmDate, endingAt: clock.endOfDay(firstAlarmDate)) {
            firstAlarmDate = firstAlarmDate.adding(days: 1)
        }
        let now = now, window = window
        let isPassedOver = { (fireAt: Date, expiresAt: Date, recurrence: Notification.Recurrence) in
            fireAt <= now && window.classify(fireAt: fireAt, expiresAt: expiresAt, recurrence: recurrence) == .notDue
        }
        for series in candidates.alarms {
            var from = firstAlarmDate
            while let (occurrence, date) = series.firstOccurrence(
                      from: from, through: candidates.lastDate, clock: clock, prayerTimes: candidates.prayerTimes,
                      isPassedOver: isPassedOver),
                  !consider(occurrence) {
                from = date.adding(days: 1)
            }
        }
    }
}
