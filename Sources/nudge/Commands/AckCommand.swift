import FoundationEssentials
import NudgeCore

/// `nudge ack`: clears the badge (the count of delivered `badge: true` notifications).
enum AckCommand {
    static let command = Command(
        name: "ack",
        usage: "nudge ack [--data DIR]",
        summary: "clear the badge",
        options: [.data, .help],
        positionals: 0...0,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = try arguments.directory().preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        try directory.edit(now: arguments.now, console: console) { edit in
            edit.replans = false
            guard try edit.snapshot().state != nil else {
                edit.lines = ["Badge: 0 (nothing delivered yet)"]
                return
            }
            let previous = try edit.changeState { $0.clearBadge() }
            edit.lines = ["Badge cleared (was \(previous))."]
        }
        return .success
    }
}
