/// The exit codes of SPEC §9 (sysexits.h values where one fits).
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 64
    case badData = 65
    /// A channel that `nudge test` tried could not deliver (EX_UNAVAILABLE).
    case unavailable = 69
    case cannotWrite = 73
    case locked = 75
}
