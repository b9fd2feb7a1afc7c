import FoundationEssentials
import NudgeCore

/// `nudge trip depart|arrive TRIP [--at T]`, `nudge trip log TRIP MINUTES [--departed T]` (docs/files.md): records
/// journeys under the lock, atomically, then re-plans. "Leaving now" and "I'm here" call the same functions.
enum TripCommand {
    static let usage = "nudge trip depart|arrive TRIP [--at T] | log TRIP MINUTES [--departed T] [--now T] [--data DIR]"

    static let command = Command(
        name: "trip",
        usage: usage,
        summary: "record leaving for TRIP, arriving (the journey becomes an observation in trips.json), or a "
            + "journey of MINUTES afterwards",
        options: [
            at, departed,
            .now, .data, .help,
        ],
        positionals: 2...3,
        forms: [
            [.word(["depart"]), .household(.trips)], [.word(["arrive"]), .household(.trips)],
            [.word(["log"]), .household(.trips), .any],
        ],
        run: run)

    static let at = OptionSpec.time("--at", "T", "when you left or arrived (default: now): " + OptionSpec.timeForms)
    static let departed = OptionSpec.time(
        "--departed", "T", "with log: when the journey began (default: now − MINUTES), a time like --at's")

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let words = arguments.positionals
        let now = arguments.now
        let at = arguments.instant(Self.at) ?? now
        func wrong(_ problem: String) -> CLIError { CLIError.usage("nudge trip: \(problem); usage: \(usage)") }
        var minutes: Int?
        switch (words[0], words.count) {
        case ("depart", 2), ("arrive", 2):
            if arguments.text(Self.departed) != nil { throw wrong("--departed goes with log") }
        case ("log", 3):
            guard let number = Int(words[2]) else { throw wrong("\"\(words[2])\" is not a whole number of minutes") }
            if arguments.text(Self.at) != nil { throw wrong("log takes --departed, not --at") }
            minutes = number
        case ("depart", _), ("arrive", _):
            throw wrong("\(words[0]) takes only a trip")
        case ("log", _):
            throw wrong("log needs a trip and its minutes")
        default:
            throw wrong("unknown action \"\(words[0])\" (expected depart, arrive or log)")
        }
        let directory = try arguments.directory().preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        let tripID = words[1]
        try directory.edit(now: now, console: console) { edit in
            // The state first, as a run reads it: a damaged state.json is said before anything else.
            _ = try edit.snapshot()
            switch words[0] {
            case "depart":
                edit.lines = [try TripEdit.depart(tripID, at: at, &edit)]
            case "arrive":
                edit.lines = [try TripEdit.arrive(tripID, at: at, &edit)]
            default:
                let minutes = minutes ?? 0
                let departed = arguments.instant(Self.departed)
                    ?? now.addingTimeInterval(-TimeInterval(minutes) * 60)
                edit.lines = [try TripEdit.record(TravelObservation(departedAt: departed, minutes: minutes),
                                                  tripID: tripID, &edit)]
            }
        }
        return .success
    }
}
