import FoundationEssentials
import NudgeCore

/// `nudge status`: last run, budget, the last deliveries, missed deliveries, prayer alarms that cannot ring today
/// and errors in files.
enum StatusCommand {
    /// How many deliveries `status` lists (docs/design.md, "Acting on a delivery").
    static let deliveriesShown = 10

    static let command = Command(
        name: "status",
        usage: "nudge status [--json] [--now T] [--data DIR]",
        summary: "show the last run, the budget, the last ten deliveries with their ids, missed deliveries and "
            + "errors in files",
        options: [.json, .now, .data, .help],
        positionals: 0...0,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = try arguments.directory()
        try directory.requireExists()
        let state = try directory.loadState()
        // The files as a run reads them (without their last good copies): one decoding for the warnings, the
        // settings, the streaks, the trips and the alarms.
        let (files, _) = directory.userFiles()
        let loaded = HouseholdLoader.load(current: files, zoneNamed: ZoneDatabase.zone(named:))
        let household = loaded.household
        let settings = household.settings
        let now = arguments.now
        let zone = SystemZone.resolve(settingsZone: settings.timeZone ?? state?.timeZone)
        let clock = WallClock(zone: zone)
        var extras = StatusReport.Extras(
            fileWarnings: loaded.reports.flatMap(\.warnings),
            zoneWarning: zoneWarning(settings: settings, state: state),
            recentDeliveries: OutboxFile(path: directory.path(of: .outbox)).lastDeliveries(deliveriesShown),
            streaks: StreakRule.streaks(on: clock.localDate(of: now), data: household.streaks, clock: clock),
            travel: household.trips.filter(\.enabled).map {
                ($0, TripRecorder.prediction(for: $0, now: now, clock: clock))
            },
            silentPrayerAlarms: SilentPrayerAlarms.lines(household.alarms, settings: settings,
                                                             on: clock.localDate(of: now), clock: clock))
        extras.places = directory.places
        if arguments.has(.json) {
            console.out(StatusReport.json(state, settings: settings, extras: extras, now: now).prettyText)
        } else {
            console.out(StatusReport.text(state, settings: settings, extras: extras, now: now, zone: zone))
        }
        return .success
    }

    /// Why the zone of the last run was not exactly what `TZ` asked for; before any run, why this one's would
    /// not be (docs/promises.md, never at the wrong hour). None once settings.json names a zone: it wins over `TZ`.
    private static func zoneWarning(settings: Settings, state: RunState?) -> String? {
        guard settings.timeZone == nil else { return nil }
        guard let state, state.lastRunAt != nil else { return SystemZone.choose(settingsZone: nil).warning }
        return state.zoneWarning
    }
}
