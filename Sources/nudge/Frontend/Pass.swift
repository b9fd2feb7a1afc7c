import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// One pass over the data directory: load → plan → commit → deliver (docs/design.md, "One run"). `nudge run` makes
/// one, and more with `--linger` or under systemd; an editing command makes one after its edit.
struct Pass {
    /// How a pass prints and whether it writes.
    struct Output {
        /// Compute and print, write nothing (`nudge run --dry-run`).
        var dryRun = false
        var json = false
        var quiet = false
    }

    /// Who holds the data directory's lock for a pass.
    enum Locking {
        /// The pass takes it, waiting up to this many seconds.
        case take(wait: Double)
        /// The caller holds it (an editing command that re-plans after its edit, docs/design.md, "The lock").
        case held
    }

    let directory: DataDirectory
    let console: Console
    var output = Output()
    /// Why the pass plans, as the state records it.
    var kind = PassRecord.Kind.run(systemd: false)

    /// The pass an editing command runs after its edit, under the lock it holds (docs/design.md, "The lock"), so
    /// that plan.json shows the change at once and whatever fell due meanwhile is delivered. Problems in files are
    /// left to `nudge run` and `nudge check`: the edit itself succeeded.
    static func replanAfterEdit(_ directory: DataDirectory, console: Console, now: Date) throws {
        _ = try Pass(directory: directory, console: console, kind: .replanAfterEdit)
            .run(at: now, locking: .held, reportingProblems: false)
    }

    /// Lock, load, plan, commit, deliver. `reportingProblems`: the first pass of a command says on stderr what is
    /// wrong with the files; later passes only count it in the exit code. Returns the exit code and the plan.
    func run(at now: Date, locking: Locking, reportingProblems: Bool) throws -> (ExitCode, Plan) {
        let dryRun = output.dryRun
        let lock = try dryRun ? nil : takeLock(locking)
        defer { withExtendedLifetime(lock) {} }
        if !dryRun { directory.removeStaleTemporaryFiles() }

        let snapshot = try DataSnapshot.load(directory, collectingLastGoodUpdates: !dryRun)
        var result = snapshot.plan(now: now, kind: kind)
        if !dryRun {
            try Commit(result, snapshot: snapshot).write(to: directory)
            armWake(result, snapshot)
        }
        StdoutChannel(console: console, json: output.json, quiet: output.quiet, clock: WallClock(zone: snapshot.zone))
            .print(result.deliveries)
        if !result.suppressed.isEmpty {
            console.warning("nudge: notifications are switched off (settings.json notifications.enabled): "
                + "\(result.suppressed.count) due notification(s) recorded, not delivered")
        }
        if !dryRun {
            try deliverQueued(&result, snapshot, now: now)
            if case .run = kind {
                try settleGoneWaiters(&result.state, now: now)
                try matchCalendar(&result.state, plan: result.plan, snapshot, now: now)
            }
        }
        console.flush()
        if reportingProblems {
            report(snapshot, result, now: now)
        }
        return (snapshot.problemLines.isEmpty ? .success : .badData, result.plan)
    }

    private func takeLock(_ locking: Locking) throws -> DirectoryLock? {
        guard case .take(let wait) = locking else { return nil }
        return try directory.lock(wait: wait, canWaitLonger: true)
    }

    /// The desktop and the command after the outbox (`ChannelQueueRunner`), then their outcome committed, then
    /// the notes of the programs it records removed; a delivery they failed to show moves the wake a minute on.
    ///
    /// Not a single commit after the channels instead of one before them: a channel program is only ever started
    /// for a delivery that state.json already queues. A run killed while the programs run leaves the next run that
    /// queue, which it finishes from the notes the programs left (`ChannelProgram`). From the outbox alone the
    /// next run cannot always tell a died run's lines from history (no state.json yet, or an outbox rotated while
    /// the clock stood before the last run: `OutboxRecovery`), and the deliveries not yet shown would never reach
    /// the desktop or the command.
    private func deliverQueued(_ result: inout PlanResult, _ snapshot: DataSnapshot, now: Date) throws {
        let outcome = ChannelQueueRunner.deliver(&result.state, household: snapshot.loaded.household,
                                                 directory: directory, now: now, zone: snapshot.zone,
                                                 console: console, queuedEarlier: snapshot.queuedIDs)
        if outcome.changed { try Commit(state: result.state).write(to: directory) }
        ChannelProgram(directory: directory).removeNotes(notConcerning: result.state.channelQueue.deliveries)
        if result.plan.wakeToRetry(result.state.channelQueue.deliveries, now: now) {
            try Commit(plan: result.plan).write(to: directory)
            armWake(result, snapshot)
        }
    }

    /// What click waiters that are gone left (docs/desktop.md, "A waiter that is gone"): the clicks they could not
    /// apply are saved, then said once on stderr, and the notifications killed waiters left on screen are closed.
    /// Only `nudge run` does it: an editing command's pass may be a waiter's own, whose stderr nobody reads.
    private func settleGoneWaiters(_ state: inout RunState, now: Date) throws {
        let gone = GoneWaiters(directory)
        guard !gone.left.isEmpty else { return }
        var recorded: [UnappliedClick] = []
        for click in gone.unappliedClicks where state.unappliedClicks.record(click, actions: state.userActions) {
            recorded.append(click)
        }
        if !recorded.isEmpty { try Commit(state: state).write(to: directory) }
        gone.closeAndRemove(now: now)
        for click in recorded { console.error("nudge: " + click.reportLine) }
    }

    /// The calendar after every local channel (docs/calendar.md), by `nudge run` only: an editing command stays
    /// off the network, and the run its edit starts (or cron's next) matches the calendar.
    private func matchCalendar(_ state: inout RunState, plan: Plan, _ snapshot: DataSnapshot, now: Date) throws {
        guard let settings = snapshot.loaded.household.settings.deliverCalendar else { return }
        let channel = CalendarChannel(settings: settings, environment: ProcessEnvironment.all())
        if channel.match(&state, plan: plan, household: snapshot.loaded.household, now: now, console: console) {
            try Commit(state: state).write(to: directory)
        }
    }

    /// Arms the plan's wakes in the systemd user manager when it is what wakes nudge (docs/systemd.md), right
    /// after the plan is written and before anything is delivered. A manager that cannot be reached fails
    /// nothing: the warning says so, and the hourly run arms the wakes again.
    private func armWake(_ result: PlanResult, _ snapshot: DataSnapshot) {
        guard result.state.wokenBySystemd else { return }
        do {
            try WakeArming.arm(result.plan) {
                Planner.upcomingWakes(from: result.plan.nextWakeAt, state: result.state,
                                      household: snapshot.loaded.household, zone: snapshot.zone,
                                      count: SystemdWake.maximumInstants)
            }
        } catch {
            console.warning("nudge: cannot arm the next wake in the systemd user manager: \(error)")
        }
    }

    /// The problems in the files on stderr, unknown keys once per change of a file (on the pass that saves its
    /// new last good copy, not every minute), and a line for a person at a terminal.
    private func report(_ snapshot: DataSnapshot, _ result: PlanResult, now: Date) {
        snapshot.problemLines.forEach { console.error($0) }
        // Once: the next run's last zone is this one (docs/travelling.md, "The zone").
        if let previous = snapshot.state?.timeZone, previous != snapshot.zone.identifier {
            console.notice("nudge: " + ZoneOrigin.changedNote(from: previous, to: snapshot.zone.identifier,
                                                              settingsZone: snapshot.loaded.household.settings.timeZone))
        }
        for update in snapshot.lastGoodUpdates {
            snapshot.loaded.reports.first { $0.file == update.file }?.warnings
                .forEach { console.warning("\(directory.path)/\($0)") }
        }
        if isatty(STDERR_FILENO) != 0 && !output.quiet && !output.json {
            console.info(summary(result, zone: snapshot.zone, now: now))
        }
    }

    /// A line for a person at a terminal (never for cron, whose stderr is no terminal): what happened.
    private func summary(_ result: PlanResult, zone: Zone, now: Date) -> String {
        var text = "nudge: \(output.dryRun ? "would deliver" : "delivered") \(result.deliveries.count), "
            + "\(result.plan.pending.count) pending"
        if !result.missed.isEmpty { text += ", \(result.missed.count) missed" }
        if result.isFirstRun { text += " (first run: nothing older than now is announced)" }
        if let next = result.plan.pending.first {
            text += "; next: \(next.title) \(TextFormat.localStamp(next.fireAt, WallClock(zone: zone))) "
                + "(\(TextFormat.relative(next.fireAt, from: now)))"
        }
        return text + ". See `nudge plan`."
    }
}
