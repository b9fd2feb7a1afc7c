import FoundationEssentials
import Glibc
import NudgeCore

/// The options and positional arguments given to one command, checked against its table.
struct ParsedArguments {
    /// The options given with a value, by name.
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    /// The instants the time options (`--now`, `--at`, `--departed`) name, once read (`readTimes`).
    private var instants: [String: Date] = [:]

    /// Whether the flag `option` was given.
    func has(_ option: OptionSpec) -> Bool { flags.contains(option.name) }

    /// The text given to `option`.
    func text(_ option: OptionSpec) -> String? { values[option.name] }

    /// The instant a time option names (`readTimes` read it).
    func instant(_ option: OptionSpec) -> Date? { instants[option.name] }

    /// The seconds given to `option` (checked against its range when parsed).
    func seconds(_ option: OptionSpec) -> Double? { values[option.name].flatMap(Double.init) }

    /// The whole number given to `option` (checked against its range when parsed).
    func whole(_ option: OptionSpec) -> Int? { values[option.name].flatMap { Int($0) } }

    /// `--data DIR`, else `$NUDGE_DATA`, else `$XDG_DATA_HOME/nudge` (`~/.local/share/nudge`).
    func dataDirectory() throws -> String {
        if let path = text(.data) ?? ProcessEnvironment.variable("NUDGE_DATA") {
            return FilePath.absolute(path)
        }
        return FilePath.absolute(try Self.defaultDataDirectory())
    }

    /// The data directory the options name (`dataDirectory`), and where its own files live: `$XDG_STATE_HOME/nudge`
    /// for the default one (docs/files.md, "Where nudge keeps its own files").
    func directory() throws -> DataDirectory {
        Self.directory(at: try dataDirectory())
    }

    /// The data directory at `path`, and where its own files live.
    static func directory(at path: String) -> DataDirectory {
        var environment: [String: String] = [:]
        environment["XDG_STATE_HOME"] = ProcessEnvironment.variable("XDG_STATE_HOME")
        let stateHome = try? UserDirectories.stateDirectory(environment: environment, home: home()).get()
        return DataDirectory.at(path, defaultPath: try? defaultDataDirectory(), stateHome: stateHome)
    }

    /// `$XDG_DATA_HOME/nudge`, else `$HOME/.local/share/nudge`.
    static func defaultDataDirectory() throws -> String {
        var environment: [String: String] = [:]
        environment["XDG_DATA_HOME"] = ProcessEnvironment.variable("XDG_DATA_HOME")
        switch UserDirectories.dataDirectory(environment: environment, home: home()) {
        case .success(let path): return path
        case .failure(let problem): throw CLIError.failure("nudge: \(problem)")
        }
    }

    /// `$HOME`, else the account's home directory from the password database (a job started without one).
    static func home() -> String? {
        if let home = ProcessEnvironment.variable("HOME"), home.hasPrefix("/") { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    /// `--now T` when given, else the system clock in whole seconds.
    var now: Date {
        instant(.now) ?? RunClock(fixed: nil).now()
    }

    /// Reads each time option as the instant it names (docs/promises.md): one with an offset as it is, a local
    /// date-time or a time of day on the wall clock of the data directory's zone — the zone its runs use, read
    /// only when needed. Outside the years 2000 to 2200 it is a usage error.
    mutating func readTimes(_ command: Command) throws {
        var clock: WallClock?
        // `--now` first: a time of day given to the others is on its date.
        let options = command.options.filter { $0.isTime && $0.name == OptionSpec.now.name }
            + command.options.filter { $0.isTime && $0.name != OptionSpec.now.name }
        for name in options.map(\.name) {
            guard let text = values[name] else { continue }
            guard let typed = TypedTime(text) else { throw ArgumentParser.notATime(text, for: name, command: command.name) }
            if typed.isLocal, clock == nil {
                let settings = try directory().settings()
                clock = WallClock(zone: SystemZone.resolve(settingsZone: settings.timeZone))
            }
            // An instant with an offset reads the same in every zone: UTC stands in when none was needed.
            let instant = typed.instant(now: now, clock: clock ?? WallClock(zone: .utc))
            guard InstantBounds.range.contains(instant) else {
                throw ArgumentParser.notATime(text, for: name, command: command.name)
            }
            instants[name] = instant
        }
    }

}
