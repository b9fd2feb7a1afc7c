import FoundationEssentials

/// The one planning function: user data + previous state + now → plan, deliveries and new state.
public enum Planner {
    /// The instants a run converts between local and UTC time: from the previous run (catching up) or the
    /// oldest travel observation the prediction reads (56 days; the smart reminder reads 30), whichever is
    /// earlier, to a year ahead, with the two days of margin `WallClock` samples around each reading.
    static func plannedSpan(since lastRun: Date?, now: Date) -> Range<Date> {
        let day: TimeInterval = 86_400
        let earliest = min(lastRun ?? now, now.addingTimeInterval(-TravelPrediction.horizon))
        return earliest.addingTimeInterval(-3 * day)..<now.addingTimeInterval(400 * day)
    }

    /// Plans a run at `now` in `zone`.
    ///
    /// Due (docs/design.md, "When a notification is due"): fireAt ≤ now, not in the ledger, not expired. A daily repeat
    /// must also have fallen due since the previous run, so an alarm created after its time waits for tomorrow; a
    /// one-off only needs to be undelivered, so a wash recorded late is announced at once, whatever runs under a clock
    /// set wrong have passed: an outcome is recorded only for what a run produced. The first run ever delivers only
    /// what is due exactly now and records older one-off occurrences as seen, as any run does a one-off that appeared
    /// expired.
    ///
    /// `previousZone` is the zone the previous run planned in (`previous.timeZone`, found by the caller): after
    /// travel, what the person's own clock passed between the runs falls due.
    public static func plan(_ household: Household, previous: RunState?, now: Date, zone: Zone,
                            previousZone: Zone? = nil) -> PlanResult {
        let clock = WallClock(zone: zone, reading: plannedSpan(since: previous?.lastRunAt, now: now))
        var state = previous ?? RunState()
        let window = DueWindow(previous: previous, now: now, zone: zone, previousZone: previousZone)
        state.smartReminder = SmartReminder.update(state.smartReminder, streaks: household.streaks,
                                                   settings: household.settings, now: now, clock: clock)
        // One calendar for the milestones and the streak reminder: placing every play on it is its cost.
        let streakCalendar = household.settings.streaks.enabled ? StreakCalendar(household.streaks, clock: clock) : nil
        if let streakCalendar, !household.settings.streaks.milestones.isEmpty, !household.streaks.games.isEmpty {
            state.milestones = MilestoneRule.update(state.milestones,
                                                    streaks: streakCalendar.streaks(on: clock.localDate(of: now)),
                                                    settings: household.settings, now: now,
                                                    announcing: previous?.lastRunAt != nil)
        }
        let context = Candidates.Context(
            clock: clock, now: now,
            streakReminderTime: SmartReminder.reminderTime(state.smartReminder, settings: household.settings),
            departures: state.departures, milestones: state.milestones, streakCalendar: streakCalendar)
        let candidates = Candidates.collect(household, context: context, since: previous?.lastRunAt ?? now)
        let quietHours = household.settings.quietHours
        let plannedLeaveTimes = state.plannedLeaveTimes
        // After a clock set back: forget what a later clock recorded for occurrences still ahead of it, judged
        // also by this run's instants (docs/promises.md, exactly once).
        if let lastRun = previous?.lastRunAt, now < lastRun {
            let snoozesAndTimers = state.snoozes + state.timers
            state.forgetUndeliveredRecorded(after: now) { id in
                guard var occurrence = snoozesAndTimers.first(where: { $0.id == id })
                        ?? candidates.occurrence(id: id, clock: clock) else { return nil }
                prepare(&occurrence, plannedLeaveTimes: plannedLeaveTimes, quietHours: quietHours, clock: clock)
                return occurrence.fireAt
            }
        }
        var due: [Notification] = []
        var missed: [(Notification, MissedRecord.Reason)] = []
        // The next occurrence of each source: the notifications in a list, the index holding only where each
        // source's is (a table of whole notifications would copy each record in and out). Sized up front.
        var upcoming: [Notification] = []
        let threads = candidates.oneOffs.count + state.snoozes.count + state.timers.count + candidates.dailyCount
            + candidates.alarms.count
        var upcomingIndex = UpcomingIndex(capacity: threads)
        upcoming.reserveCapacity(threads)
        // Ids recorded as seen during the run are added as they are.
        var handled = HandledFilter(state.ledger.keys, capacity: threads)
        // The one-off ids with an outcome that this run's data still produce, in the ledger, deliveredIDs or
        // settledIDs or recorded by this run: `prune` keeps their ids and their missed or suppressed entries. One
        // recorded long after its expiry (seen when it appeared, missed after days of suspend) is pruned at once.
        var produced = Set<String>()
        // Read through constants, not the captured `state`, which `consider` also changes: each read of it would
        // be checked for exclusive access.
        let deliveredDates = state.deliveredDates
        let settledDates = state.settledDates
        let deliveredIDs = state.deliveredIDs
        let settledIDs = state.settledIDs
        /// Sorts one candidate into due, missed, seen or upcoming; true when it is the source's next occurrence.
        func consider(_ candidate: consuming Notification) -> Bool {
            prepare(&candidate, plannedLeaveTimes: plannedLeaveTimes, quietHours: quietHours, clock: clock)
            // `state.isHandled`, read here so that the state is not copied for each candidate. The source is
            // hashed once, for the filter and the index of upcoming threads.
            let source = Notification.Identity.SourceKey(candidate.source)
            if handled.mayContain(candidate.identity, source: source), state.ledger[candidate.id] != nil {
                if case .text = candidate.identity.stored { produced.insert(candidate.id) }
                return false
            }
            if !(deliveredIDs.isEmpty && settledIDs.isEmpty), case .text(let id) = candidate.identity.stored,
               deliveredIDs.contains(id) || settledIDs.contains(id) {
                produced.insert(id)
                return false
            }
            if deliveredDates.contains(candidate) || settledDates.contains(candidate) { return false }
            if candidate.fireAt > now {
                // One look-up that also reserves the slot when the thread is new, not a look-up then an insert.
                let slot = upcomingIndex.position(of: candidate, sourceHash: source.hash, in: upcoming,
                                                  next: upcoming.count)
                if slot == upcoming.count {
                    upcoming.append(candidate)
                } else if comesFirst(candidate, upcoming[slot]) {
                    upcoming[slot] = candidate
                }
                return true
            }
            switch window.classify(candidate) {
            case .due: due.append(candidate)
            case .expired: missed.append((candidate, .expired))
            case .seen:
                state.ledger[candidate.id] = entry(candidate, .seen, now)
                handled.insert(candidate.id)
                produced.insert(candidate.id)
            case .notDue: break
            }
            return false
        }
        // Two loops, not one over `oneOffs + snoozes`: that copy of every one-off was the run's peak memory.
        for candidate in candidates.oneOffs {
            _ = consider(candidate)
        }
        // Snoozes and timers of something gone are dropped, neither delivered nor missed (docs/design.md,
        // "What a run plans"); they obey their kind's switch like the kind's own records: held while it is off.
        state.snoozes.removeAll(where: household.isGone)
        state.timers.removeAll(where: household.isGone)
        for snooze in state.snoozes where household.isSwitchedOn(snooze) {
            _ = consider(snooze)
        }
        for timer in state.timers where household.isSwitchedOn(timer) {
            _ = consider(timer)
        }
        // A daily series is walked date by date only up to its next undelivered occurrence: two or three
        // occurrences of each alarm, not a week of them.
        func walk(_ series: Candidates.Series) {
            var date = candidates.firstDate
            while date <= candidates.lastDate {
                if let occurrence = series(date), consider(occurrence) { break }
                date = date.adding(days: 1)
            }
        }
        if let series = candidates.streakReminder { walk(series) }
        if let series = candidates.personalized { walk(series) }
        // Alarms are critical, which quiet hours never move, so an occurrence's fireAt is known before its record
        // is built: one already past that is not due is passed over without building it (consider would drop it
        // too), and only the next one and the few due or missed are built. A whole day long gone (yesterday, in
        // a run every minute) is passed over without timing each alarm on it.
        // The alarms' dates run from the first day that is not passed over to the last day planned.
        var firstAlarmDate = candidates.firstDate
        while firstAlarmDate <= candidates.lastDate,
              window.passesOver(firstAlarmDate, endingAt: clock.endOfDay(firstAlarmDate)) {
            firstAlarmDate = firstAlarmDate.adding(days: 1)
        }
        let isPassedOver = { (fireAt: Date, expiresAt: Date, recurrence: Notification.Recurrence) in
            fireAt <= now && window.classify(fireAt: fireAt, expiresAt: expiresAt, recurrence: recurrence) == .notDue
        }
        let prayerTimes = candidates.prayerTimes
        for series in candidates.alarms {
            var from = firstAlarmDate
            while let (occurrence, date) = series.firstOccurrence(
                      from: from, through: candidates.lastDate, clock: clock, prayerTimes: prayerTimes,
                      isPassedOver: isPassedOver),
                  !consider(occurrence) {
                from = date.adding(days: 1)
            }
        }
        (due, missed) = keepLatestOfEachRepeat(due, missed)

        let switchedOn = household.settings.notifications.enabled
        let suppressed = switchedOn ? [] : due.sorted(by: comesFirst)
        let deliveries = (switchedOn ? due : []).sorted(by: comesFirst).map { notification in
            state.deliver(notification, now: now, channels: household.settings.deliveryChannels)
        }
        let missedRecords = missed.sorted { comesFirst($0.0, $1.0) }.map { notification, reason in
            MissedRecord(id: notification.id, kind: notification.kind.rawValue, title: notification.title,
                         fireAt: notification.fireAt, reason: reason, recordedAt: now)
        }
        for notification in suppressed {
            state.ledger[notification.id] = entry(notification, .suppressed, now)
        }
        for (notification, _) in missed {
            state.ledger[notification.id] = entry(notification, .missed, now)
            produced.insert(notification.id)
        }
        // A missed record whose ledger entry was forgotten: delivered after a step back, it was not missed after
        // all (docs/promises.md, exactly once); missed again, it is counted once.
        var newMissed = missedRecords
        if !state.recentMissed.isEmpty && !(deliveries.isEmpty && missedRecords.isEmpty) {
            let listed = Set(state.recentMissed.map(\.id))
            state.forgetMissed(Set(deliveries.map(\.notification.id)).intersection(listed))
            newMissed = missedRecords.filter { !listed.contains($0.id) }
            state.recentMissed.removeAll { record in missedRecords.contains { $0.id == record.id } }
        }
        state.prune(now: now, produced: produced) { kind in
            NotificationKind(rawValue: kind).map(household.settings.isSwitchedOn) ?? true
        }

        // Handed over rather than shared, so the budget can move the records into place.
        let ranked = upcoming
        upcoming = []
        let (pending, deferred) = Budget.split(consume ranked, limit: household.settings.maxPending)
        state.plannedLeaveTimes = LeaveTimeHysteresis.remember(pending, deferred)
        let budget = BudgetStatus(pending: pending.count, limit: household.settings.maxPending)
        let nextWakeAt = nextWake(pending: pending, deferred: deferred, now: now,
                                  WakeInputs(household: household, state: state, clock: clock,
                                             lastDate: candidates.lastDate))
        let plan = Plan(generatedAt: now, timeZone: zone.identifier, budget: budget, pending: pending,
                        deferred: deferred.map(DeferredRecord.init), nextWakeAt: nextWakeAt)

        state.latestRunAt = max(state.latestRunAt ?? now, now)
        state.lastRunAt = now
        state.timeZone = zone.identifier
        state.missedTotal += newMissed.count
        state.recentMissed = Array((state.recentMissed + missedRecords).suffix(RunState.recentMissedLimit))
        state.lastBudget = budget
        state.lastDelivered = deliveries.count
        state.lastMissed = missedRecords.count
        state.lastSuppressed = suppressed.count
        return PlanResult(plan: plan, deliveries: deliveries, missed: missedRecords, suppressed: suppressed,
                          state: state, isFirstRun: previous?.lastRunAt == nil)
    }
}
