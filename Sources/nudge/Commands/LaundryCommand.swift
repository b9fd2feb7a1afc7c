import FoundationEssentials
import NudgeCore

/// `nudge laundry start PET wash|dry`, `nudge laundry fold PET`, `nudge laundry stop PET`: edits laundry.json
/// under the lock, atomically.
enum LaundryCommand {
    static let usage = "nudge laundry start PET wash|dry | fold PET | stop PET [--now T] [--data DIR]"

    static let command = Command(
        name: "laundry",
        usage: usage,
        summary: "start a wash or dry, fold, or stop PET's laundry cycle in laundry.json",
        options: [.now, .data, .help],
        positionals: 2...3,
        forms: [
            [.word(["start"]), .household(.pets), .word(LaundryCycle.Stage.allCases.map(\.rawValue))],
            [.word(["fold"]), .household(.pets)],
            [.word(["stop"]), .household(.pets)],
        ],
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let action = try parseAction(arguments.positionals)
        let petID = arguments.positionals[1]
        let directory = try arguments.directory().preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        try directory.edit(now: arguments.now, console: console) { edit in
            edit.lines = try LaundryEdit.apply(action, toPet: petID, &edit)
        }
        return .success
    }

    /// ACTION PET [STAGE] as an action; every other combination is a usage error (exit 64).
    static func parseAction(_ positionals: [String]) throws -> LaundryEditor.Action {
        func wrong(_ problem: String) -> CLIError {
            CLIError.usage("nudge laundry: \(problem); usage: \(usage)")
        }
        switch (positionals[0], positionals.count) {
        case ("start", 3):
            guard let stage = LaundryCycle.Stage(rawValue: positionals[2]) else {
                throw wrong("\"\(positionals[2])\" is not a stage (expected wash or dry)")
            }
            return .start(stage)
        case ("start", _):
            throw wrong("start needs a pet and a stage (wash or dry)")
        case ("fold", 2):
            return .fold
        case ("stop", 2):
            return .stop
        case ("fold", _), ("stop", _):
            throw wrong("\(positionals[0]) takes only a pet")
        default:
            throw wrong("unknown action \"\(positionals[0])\" (expected start, fold or stop)")
        }
    }
}
