import FoundationEssentials
import Glibc
import NudgeCore

/// The options and positional arguments given to one command, checked against its table.
struct ParsedArguments {
    /// The options given with a value, by name.
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// `--data DIR`, else `$NUDGE_DATA`, else `$XDG_DATA_HOME/nudge` (`~/.local/share/nudge`), SPEC §1.
    func dataDirectory() throws -> String {
        if let path = values["--data"] ?? ProcessEnvironment.variable("NUDGE_DATA") {
            return FilePath.absolute(path)
        }
        return FilePath.absolute(try Self.defaultDataDirectory())
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

    /// `--now T` when given (already validated), else the system clock in whole seconds.
    var now: Date {
        values["--now"].flatMap(RFC3339.parse) ?? RunClock(fixed: nil).now()
    }

    /// A non-negative number of seconds given to `option`, or `fallback`.
    func seconds(_ option: String, default fallback: Double) -> Double {
        values[option].flatMap(Double.init) ?? fallback
    }
}
