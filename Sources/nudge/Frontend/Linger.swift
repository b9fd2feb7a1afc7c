import FoundationEssentials
import NudgeCore

/// `nudge run --linger S` (docs/design.md, lingering): cron wakes once a minute, so after its run nudge stays up to S
/// seconds and runs again at the second each planned notification falls due. It holds no lock while it sleeps; every
/// wake is a full run under the lock that re-reads the files and the ledger, so it never delivers twice beside the
/// next cron run, which simply finds the work done (or, if it holds the lock, does it itself).
struct Linger {
    /// At a wake, how long to wait for the lock; if the next cron run holds it longer, that run delivers.
    static let lockWait: Double = 2

    let seconds: Double
    let clock: RunClock

    /// Sleeps until each next fireAt within the deadline and runs `pass` then; stops early when nothing else falls
    /// due before the deadline. Returns the worst exit code of all passes. The S seconds are also a `Deadline`:
    /// a clock set back while it sleeps does not keep it up longer (docs/design.md, "Deadlines").
    func run(after firstPlan: Plan, exitCode: ExitCode, pass: (Date) throws -> (ExitCode, Plan)) throws -> ExitCode {
        let deadline = clock.now().addingTimeInterval(seconds)
        let end = Deadline(after: seconds)
        var plan = firstPlan
        var worst = exitCode
        while let wake = Self.nextWake(plan, after: clock.now()), wake <= deadline, !end.hasPassed {
            clock.sleep(until: wake, atMost: end)
            do {
                let (code, next) = try pass(clock.now())
                if code != .success { worst = code }
                plan = next
            } catch let error as CLIError where error.exitCode == .locked {
                return worst  // the next cron run is working; it delivers what is due
            }
        }
        return worst
    }

    /// The earliest fireAt after `now` in the plan, deferred records included: the budget never limits delivery.
    static func nextWake(_ plan: Plan, after now: Date) -> Date? {
        (plan.pending.map(\.fireAt) + plan.deferred.map(\.fireAt)).filter { $0 > now }.min()
    }
}
