import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `nudge run`: the cron job. Plans, writes plan.json, delivers what is due exactly once, saves state.
enum RunCommand {
    static let command = Command(
        name: "run",
        usage: "nudge run [--now T] [--dry-run] [--json] [--quiet] [--wait S] [--linger S] [--systemd] [--data DIR]",
        summary: "plan, write plan.json and state, and deliver what fell due since the last run",
        options: [
            .now,
            dryRun, .json, quiet, wait, linger, systemd,
            .data, .help,
        ],
        positionals: 0...0,
        run: run)

    static let dryRun = OptionSpec.flag("--dry-run", "compute and print what would be delivered; write nothing")
    static let quiet = OptionSpec.flag("--quiet", "print nothing on stdout (deliveries still reach the outbox)")
    static let wait = OptionSpec.seconds("--wait", "S", 0...86_400,
                                         "wait up to S seconds for another run to finish instead of exiting 75")
    static let linger = OptionSpec.seconds("--linger", "S", 0...3600,
                                           "stay up to S seconds and deliver each notification due then at its second")
    static let systemd = OptionSpec.flag(
        "--systemd", "arm the next wake in the systemd user manager (the units of `nudge init --systemd`)")

    /// How a pass prints and whether it writes.
    struct Options {
        var dryRun = false
        var json = false
        var quiet = false
        /// Set by `nudge run --systemd`: the user manager wakes nudge, so each pass arms the next wake.
        var systemd = false

        init(dryRun: Bool = false, json: Bool = false, quiet: Bool = false, systemd: Bool = false) {
            self.dryRun = dryRun
            self.json = json
            self.quiet = quiet
            self.systemd = systemd
        }

        init(_ arguments: ParsedArguments) {
            self.init(dryRun: arguments.has(RunCommand.dryRun), json: arguments.has(.json),
                      quiet: arguments.has(RunCommand.quiet), systemd: arguments.has(RunCommand.systemd))
        }
    }

    /// Who holds the data directory's lock for a pass.
    enum Locking {
        /// The pass takes it, waiting up to this many seconds.
        case take(wait: Double)
        /// The caller holds it (an editing command that re-plans after its edit, docs/design.md, "The lock").
        case held
    }

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = DataDirectory(path: try arguments.dataDirectory())
        try directory.requireExists()
        let clock = RunClock(fixed: arguments.instant(.now))
        let options = Options(arguments)
        let wait = arguments.seconds(Self.wait) ?? 0
        let userFiles = UserFileIdentities(directory)
        let (exitCode, firstPlan) = try pass(options, console, directory: directory, now: clock.now(),
                                             locking: .take(wait: wait), first: true)
        if options.systemd, !options.dryRun {
            return try catchUp(after: firstPlan, exitCode: exitCode, userFiles: userFiles, clock: clock) {
                try pass(options, console, directory: directory, now: clock.now(), locking: .take(wait: wait),
                         first: false)
            }
        }
        guard let linger = arguments.seconds(Self.linger), !options.dryRun else {
            return exitCode
        }
        return try Linger(seconds: linger, clock: clock).run(after: firstPlan, exitCode: exitCode) { now in
            try pass(options, console, directory: directory, now: now, locking: .take(wait: Linger.lockWait),
                     first: false)
        }
    }

    /// How many passes a run under systemd adds before it leaves the rest to the next start.
    private static let catchUpPasses = 5

    /// Under systemd, what the manager started while this run went on: a wake that came during the run, or a
    /// user file written during it, started nothing (the manager folds a start of a running service into it). So
    /// the run passes again at once while the plan's next wake has come or a user file changed since the last
    /// pass read them. It never waits for a wake (docs/systemd.md).
    private static func catchUp(after firstPlan: Plan, exitCode: ExitCode, userFiles: UserFileIdentities,
                                clock: RunClock, pass: () throws -> (ExitCode, Plan)) throws -> ExitCode {
        var userFiles = userFiles
        var plan = firstPlan
        var worst = exitCode
        for _ in 0..<catchUpPasses {
            let wakeCame = plan.nextWakeAt.map { $0 <= clock.now() } ?? false
            guard wakeCame || userFiles.changed() else { break }
            do {
                let (code, next) = try pass()
                if code != .success { worst = code }
                plan = next
            } catch let error as CLIError where error.exitCode == .locked {
                break  // another run holds the lock: it plans what changed
            }
        }
        return worst
    }

    /// One run: lock, read, plan, save, deliver. Returns the exit code and the plan it wrote.
    static func pass(_ options: Options, _ console: Console, directory: DataDirectory, now: Date,
                     locking: Locking, first: Bool, isRunCommand: Bool = true) throws -> (ExitCode, Plan) {
        let dryRun = options.dryRun
        var lock: DirectoryLock?
        if case .take(let wait) = locking, !dryRun {
            lock = try DirectoryLock.acquire(in: directory.path, wait: wait, canWaitLonger: true)
        }
        defer { withExtendedLifetime(lock) {} }
        if !dryRun { directory.removeStaleTemporaryFiles() }

        let workspace = try Workspace.load(directory, collectingLastGoodUpdates: !dryRun)
        var result = workspace.plan(now: now)
        if isRunCommand {
            result.state.lastRunCommandAt = now
            if options.systemd { result.state.lastSystemdRunAt = now }
        } else if let previous = workspace.state {
            // A re-plan after an edit is no run: `status` goes on reporting what the last `nudge run` did.
            result.state.lastDelivered = previous.lastDelivered
            result.state.lastMissed = previous.lastMissed
            result.state.lastSuppressed = previous.lastSuppressed
        }
        if !dryRun {
            try save(result: &result, workspace: workspace)
            armWake(result, workspace, if: result.state.wokenBySystemd, console)
        }
        Channels(console: console, json: options.json, quiet: options.quiet, clock: WallClock(zone: workspace.zone))
            .print(result.deliveries)
        if !result.suppressed.isEmpty {
            console.warning("nudge: notifications are switched off (settings.json notifications.enabled): "
                + "\(result.suppressed.count) due notification(s) recorded, not delivered")
        }
        if !dryRun {
            try deliverAfterOutbox(&result.state, workspace: workspace, now: now, console: console)
            // A delivery the channels failed to show is retried: the schedule then wakes a minute later.
            if result.plan.wakeToRetry(result.state.commandQueue, now: now) {
                try workspace.directory.write("plan.json", result.plan.fileContent, durability: .derived)
                armWake(result, workspace, if: result.state.wokenBySystemd, console)
            }
        }
        console.flush()
        let problems = workspace.problemLines
        guard first else { return (problems.isEmpty ? .success : .badData, result.plan) }
        problems.forEach { console.error($0) }
        // Unknown keys once per change of a file, not every minute: on the run that saves its new last good copy.
        for update in workspace.lastGoodUpdates {
            workspace.loaded.reports.first { $0.file == update.file }?.warnings
                .forEach { console.warning("\(directory.path)/\($0)") }
        }
        if isatty(STDERR_FILENO) != 0 && !options.quiet && !options.json {
            console.info(summary(result, zone: workspace.zone, now: now, dryRun: dryRun))
        }
        return (problems.isEmpty ? .success : .badData, result.plan)
    }

    /// Arms the plan's wakes in the systemd user manager when it is what wakes nudge (docs/systemd.md), right
    /// after the plan is written and before anything is delivered. A manager that cannot be reached fails
    /// nothing: the warning says so, and the hourly run arms the wakes again.
    private static func armWake(_ result: PlanResult, _ workspace: Workspace, if wokenBySystemd: Bool,
                                _ console: Console) {
        guard wokenBySystemd else { return }
        do {
            try WakeArming.arm(result.plan) {
                Planner.upcomingWakes(from: result.plan.nextWakeAt, state: result.state,
                                      household: workspace.loaded.household, zone: workspace.zone,
                                      count: SystemdWake.maximumInstants)
            }
        } catch {
            console.warning("nudge: cannot arm the next wake in the systemd user manager: \(error)")
        }
    }

    /// The pass an editing command runs after its edit, under the lock it holds (docs/design.md, "The lock"), so that
    /// plan.json shows the change at once and whatever fell due meanwhile is delivered. Problems in files are left to
    /// `nudge run` and `nudge check`: the edit itself succeeded.
    static func replanAfterEdit(_ console: Console, directory: DataDirectory, now: Date) throws {
        _ = try pass(Options(), console, directory: directory, now: now, locking: .held, first: false,
                     isRunCommand: false)
    }

    /// A line for a person at a terminal (never for cron, whose stderr is no terminal): what happened.
    private static func summary(_ result: PlanResult, zone: Zone, now: Date, dryRun: Bool) -> String {
        var text = "nudge: \(dryRun ? "would deliver" : "delivered") \(result.deliveries.count), "
            + "\(result.plan.pending.count) pending"
        if !result.missed.isEmpty { text += ", \(result.missed.count) missed" }
        if result.isFirstRun { text += " (first run: nothing older than now is announced)" }
        if let next = result.plan.pending.first {
            text += "; next: \(next.title) \(TextFormat.localStamp(next.fireAt, WallClock(zone: zone))) "
                + "(\(TextFormat.relative(next.fireAt, from: now)))"
        }
        return text + ". See `nudge plan`."
    }

    /// Writes in the order that keeps every promise through a crash at any instant: plan, last good copies,
    /// the outbox (flushed), then state.json, which makes the deliveries final. A run that dies before the
    /// state is saved is finished by the next one from the outbox.
    ///
    /// state.json skips the directory flush when nothing was delivered: after a power loss the previous complete
    /// version may come back, which is what the next run would have found had this run not happened; it finishes
    /// any delivery from the flushed outbox. plan.json, which nothing reads back, is not flushed at all.
    private static func save(result: inout PlanResult, workspace: Workspace) throws {
        let directory = workspace.directory
        try directory.write("plan.json", result.plan.fileContent, durability: .derived)
        for update in workspace.lastGoodUpdates {
            try directory.saveLastGood(update.file, update.data)
            result.state.lastGood[update.file] = update.hash
        }
        let outbox = OutboxFile(path: directory.filePath("outbox.jsonl"))
        if let length = workspace.outboxRepairLength {
            try outbox.truncate(to: length)
        }
        var lines = ""  // not `joined()`, whose first use costs a runtime type lookup
        for delivery in result.deliveries { lines += delivery.outboxLine }
        if !lines.isEmpty {
            try outbox.append(lines)
            result.state.noteOutboxAppend(lines)
        }
        try directory.write("state.json", result.state.fileContent, durability: lines.isEmpty ? .oldOrNew : .durable)
    }

    /// The channels after the outbox (the desktop, the command), then state.json once more when they changed it.
    ///
    /// Not a single write after the channels instead of `save`'s before them: a channel program is only ever
    /// started for a delivery that state.json already queues. A run killed while the programs run leaves the next
    /// run that queue, which it finishes from the notes the programs left (`ChannelProgram`). From the outbox alone
    /// the next run cannot always tell a died run's lines from history (no state.json yet, or an outbox rotated
    /// while the clock stood before the last run: `OutboxRecovery`), and the deliveries not yet shown would never
    /// reach the desktop or the command.
    private static func deliverAfterOutbox(_ state: inout RunState, workspace: Workspace, now: Date,
                                           console: Console) throws {
        let directory = workspace.directory
        let outcome = Channels.deliverQueued(&state, household: workspace.loaded.household, directory: directory,
                                             now: now, zone: workspace.zone, console: console,
                                             queuedEarlier: workspace.queuedIDs)
        if outcome.changed { try directory.write("state.json", state.fileContent) }
        ChannelProgram(directory: directory).settle(queue: state.commandQueue)
    }
}
