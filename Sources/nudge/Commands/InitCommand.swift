import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `nudge init [DIR] [--systemd]`: writes a starter data directory, and with `--systemd` the user units that run
/// it when something is due (docs/systemd.md). Never overwrites a file that exists.
enum InitCommand {
    static let systemd = OptionSpec.flag(
        "--systemd", "also write the systemd user units that run nudge when something is due (nudge.service, nudge.path, …)")

    static let calendar = OptionSpec.option(
        "--calendar", "URL", "also make the CalDAV calendar at URL (MKCALENDAR) when it is missing, for "
            + "deliver.calendar (docs/calendar.md)")

    static let command = Command(
        name: "init",
        usage: "nudge init [DIR] [--systemd] [--calendar URL] [--data DIR]",
        summary: "write a starter data directory (settings, one alarm, one laundry pet; desktop notifications on "
            + "when a desktop session bus is there); keeps existing files",
        options: [
            systemd, calendar,
            .data, .help,
        ],
        positionals: 0...1,
        forms: [[.directory]],
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let calendarURL = try arguments.text(calendar).map { text in
            try CalendarSettings.collectionURL(text).mapError { CLIError.usage("nudge init --calendar: \($0)") }.get()
        }
        let given = try arguments.positionals.first.map(FilePath.absolute) ?? arguments.dataDirectory()
        try FilePath.makeDirectories(given, mode: 0o700)
        // The default directory's own files go to $XDG_STATE_HOME/nudge from the start (docs/files.md).
        let directory = try ParsedArguments.directory(at: realPath(given))
            .preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        let zone = SystemZone.choose(settingsZone: nil)
        if let warning = zone.warning { console.warning("nudge: warning: \(warning)") }
        // The desktop channel speaks D-Bus itself (docs/desktop.md): a session bus is all it needs.
        let bus = DesktopChannel.sessionEnvironment(ProcessEnvironment.all())
        // No zone in settings.json: the runs follow the system's, which travels with the laptop (docs/travelling.md, "The zone").
        for (name, content) in starterFiles(zone: nil, desktop: (try? bus.get()) != nil, calendar: calendarURL) {
            try writeUnlessExists(directory.path + "/" + name, content, console)
        }
        if directory.statePath != directory.path {
            console.out("nudge's own files (plan, state, outbox) are kept in \(directory.statePath)")
        }
        if case .failure = bus {
            console.out("Desktop notifications are off: \(SessionBus.missingMessage) Once you are, set "
                + "\"deliver\": {\"desktop\": true} in settings.json.")
        }
        if let calendarURL { try makeCalendar(calendarURL, directory: directory, console: console) }
        guard arguments.has(Self.systemd) else {
            console.out("Next: `nudge run\(dataOption(directory, arguments))` plans them; run it every minute "
                + "with `nudge init --systemd` or cron (see `nudge man`).")
            return .success
        }
        try writeUnits(dataDirectory: directory.path, watched: watched(directory), console)
        return .success
    }

    /// Makes the calendar at `url` when it is missing, with the credentials of settings.json's `deliver.calendar`
    /// (else `~/.netrc`'s), and says what settings.json still needs.
    private static func makeCalendar(_ url: String, directory: DataDirectory, console: Console) throws {
        let configured = directory.settings().deliverCalendar
        // The credentials of settings.json go only to the host they are for; another host's come from ~/.netrc.
        var settings = CalendarSettings(url: url)
        if let configured, configured.host == settings.host {
            settings = configured
            settings.url = url
        }
        switch CalendarChannel(settings: settings, environment: ProcessEnvironment.all()).makeCollection() {
        case .success(true): console.out("made     the calendar \(url)")
        case .success(false): console.out("kept     the calendar \(url) (it exists and takes events)")
        case .failure(let failure): throw CLIError.failure("nudge init: calendar: \(failure)")
        }
        if configured?.url != url {
            console.out("Next: in settings.json, \"deliver\": { \"calendar\": { \"url\": \(JSONValue.string(url).compactText), "
                + "\"user\": \"…\", \"passwordCommand\": [\"…\"] } } (docs/calendar.md)")
        }
    }

    /// What `nudge.path` watches: the data directory when nudge's own files are elsewhere, with the directories
    /// of the user files' link targets; else each user file.
    private static func watched(_ directory: DataDirectory) -> SystemdUnits.Watched {
        guard directory.statePath != directory.path else { return .eachFile }
        let linked = UserFile.allCases.compactMap { file -> String? in
            guard case .success(.linked(let target)) = SymbolicLink.resolve(directory.path + "/" + file.fileName)
            else { return nil }
            return FilePath.parent(of: target)
        }
        return .directory(linkedDirectories: linked)
    }

    /// The user units of `SystemdUnits.files` in the user unit directory, for this very binary and data directory.
    private static func writeUnits(dataDirectory: String, watched: SystemdUnits.Watched, _ console: Console) throws {
        guard let binary = DesktopChannel.executablePath() else {
            throw CLIError.failure("nudge init: cannot find nudge's own executable for the unit file")
        }
        var environment: [String: String] = [:]
        environment["XDG_CONFIG_HOME"] = ProcessEnvironment.variable("XDG_CONFIG_HOME")
        let unitDirectory: String
        switch UserDirectories.userUnitDirectory(environment: environment, home: ParsedArguments.home()) {
        case .success(let path): unitDirectory = path
        case .failure(let problem): throw CLIError.failure("nudge init: \(problem)")
        }
        environment["XDG_CONFIG_DIRS"] = ProcessEnvironment.variable("XDG_CONFIG_DIRS")
        environment["XDG_DATA_DIRS"] = ProcessEnvironment.variable("XDG_DATA_DIRS")
        let installed = UserDirectories.systemUnitDirectories(environment: environment)
        try FilePath.makeDirectories(unitDirectory, mode: 0o755)
        let home = ParsedArguments.home()
        var skipped = false
        for (name, content) in SystemdUnits.files(binary: binary, dataDirectory: dataDirectory, watched: watched,
                                                  home: home) {
            // A unit installed for all users (a package's) is the one to use: one here would shadow it and its
            // updates (docs/packaging.md).
            if let packaged = installed.map({ $0 + "/" + name }).first(where: { access($0, F_OK) == 0 }) {
                console.out("skipped  \(unitDirectory)/\(name) (installed for all users: \(packaged))")
                skipped = true
                continue
            }
            try writeUnlessExists(unitDirectory + "/" + name, content, console)
        }
        if skipped, let home, dataDirectory != home + "/.local/share/nudge" {
            console.out("The units installed for all users plan ~/.local/share/nudge; for \(dataDirectory), add "
                + "`--data \(dataDirectory)` to ExecStart with `systemctl --user edit --full nudge.service`.")
        }
        console.out("Enable the units (they run `nudge run` when something is due, when a file changes and hourly):")
        console.out("  " + SystemdUnits.enableCommand)
    }

    /// Writes a new file, or says why an existing one is kept: init never overwrites what a person may have edited.
    /// A symbolic link counts as existing even when it points nowhere: writing would replace the link.
    private static func writeUnlessExists(_ path: String, _ content: String, _ console: Console) throws {
        if case .success(.dangling(let target)) = SymbolicLink.resolve(path) {
            console.out("kept     \(path) (\(FileAccessProblem.danglingLink(target: target)))")
            return
        }
        var info = stat()
        // A file that cannot be read exists too, and is never replaced.
        guard lstat(path, &info) == 0 else {
            try AtomicFile.write(Array(content.utf8), to: path)
            console.out("created  \(path)")
            return
        }
        let existing = try? PosixFile.contents(of: path).get()
        let note = existing == Array(content.utf8) ? "exists" : "exists; delete it to get the starter version"
        console.out("kept     \(path) (\(note))")
    }

    /// ` --data DIR` when `directory` is not the one nudge finds by itself.
    private static func dataOption(_ directory: DataDirectory, _ arguments: ParsedArguments) -> String {
        let found = (try? ParsedArguments().dataDirectory()).map { realPath($0) }
        return found == directory.path ? "" : " --data \(directory.path)"
    }

    /// The absolute path with symbolic links resolved, or `path` made absolute when that fails.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return FilePath.absolute(path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The starter files; settings.json names `zone` (an IANA name), or no zone when there is none to name: then
    /// nudge follows `TZ` as it finds it.
    static func starterFiles(zone: String?, desktop: Bool, calendar: String? = nil) -> [(String, String)] {
        let zoneLine = zone.map { "\n  \"timeZone\": \(JSONValue.string($0).compactText)," } ?? ""
        let calendarMember = calendar.map { ", \"calendar\": { \"url\": \(JSONValue.string($0).compactText) }" } ?? ""
        return [
            ("settings.json", """
            {\(zoneLine)
              "notifications": { "enabled": true, "sound": true, "badge": true },
              "deliver": { "desktop": \(desktop)\(calendarMember) },
              "laundry": { "foldReminderMinutes": 30, "healthWarnAfterDays": 7 }
            }

            """),
            ("alarms.json", """
            {
              "alarms": [
                { "id": "fajr", "title": "Morning Prayer", "time": "05:30", "durationMinutes": 15,
                  "weekdays": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] }
              ]
            }

            """),
            ("laundry.json", """
            {
              "pets": [
                { "id": "snowy", "name": "Snowy", "washMinutes": 45, "dryMinutes": 60 }
              ]
            }

            """),
        ]
    }
}
