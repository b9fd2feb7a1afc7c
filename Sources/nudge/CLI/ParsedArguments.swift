import Foundation
import NudgeCore

/// The options and positional arguments given to one command, checked against its table.
struct ParsedArguments {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// `--data DIR`, else `$NUDGE_DATA`, else `./data`.
    var dataDirectory: URL {
        // getenv, not ProcessInfo's environment: that builds a dictionary of every variable to read one.
        let path = values["--data"] ?? getenv("NUDGE_DATA").map { String(cString: $0) } ?? "data"
        return URL(fileURLWithPath: path.isEmpty ? "." : path)
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
