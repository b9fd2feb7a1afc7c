import FoundationEssentials

/// When the next run has something to do (docs/promises.md, "Woken only when something is due"): runs only at
/// each `nextWakeAt` and after each change of a file, the clock or the zone deliver what runs every minute
/// deliver, each at its second.
extension Planner {
    /// What besides the plan's records decides when a run would act differently.
    struct WakeInputs {
        var household: Household
        var state: RunState
        var clock: WallClock
        /// The last local date the daily series and recurring trips were looked at (`Candidates.lastDate`).
        var lastDate: LocalDate
    }

    /// The earliest instant after `now` at which a run would deliver, record or plan something that this run
    /// did not: nil when nothing is ahead.
    ///
    /// - Each source's next occurrence, pending or deferred by the budget (which never limits delivery), at its
    ///   fireAt after quiet hours moved it, snoozes and prayer timers included: the planner keeps the next
    ///   occurrence of every source, so nothing of the files falls due before the earliest of them.
    /// - The look-ahead: a daily series or a recurring trip with nothing in the days planned (a prayer the sun
    ///   does not reach, a streak not at risk, an alarm on no day planned) is looked at again when the first day
    ///   beyond them starts. A safe earlier instant, not the occurrence's own: nothing on that day fires before
    ///   it starts, and the run then plans the days after.
    /// - What changes with time alone: the learned streak reminder time, recomputed two days after it was
    ///   computed; a play dated ahead, counted from its instant (learned time) and its local date (streaks and
    ///   milestones). Travel observations are not among them: an instance's prediction reads the 56 days before
    ///   its own arrival (`TravelPrediction`), whatever the clock.
    ///
    /// A delivery the desktop or the command failed to show is retried a minute later: the channels run after
    /// the plan is written, so that cause is added by `Plan.wakeToRetry` once they have run.
    static func nextWake(pending: [Notification], deferred: [Notification], now: Date,
                         _ inputs: WakeInputs) -> Date? {
        var schedule = WakeSchedule(now: now)
        // Both lists are in time order.
        schedule.wake(at: pending.first?.fireAt)
        schedule.wake(at: deferred.first?.fireAt)
        let settings = inputs.household.settings
        if hasDailySeries(inputs.household, clock: inputs.clock) {
            schedule.wake(at: inputs.clock.endOfDay(inputs.lastDate))
        }
        if settings.streaks.enabled {
            wakeForStreaks(&schedule, inputs)
        }
        return schedule.earliest
    }

    /// Whether a source repeats by local date beyond the days planned: the look-ahead then matters.
    private static func hasDailySeries(_ household: Household, clock: WallClock) -> Bool {
        let settings = household.settings
        if settings.alarms.enabled, household.alarms.contains(where: \.enabled) { return true }
        if settings.personalized.enabled { return true }
        if settings.streaks.enabled, !household.streaks.games.isEmpty { return true }
        guard settings.commute.enabled else { return false }
        return household.trips.contains { trip in
            guard trip.enabled, !trip.isPaused(in: clock.zone), case .recurring = trip.schedule else { return false }
            return true
        }
    }

    /// The learned reminder time's recomputation, and plays dated ahead of now.
    private static func wakeForStreaks(_ schedule: inout WakeSchedule, _ inputs: WakeInputs) {
        if inputs.household.settings.streaks.smart, let kept = inputs.state.smartReminder {
            schedule.wake(at: kept.computedAt.addingTimeInterval(SmartReminderTime.recomputeInterval))
        }
        for play in inputs.household.streaks.plays where play.at > schedule.now {
            schedule.wake(at: play.at)
            schedule.wake(at: inputs.clock.startOfDay(inputs.clock.localDate(of: play.at)))
        }
    }
}

/// One wake of the schedule a run arms ahead (`Planner.upcomingWakes`).
public struct UpcomingWake: Equatable, Sendable {
    var at: Date
    /// A critical record is delivered then: the wake that may resume a suspended machine.
    var isCritical: Bool

    init(at: Date, isCritical: Bool) {
        self.at = at
        self.isCritical = isCritical
    }
}

extension Planner {
    /// The wakes from `first` on, while nothing is edited: each run's `nextWakeAt`, planned at the wake before it
    /// from the state that run would leave, at most `count` (docs/systemd.md). The systemd units arm them as one
    /// timer, so that the run each instant starts finds the next one armed.
    public static func upcomingWakes(from first: Date?, state: RunState, household: Household, zone: Zone,
                                     count: Int) -> [UpcomingWake] {
        var wakes: [UpcomingWake] = []
        var state = state
        var next = first
        while let now = next, wakes.count < count {
            let run = plan(household, previous: state, now: now, zone: zone, previousZone: zone)
            wakes.append(UpcomingWake(at: now, isCritical: run.deliveries.contains { $0.notification.priority == .critical }))
            state = run.state
            next = run.plan.nextWakeAt
        }
        return wakes
    }
}
