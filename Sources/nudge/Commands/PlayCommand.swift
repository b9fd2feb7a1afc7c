import FoundationEssentials
import NudgeCore

/// `nudge play GAME [--at T] [--add]`: records a play in streaks.json under the lock, atomically.
enum PlayCommand {
    static let command = Command(
        name: "play",
        usage: "nudge play GAME [--at T] [--add] [--now T] [--data DIR]",
        summary: "record a play of GAME in streaks.json (a streak reminder for the day it was played leaves the plan)",
        options: [
            at, add,
            .now, .data, .help,
        ],
        positionals: 1...1,
        forms: [[.household(.games)]],
        run: run)

    static let at = OptionSpec.time("--at", "T", "when it was played (default: now): " + OptionSpec.timeForms)
    static let add = OptionSpec.flag(
        "--add", "add GAME to the games if it is not there (its streak is then derived from plays)")

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let now = arguments.now
        let directory = try arguments.directory().preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        let game = arguments.positionals[0]
        let at = arguments.instant(Self.at) ?? now
        try directory.edit(now: now, console: console) { edit in
            switch StreakEditor.recordPlay(in: try edit.read(.streaks), game: game, at: at,
                                           addGame: arguments.has(Self.add)) {
            case .success(let content):
                try edit.write(.streaks, content)
                edit.lines = ["Recorded a play of \(game) at \(TextFormat.localDateTime(at, edit.clock))."]
            case .failure(let failure):
                throw edit.badData(failure.description)
            }
        }
        return .success
    }
}
