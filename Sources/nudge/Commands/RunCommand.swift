import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `nudge run`: the cron job, or the job the systemd units start. One pass (`Pass`: plans, commits plan.json and
/// state, delivers what is due exactly once), then more with `--linger` or under systemd.
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

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        // A dry run writes nothing: it reads the own files where they are, moved or not.
        let named = try arguments.directory()
        let directory = arguments.has(Self.dryRun) ? named
            : try named.preparedForWriting(wait: arguments.seconds(Self.wait) ?? 0, canWaitLonger: true,
                                           console: console)
        try directory.requireExists()
        let clock = RunClock(fixed: arguments.instant(.now))
        let underSystemd = arguments.has(Self.systemd)
        let pass = Pass(directory: directory, console: console,
                        output: Pass.Output(dryRun: arguments.has(Self.dryRun), json: arguments.has(.json),
                                            quiet: arguments.has(Self.quiet)),
                        kind: .run(systemd: underSystemd))
        let locking = Pass.Locking.take(wait: arguments.seconds(Self.wait) ?? 0)
        let userFiles = underSystemd ? UserFileIdentities(directory) : nil
        let (exitCode, firstPlan) = try pass.run(at: clock.now(), locking: locking, reportingProblems: true)
        guard !pass.output.dryRun else { return exitCode }
        if let userFiles {
            return try catchUp(after: firstPlan, exitCode: exitCode, userFiles: userFiles, clock: clock) {
                try pass.run(at: clock.now(), locking: locking, reportingProblems: false)
            }
        }
        guard let linger = arguments.seconds(Self.linger) else { return exitCode }
        return try Linger(seconds: linger, clock: clock).run(after: firstPlan, exitCode: exitCode) { now in
            try pass.run(at: now, locking: .take(wait: Linger.lockWait), reportingProblems: false)
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
}
