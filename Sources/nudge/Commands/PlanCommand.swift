import FoundationEssentials
import Glibc
import NudgeCore

/// `nudge plan`: shows plan.json as the last run wrote it, or with `--now` computes one and writes nothing.
enum PlanCommand {
    static let command = Command(
        name: "plan",
        usage: "nudge plan [--now T] [--json | --ics] [--data DIR]",
        summary: "show the pending plan as a table in local time (with --now: compute it for T, write nothing)",
        options: [.now, .json, ics, .data, .help],
        positionals: 0...0,
        run: run)

    static let ics = OptionSpec.flag("--ics", """
        print the critical and high records of the next 48 hours as an iCalendar file: the events a calendar of \
        yours would hold, each with an alarm at its time (docs/calendar.md)
        """)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = try arguments.directory()
        try directory.requireExists()
        if arguments.has(Self.ics) {
            guard !arguments.has(.json) else {
                throw CLIError.usage("nudge plan: --json and --ics are two ways to print the plan; give one")
            }
            return try printCalendar(directory, arguments: arguments, console: console)
        }
        if arguments.text(.now) != nil {
            let snapshot = try DataSnapshot.load(directory)
            // A preview: the state it would leave is not kept, so the pass's kind changes nothing here.
            let plan = snapshot.plan(now: arguments.now, kind: .replanAfterEdit).plan
            console.out(arguments.has(.json) ? plan.text
                : PlanTable.render(plan, now: arguments.now, zone: snapshot.zone,
                                   lastRun: snapshot.state?.lastRunCommandAt,
                                   wokenBySystemd: snapshot.state?.wokenBySystemd ?? false,
                                   settingsZone: snapshot.loaded.household.settings.timeZone)
                    + silentText(snapshot.loaded.household, now: arguments.now, zone: snapshot.zone)
                    + "\n\n" + directory.places.description)
            snapshot.problemLines.forEach { console.error($0) }
            return snapshot.problemLines.isEmpty ? .success : .badData
        }
        guard let data = try directory.read(.plan) else {
            console.out("No plan yet — run `nudge run`\n" + directory.places.description)
            return .success
        }
        switch Plan.decode(data) {
        case .success(let plan):
            let zone = ZoneDatabase.zone(named: plan.timeZone) ?? SystemZone.resolve(settingsZone: nil)
            // The files as a run reads them now, so that a broken one is named as `plan --now` and `run` name it
            // (docs/promises.md, "Named until fixed"): a plan that says "Nothing pending." must not hide why.
            let snapshot = try DataSnapshot.load(directory)
            let lastRun = snapshot.state?.lastRunCommandAt
            let wokenBySystemd = snapshot.state?.wokenBySystemd ?? false
            if arguments.has(.json) {
                console.out(plan.text)
                // stdout carries only the plan: the stale warning goes where warnings go.
                StaleRun.warning(lastRunAt: lastRun ?? plan.generatedAt, now: arguments.now,
                                 wokenBySystemd: wokenBySystemd, nextWakeAt: plan.nextWakeAt)
                    .map { console.warning("nudge: " + $0) }
            } else {
                console.out(PlanTable.render(plan, now: arguments.now, zone: zone, lastRun: lastRun,
                                             wokenBySystemd: wokenBySystemd,
                                             settingsZone: snapshot.loaded.household.settings.timeZone)
                    + silentText(snapshot.loaded.household, now: arguments.now, zone: zone)
                    + "\n\n" + directory.places.description)
            }
            snapshot.problemLines.forEach { console.error($0) }
            return snapshot.problemLines.isEmpty ? .success : .badData
        case .failure(let problem):
            throw CLIError.badData(["\(directory.path)/\(problem)", "nudge: plan.json is rewritten by every `nudge run`"])
        }
    }

    /// The plan's events as one iCalendar file: plan.json's, or with `--now` the plan computed for then.
    private static func printCalendar(_ directory: DataDirectory, arguments: ParsedArguments,
                                      console: Console) throws -> ExitCode {
        let snapshot = try DataSnapshot.load(directory)
        var plan: Plan?
        if arguments.text(.now) != nil {
            plan = snapshot.plan(now: arguments.now, kind: .replanAfterEdit).plan
        } else if let data = try directory.read(.plan) {
            switch Plan.decode(data) {
            case .success(let decoded): plan = decoded
            case .failure(let problem):
                throw CLIError.badData(["\(directory.path)/\(problem)", "nudge: plan.json is rewritten by every `nudge run`"])
            }
        }
        // No plan yet: a calendar with no events.
        // The calendar's choice of records when one is set (docs/calendar.md, "Only the events, once"), else
        // the default.
        let calendar = snapshot.loaded.household.settings.deliverCalendar
        let events = plan.map {
            CalendarEvents($0, now: arguments.now, priorities: calendar?.priorities ?? CalendarEvents.defaultPriorities,
                           hoursAhead: calendar?.hoursAhead ?? CalendarEvents.defaultHoursAhead)
        } ?? CalendarEvents()
        console.write(events.file(stamp: plan?.generatedAt ?? arguments.now, product: CalendarChannel.product))
        snapshot.problemLines.forEach { console.error($0) }
        return snapshot.problemLines.isEmpty ? .success : .badData
    }

    /// Below the table: the alarms that follow a prayer and will not ring in the 7 days from `now`, and why
    /// (docs/prayer-times.md); empty when all of them ring.
    private static func silentText(_ household: Household, now: Date, zone: Zone) -> String {
        let clock = WallClock(zone: zone)
        let lines = SilentPrayerAlarms.runs(household.alarms, settings: household.settings,
                                            from: clock.localDate(of: now), days: 7, clock: clock)
        guard !lines.isEmpty else { return "" }
        return "\n\nWill not ring in the next 7 days:\n" + lines.map { "  \($0)" }.joined(separator: "\n")
    }
}
