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
        let path = values["--data"] ?? ProcessInfo.processInfo.environment["NUDGE_DATA"] ?? "data"
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
