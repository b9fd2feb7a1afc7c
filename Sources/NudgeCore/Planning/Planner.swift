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
    /// travel, what the person's own clock passed between the runs falls due. `pass` is what the state records of
    /// this pass.
    public static func plan(_ household: Household, previous: RunState?, now: Date, zone: Zone,
                            previousZone: Zone? = nil, pass: PassRecord = PassRecord()) -> PlanResult {
        let clock = WallClock(zone: zone, reading: plannedSpan(since: previous?.lastRunAt, now: now))
        var state = previous ?? RunState()
        let streakCalendar = updateStreaks(&state, household, now: now, clock: clock,
                                           announcing: previous?.lastRunAt != nil)
        let context = Candidates.Context(
            clock: clock, now: now,
            streakReminderTime: SmartReminder.reminderTime(state.smartReminder, settings: household.settings),
            departures: state.departures, milestones: state.milestones, streakCalendar: streakCalendar)
        let candidates = Candidates.collect(household, context: context, since: previous?.lastRunAt ?? now)
        if let lastRun = previous?.lastRunAt, now < lastRun {
            forgetRecordedAhead(of: now, in: &state, candidates: candidates, household: household, clock: clock)
        }
        var triage = Triage(state: consume state, sizedFor: candidates, now: now,
                            window: DueWindow(previous: previous, now: now, zone: zone, previousZone: previousZone),
                            clock: clock, quietHours: household.settings.quietHours)
        triage.considerAll(candidates, of: household)
        var outcome = (consume triage).finish(household: household)
        let plan = makePlan(&outcome, household: household, now: now, zone: zone, clock: clock,
                            lastDate: candidates.lastDate)
        outcome.recordPass(pass, at: now, zone: zone, budget: plan.budget, isFirstPass: previous == nil)
        var outboxLines = ""  // not `joined()`, whose first use costs a runtime type lookup
        for delivery in outcome.deliveries { outboxLines += delivery.outboxLine }
        outcome.state.noteOutboxAppend(outboxLines)
        return PlanResult(plan: plan, deliveries: outcome.deliveries, outboxLines: outboxLines, missed: outcome.missed,
                          suppressed: outcome.suppressed, state: outcome.state,
                          isFirstRun: previous?.lastRunAt == nil)
    }

    /// Updates the learned streak reminder time and the milestones reached; returns the one calendar of plays
    /// both the milestones and the streak reminder read (placing every play on it is its cost), nil while
    /// streaks are off. `announcing`: false on the first run, whose milestones are recorded unannounced.
    private static func updateStreaks(_ state: inout RunState, _ household: Household, now: Date, clock: WallClock,
                                      announcing: Bool) -> StreakCalendar? {
        state.smartReminder = SmartReminder.update(state.smartReminder, streaks: household.streaks,
                                                   settings: household.settings, now: now, clock: clock)
        let streakCalendar = household.settings.streaks.enabled ? StreakCalendar(household.streaks, clock: clock) : nil
        if let streakCalendar, !household.settings.streaks.milestones.isEmpty, !household.streaks.games.isEmpty {
            state.milestones = MilestoneRule.update(state.milestones,
                                                    streaks: streakCalendar.streaks(on: clock.localDate(of: now)),
                                                    settings: household.settings, now: now, announcing: announcing)
        }
        return streakCalendar
    }

    /// After a clock set back: forgets what a later clock recorded for occurrences still ahead of it, judged
    /// also by this run's instants (docs/promises.md, exactly once). A snooze or timer the person made after the
    /// corrected clock's time keeps its outcome: as this run sees it, it is no occurrence still to come. So does
    /// one no longer kept (pruned two days after it expired, or its source gone): nothing can make it ring again,
    /// and forgetting it would only free its number for another.
    private static func forgetRecordedAhead(of now: Date, in state: inout RunState, candidates: Candidates,
                                            household: Household, clock: WallClock) {
        let snoozesAndTimers = state.userActions.snoozes + state.userActions.timers
        let madeAt = state.userActions.madeAt
        let plannedLeaveTimes = state.plannedLeaveTimes
        let quietHours = household.settings.quietHours
        state.reopen(after: now) { id in
            if let made = madeAt[id], made > now { return now }
            let kept = snoozesAndTimers.first { $0.id == id }
            if kept == nil && isMadeByAnAction(id) { return now }
            guard var occurrence = kept ?? candidates.occurrence(id: id, clock: clock) else { return nil }
            prepare(&occurrence, plannedLeaveTimes: plannedLeaveTimes, quietHours: quietHours, clock: clock)
            return occurrence.fireAt
        }
    }

    /// Whether `id` is a snooze or a prayer timer: an occurrence that only the person's action makes.
    private static func isMadeByAnAction(_ id: String) -> Bool {
        SnoozeRule.baseID(of: id) != id || OccurrenceID(id)?.kind == NotificationKind.timerDone.rawValue
    }

    /// The plan of the upcoming occurrences, split by the budget; keeps in the state the leave-times it holds.
    private static func makePlan(_ outcome: inout Triage.Outcome, household: Household, now: Date, zone: Zone,
                                 clock: WallClock, lastDate: LocalDate) -> Plan {
        let ranked = outcome.upcoming
        outcome.upcoming = []
        let (pending, deferred) = Budget.split(consume ranked, limit: household.settings.maxPending)
        outcome.state.plannedLeaveTimes = LeaveTimeHysteresis.remember(pending, deferred)
        let budget = BudgetStatus(pending: pending.count, limit: household.settings.maxPending)
        let nextWakeAt = nextWake(pending: pending, deferred: deferred, now: now,
                                  WakeInputs(household: household, state: outcome.state, clock: clock,
                                             lastDate: lastDate))
        return Plan(generatedAt: now, timeZone: zone.identifier, budget: budget, pending: pending,
                    deferred: deferred.map(DeferredRecord.init), nextWakeAt: nextWakeAt)
    }
}
