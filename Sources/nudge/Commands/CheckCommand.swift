import FoundationEssentials
import NudgeCore

/// `nudge check`: validates every user file and the calendar, and lists every problem (and unknown keys as warnings).
enum CheckCommand {
    static let command = Command(
        name: "check",
        usage: "nudge check [--now T] [--data DIR]",
        summary: "validate every user file (and reach the calendar of deliver.calendar); list every problem; exit 0 "
            + "or 65",
        options: [.now, .data, .help],
        positionals: 0...0,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = try arguments.directory()
        try directory.requireExists()
        let (files, unreadable) = directory.userFiles()
        let loaded = HouseholdLoader.load(current: files, unreadable: unreadable,
                                          zoneNamed: ZoneDatabase.zone(named:), zoneNames: ZoneDatabase.names)
        for report in loaded.reports {
            report.warnings.forEach { console.warning("\(directory.path)/\($0)") }
        }
        var problems = loaded.problems.map { "\(directory.path)/\($0)" }
        if let calendar = loaded.household.settings.deliverCalendar {
            problems += calendarProblem(calendar, directory: directory, console: console).map { ["nudge: calendar: " + $0] } ?? []
        }
        problems.forEach { console.error($0) }
        if let warning = SystemZone.choose(settingsZone: loaded.household.settings.timeZone).warning {
            console.warning("nudge: warning: \(warning)")
        }
        if loaded.household.settings.deliverDesktop { desktopNotes().forEach(console.warning) }
        let settings = loaded.household.settings
        let clock = WallClock(zone: SystemZone.resolve(settingsZone: settings.timeZone))
        if let note = SilentPrayerAlarms.yearNote(loaded.household.alarms, settings: settings,
                                                  from: clock.localDate(of: arguments.now), clock: clock) {
            console.warning("nudge: warning: \(note)")
        }
        let checked = loaded.reports.map(\.file.fileName)
        defer {
            if let pinned = settings.timeZone { console.out(ZoneOrigin.pinnedNote(pinned)) }
            console.out("Wake from suspend: " + wakeCapability(directory).checkLine)
        }
        if problems.isEmpty {
            console.out(checked.isEmpty ? "No user files in \(directory.path) — nothing to check."
                                        : "OK: \(checked.joined(separator: ", ")) valid")
            return .success
        }
        console.out("\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(directory.path)")
        return .badData
    }

    /// What keeps the calendar from taking nudge's events now (docs/calendar.md): unreachable, credentials refused,
    /// no calendar for events at the URL; nil, with a line on stdout, when it takes them.
    private static func calendarProblem(_ settings: CalendarSettings, directory: DataDirectory,
                                        console: Console) -> String? {
        switch CalendarChannel(settings: settings, environment: ProcessEnvironment.all()).collection() {
        case .failure(let failure):
            return failure.description
        case .success(let collection):
            if let problem = collection.problem(settings.url) { return problem }
            // A state.json nudge cannot read is the run's to report (exit 65); here it only leaves out the count.
            let kept: String
            do {
                kept = "; \(try directory.loadState()?.calendar.keptCount ?? 0) kept there by nudge"
            } catch {
                kept = ""
            }
            console.out("Calendar: \(settings.url) takes events\(kept)")
            return nil
        }
    }

    /// Whether a critical record's wake resumes this machine (docs/systemd.md): only where the systemd units
    /// wake nudge (the last run was `nudge run --systemd`) and the manager and the kernel can.
    private static func wakeCapability(_ directory: DataDirectory) -> WakeCapability {
        let wokenBySystemd = ((try? directory.loadState()) ?? nil)?.wokenBySystemd ?? false
        let manager = wokenBySystemd ? try? UserManager.connect() : nil
        return WakeArming.capability(of: manager)
    }

    /// What the desktop channel will lack on this machine (docs/desktop.md): buttons, when the notification server
    /// running now offers none.
    static func desktopNotes() -> [String] {
        var notes: [String] = []
        if let server = NotificationServer.running(environment: ProcessEnvironment.all()), !server.offersButtons {
            notes.append("nudge: warning: the desktop's notification server (\(server.name)) offers no buttons: "
                + "notifications are shown without them; use `nudge act ID ACTION` instead")
        }
        return notes
    }
}
