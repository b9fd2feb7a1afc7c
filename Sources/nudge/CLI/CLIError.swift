import FoundationEssentials

/// Everything that ends a command early, with the text a person reads. `exitCode` is the one place that maps
/// errors to exit codes.
enum CLIError: Error, CustomStringConvertible {
    /// Wrong words on the command line (64).
    case usage(String)
    /// A file's content is wrong (65); each line already names the file and place.
    case badData([String])
    /// A file could not be written (73).
    case cannotWrite(String)
    /// Another run holds the data directory's lock (75).
    case locked(String)
    /// Anything else (1).
    case failure(String)

    var exitCode: ExitCode {
        switch self {
        case .usage: return .usage
        case .badData: return .badData
        case .cannotWrite: return .cannotWrite
        case .locked: return .locked
        case .failure: return .failure
        }
    }

    var description: String {
        switch self {
        case .usage(let message), .cannotWrite(let message), .locked(let message), .failure(let message):
            return message
        case .badData(let lines):
            return lines.joined(separator: "\n")
        }
    }
}
