import FoundationEssentials
import NudgeCore

/// `nudge status`: last run, budget, the last deliveries, missed deliveries, prayer alarms that cannot ring today
/// and errors in files.
enum StatusCommand {
    /// How many deliveries `status` lists (SPEC §11.20).
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
        let directory = DataDirectory(path: try arguments.dataDirectory())
        try directory.requireExists()
        let state = try directory.loadState()
        let settings = settingsFile(directory)
        let now = arguments.now
        let zone = SystemZone.resolve(settingsZone: settings.timeZone ?? state?.timeZone)
        let (files, _) = directory.userFiles()
        let fileWarnings = HouseholdLoader.load(current: files, zoneNamed: ZoneDatabase.zone(named:))
            .reports.flatMap(\.warnings)
        let extras = StatusReport.Extras(
            fileWarnings: fileWarnings,
            zoneWarning: zoneWarning(settings: settings, state: state),
            recentDeliveries: OutboxFile(path: directory.filePath("outbox.jsonl")).lastDeliveries(deliveriesShown),
            streaks: streaks(directory, now: now, zone: zone),
            travel: travel(directory, now: now, zone: zone),
            silentPrayerAlarms: silentPrayerAlarms(directory, settings: settings, now: now, zone: zone))
        if arguments.has("--json") {
            console.out(StatusReport.json(state, settings: settings, extras: extras, now: now).prettyText)
        } else {
            console.out(StatusReport.text(state, settings: settings, extras: extras, now: now, zone: zone))
        }
        return .success
    }

    /// Why the zone of the last run was not exactly what `TZ` asked for; before any run, why this one's would
    /// not be (SPEC §11.26). None once settings.json names a zone: it wins over `TZ`.
    private static func zoneWarning(settings: Settings, state: RunState?) -> String? {
        guard settings.timeZone == nil else { return nil }
        guard let state, state.lastRunAt != nil else { return SystemZone.choose(settingsZone: nil).warning }
        return state.zoneWarning
    }

    /// Each game's streak today in the current zone; none when streaks.json is missing or invalid (its error is
    /// listed with the files).
    private static func streaks(_ directory: DataDirectory, now: Date, zone: Zone) -> [GameStreak] {
        guard let data = try? directory.read(UserFile.streaks.fileName),
              let streaks = UserFileDecoder.streaks(data).0 else { return [] }
        let clock = WallClock(zone: zone)
        return StreakRule.streaks(on: clock.localDate(of: now), data: streaks, clock: clock)
    }

    /// Each enabled trip's prediction for its next instance; none when trips.json is missing or invalid.
    private static func travel(_ directory: DataDirectory, now: Date,
                               zone: Zone) -> [(trip: Trip, basis: TravelPrediction.Basis)] {
        guard let data = try? directory.read(UserFile.trips.fileName),
              let trips = UserFileDecoder.trips(data).0 else { return [] }
        let clock = WallClock(zone: zone)
        return trips.filter(\.enabled).map { ($0, TripRecorder.prediction(for: $0, now: now, clock: clock)) }
    }

    /// The alarms following a prayer that cannot ring today (midnight sun, polar night, no place); none when
    /// alarms.json is missing or invalid (its error is listed with the files).
    private static func silentPrayerAlarms(_ directory: DataDirectory, settings: Settings, now: Date,
                                           zone: Zone) -> [String] {
        guard let data = try? directory.read(UserFile.alarms.fileName),
              let alarms = UserFileDecoder.alarms(data).0 else { return [] }
        let clock = WallClock(zone: zone)
        return PrayerTimetable.silentAlarms(alarms, settings: settings, on: clock.localDate(of: now), clock: clock)
    }

    /// settings.json as decoded (the defaults when the file is missing, unreadable or unusable).
    private static func settingsFile(_ directory: DataDirectory) -> Settings {
        guard let data = try? directory.read(UserFile.settings.fileName) else { return Settings() }
        return UserFileDecoder.settings(data, zoneNamed: ZoneDatabase.zone(named:)).0 ?? Settings()
    }
}
