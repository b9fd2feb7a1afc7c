/// The exit codes (sysexits.h values where one fits), in the order they are documented. Each carries
/// its meaning, the one text that `nudge --help` and the manual's EXIT STATUS both print.
enum ExitCode: Int32, CaseIterable {
    case success = 0
    case usage = 64
    case badData = 65
    /// A channel that `nudge test` tried could not deliver (EX_UNAVAILABLE).
    case unavailable = 69
    case cannotWrite = 73
    /// The results could not be written to standard output: a full disk under cron's mail, a closed pipe
    /// (EX_IOERR).
    case cannotOutput = 74
    case locked = 75
    case failure = 1

    var meaning: String {
        switch self {
        case .success:
            return "success"
        case .usage:
            return "wrong usage: an unknown command, option or action (of `act`, `laundry`, `trip`), a missing or "
                + "malformed value"
        case .badData:
            return "bad data: a broken user file (the others still plan and deliver), a damaged state.json or "
                + "plan.json, an unknown pet, game or delivery id, an action the notification does not offer"
        case .unavailable:
            return "a channel that `nudge test` tried could not deliver"
        case .cannotWrite:
            return "a file could not be written"
        case .cannotOutput:
            return "the output could not be written (a full disk, a closed pipe); what was due is still in the " 
                + "outbox and on the other channels"
        case .locked:
            return "another run holds the data directory's lock (`--wait S` waits up to S seconds)"
        case .failure:
            return "no usable data directory (a missing data directory, a file in its place, one nudge cannot "
                + "read), and anything else"
        }
    }
}
