import FoundationEssentials
import NudgeCore

/// `nudge times [--date D] [--days N] [--json]`: the prayer times computed for `settings.prayerTimes`, to hold
/// against a mosque's timetable (docs/files.md, "Prayer times").
enum TimesCommand {
    /// The most days one call prints.
    static let dayLimit = 366

    static let date = OptionSpec.option("--date", "D", "the first local date, YYYY-MM-DD (default: today)")
    static let days = OptionSpec.whole("--days", "N", 1...dayLimit, "how many days, 1 to \(dayLimit) (default 1)")

    static let command = Command(
        name: "times",
        usage: "nudge times [--date D] [--days N] [--json] [--now T] [--data DIR]",
        summary: "print the prayer times computed for settings.prayerTimes (fajr, sunrise, dhuhr, asr, maghrib, isha)",
        options: [
            date, days,
            .json, .now, .data, .help,
        ],
        positionals: 0...0,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let days = arguments.whole(Self.days) ?? 1
        let firstDate = try arguments.text(Self.date).map { text -> LocalDate in
            guard let date = LocalDate.parse(text) else {
                throw CLIError.usage("nudge times: --date takes a local date YYYY-MM-DD, not '\(text)'")
            }
            return date
        }
        let directory = try arguments.directory()
        try directory.requireExists()
        let (settings, problems) = try readSettings(directory)
        guard problems.isEmpty else { throw CLIError.badData(problems) }
        let prayerTimes = settings.prayerTimes ?? PrayerSettings()
        let clock = WallClock(zone: SystemZone.resolve(settingsZone: settings.timeZone))
        guard let calendar = PrayerCalendar(settings: prayerTimes, clock: clock) else {
            throw CLIError.badData(["\(directory.path)/settings.json: "
                + "\(prayerTimes.missingKeys.joined(separator: " and ")) missing: nudge times needs the place, such "
                + "as \"prayerTimes\": { \"latitude\": 52.52, \"longitude\": 13.405 }"])
        }
        let first = firstDate ?? clock.localDate(of: arguments.now)
        console.out(arguments.has(.json) ? PrayerTimetable.json(calendar, from: first, days: days).prettyText
                                            : PrayerTimetable.text(calendar, from: first, days: days))
        return .success
    }

    /// `--days N`: 1 by default.
    /// settings.json decoded, with its problems as lines (`DIR/settings.json: prayerTimes.latitude: …`); the
    /// defaults when it is missing.
    private static func readSettings(_ directory: DataDirectory) throws -> (Settings, [String]) {
        guard let data = try directory.read(UserFile.settings) else { return (Settings(), []) }
        let (settings, report) = UserFileDecoder.settings(data, zoneNamed: ZoneDatabase.zone(named:))
        return (settings ?? Settings(), report.problems.map { "\(directory.path)/\($0)" })
    }
}
