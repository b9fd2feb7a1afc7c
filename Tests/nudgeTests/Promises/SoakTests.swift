import Foundation
import XCTest

/// The randomized soak of `scripts/soak.sh` (docs/promises.md): minute-by-minute runs with edits, zone
/// changes across DST days under quiet hours, notifications switched off, suspends, kills and clock excursions
/// (set back up to 40 days, stepped back and forth behind the latest reading, corrected), laundry cycles written
/// by hand behind the latest reading with their stage already due, every promise checked after every run:
/// deliveries, and the seen, missed and suppressed outcomes that must never be replayed. `swift test` runs a short, eventful version
/// (a simulated day with every kind of event made frequent, on a fixed seed); `NUDGE_SOAK_DAYS=30` (set by
/// `.ci/run`) runs a month at the script's natural rates on a new seed.
final class SoakTests: XCTestCase {
    private func soak(days: String, environment extra: [String: String]) throws -> [String: Any] {
        let run = try RepositoryScript.run("soak.sh", [days], environment: extra, timeout: 3 * 3600)
        print(run.output)
        let summary = run.summary
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(summary["violations"] as? Int, 0, run.output)
        XCTAssertEqual(summary["commandDuplicates"] as? Int, 0, run.output)
        XCTAssertEqual(summary["processesLeft"] as? Int, 0, run.output)
        XCTAssertEqual(summary["badge"] as? Int, summary["badgeExpected"] as? Int, run.output)
        return summary
    }

    func testAnEventfulDayOfRunsKeepsEveryPromise() throws {
        // A fixed seed: the events (not the kills' timing) are then the same each time, and this sequence holds
        // every kind of trouble; the month runs a new seed each time. This day holds steps back and forth inside
        // one excursion of 37 days and zone changes while the clock is behind, among them a set back on arrival
        // east, where an alarm the new wall clock passed must ring although its instant precedes the latest run,
        // and laundry cycles written by hand behind the latest reading, each stage due when written, which the
        // runs at the later clock must not have settled; snoozes missed and crossed by set backs, and cycles
        // removed by hand and put back.
        let summary = try soak(days: "1", environment: ["SOAK_SEED": "20261123", "SOAK_EVENTS": "30",
                                                        "SOAK_KILL_SHARE": "0.1"])
        // The short soak really went through each kind of trouble.
        for key in ["killsLanded", "edits", "suspends", "clockBack", "excursions", "zoneChanges", "deliveries",
                    "alarmMinutesChecked", "switchedOff", "zoneChangesWhileBehind", "travelAlarmsChecked",
                    "handWrittenStagesDelivered", "handWrittenStagesRecorded", "snoozes", "snoozesWhileBehind",
                    "snoozesMissed", "snoozesCrossedBySetBack", "cyclesLeft", "cyclesReturned",
                    "cyclesReturnedBehind"] {
            XCTAssertGreaterThan(summary[key] as? Int ?? 0, 0, "no \(key) in the short soak: \(summary)")
        }
        XCTAssertGreaterThan(summary["mostStepsInOneExcursion"] as? Int ?? 0, 1, "\(summary)")
        XCTAssertGreaterThan(summary["longestExcursionDays"] as? Double ?? 0, 3, "\(summary)")
        let outcomes = summary["outcomesRecorded"] as? [String: Int] ?? [:]
        for outcome in ["seen", "missed", "suppressed"] {
            XCTAssertGreaterThan(outcomes[outcome] ?? 0, 0, "no \(outcome) outcome in the short soak: \(summary)")
        }
    }

    /// The differential mode (docs/promises.md, "Woken only when something is due"): runs only at each
    /// `nextWakeAt` and after each change deliver what runs every minute deliver, at the same seconds, and
    /// record the same outcomes.
    private func differential(days: String, environment extra: [String: String]) throws -> RepositoryScript {
        try checked(Self.runDifferential(days: days, environment: extra))
    }

    private static func runDifferential(days: String, environment extra: [String: String]) throws
        -> RepositoryScript {
        let environment = extra.merging(["SOAK_MODE": "differential"]) { $1 }
        return try RepositoryScript.run("soak.sh", [days], environment: environment, timeout: 3 * 3600)
    }

    private func checked(_ run: RepositoryScript) -> RepositoryScript {
        print(run.output)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(run.int("differences"), 0, run.output)
        XCTAssertGreaterThan(run.int("wakeRuns") ?? 0, 0, run.output)
        return run
    }

    func testADayRunOnlyAtEachNextWakeDeliversWhatRunsEveryMinuteDeliver() throws {
        // A fixed seed and frequent events, over Berlin's spring forward (02:30 does not exist on 29 March).
        let run = try differential(days: "1", environment: ["SOAK_SEED": "3407", "SOAK_EVENTS": "10",
                                                            "SOAK_START": "2026-03-28T12:00:00Z"])
        for key in ["edits", "snoozes", "handEdits", "zoneChanges", "switchedOff", "suspends", "clockBack",
                    "clockForward", "plansWithDeferred", "deliveries", "idleWakes"] {
            XCTAssertGreaterThan(run.int(key) ?? 0, 0, "no \(key) in the differential day: \(run.summary)")
        }
        // Far fewer runs than every minute.
        XCTAssertLessThan(run.int("runsWoken") ?? .max, (run.int("runsEveryMinute") ?? 0) / 4)
    }

    /// The seeds `.ci/run`'s second pass runs, never a random one, so that a submission fails only for what it
    /// changed (docs/promises.md, "Seeds"). Discovery is `scripts/sweep.sh`'s: a seed it or a CI ever found
    /// failing is fixed and joins its list here, with what it found.
    static let differentialSeeds = [
        // A leave-time moved into the past by a journey leaving the 8 weeks of the prediction, and a set back's
        // excursion deciding whether a leave-time of its morning was seen or missed (PlannerWakeTests,
        // PlannerClockStepTests).
        1795178446,
        // A leave-time a zone change moved from ahead into the past: seen after a run a minute before, missed
        // after a woken run hours before (PlannerTravelTests; found by scripts/sweep.sh).
        1740404439,
        // A leave-time the woken directory never recorded, which the directory run every minute recorded seen
        // (found by scripts/sweep.sh on the build before the one above; 0 differences since).
        1511789296,
        // A check-in delivered during a clock weeks ahead, whose ledger entry the directory run every minute
        // pruned to its compact form before the clock came back, and the woken one, with no run then, kept: the
        // same memory in two forms, now compared by meaning (found by scripts/sweep.sh).
        1257007199,
    ]
    static let soakSeeds = [
        // The month of docs/promises.md's figures: every kind of event of the soak, kills among them.
        1068270637,
    ]

    /// The months in `.ci/run` (`NUDGE_DIFFERENTIAL_DAYS=30`): about two minutes a seed on the release build.
    func testAMonthRunOnlyAtEachNextWakeDeliversWhatRunsEveryMinuteDeliver() throws {
        guard let days = ProcessInfo.processInfo.environment["NUDGE_DIFFERENTIAL_DAYS"], !days.isEmpty else {
            throw XCTSkip("the differential month runs with NUDGE_DIFFERENTIAL_DAYS=30 (.ci/run sets it; "
                + "SOAK_MODE=differential scripts/soak.sh 30 runs the month by hand)")
        }
        // As many months at once as the machine has cores: each is one process after another.
        let seeds = Self.differentialSeeds
        let done = NSLock()
        var runs = [Result<RepositoryScript, Error>?](repeating: nil, count: seeds.count)
        DispatchQueue.concurrentPerform(iterations: seeds.count) { index in
            let run = Result { try Self.runDifferential(days: days, environment: ["SOAK_SEED": String(seeds[index])]) }
            done.withLock { runs[index] = run }
        }
        var seen: [String: Int] = [:]
        for (seed, result) in zip(seeds, runs) {
            let run = checked(try XCTUnwrap(result).get())
            XCTAssertEqual(run.int("seed"), seed, run.output)
            XCTAssertGreaterThan(run.int("runsEveryMinute") ?? 0, 1_000)
            for (key, value) in run.summary { seen[key, default: 0] += value as? Int ?? 0 }
        }
        for key in ["edits", "snoozes", "handEdits", "zoneChanges", "switchedOff", "suspends", "clockBack",
                    "clockForward", "plansWithDeferred", "deliveries", "idleWakes"] {
            XCTAssertGreaterThan(seen[key] ?? 0, 0, "no \(key) in the fixed differential months")
        }
    }

    func testAMonthOfRunsKeepsEveryPromise() throws {
        guard let days = ProcessInfo.processInfo.environment["NUDGE_SOAK_DAYS"], !days.isEmpty else {
            throw XCTSkip("the month-long soak runs with NUDGE_SOAK_DAYS=30 (.ci/run sets it; scripts/soak.sh 30 "
                + "runs it by hand)")
        }
        for seed in Self.soakSeeds {
            let summary = try soak(days: days, environment: ["SOAK_SEED": String(seed)])
            XCTAssertEqual(summary["seed"] as? Int, seed)
            XCTAssertGreaterThan(summary["runs"] as? Int ?? 0, 1_000)
            for key in ["killsLanded", "edits", "suspends", "clockBack", "excursions", "zoneChanges",
                        "switchedOff", "zoneChangesWhileBehind", "handWrittenStagesDelivered"] {
                XCTAssertGreaterThan(summary[key] as? Int ?? 0, 0, "no \(key) in the month of seed \(seed)")
            }
        }
    }
}
