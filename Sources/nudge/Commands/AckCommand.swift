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
        let lock = try directory.lock(wait: DirectoryLock.editingWait)
        defer { withExtendedLifetime(lock) {} }
        guard var state = try DataSnapshot.load(directory).state else {
            console.out("Badge: 0 (nothing delivered yet)")
            return .success
        }
        let previous = state.badge
        state.badge = 0
        try Commit(state: state).write(to: directory)
        console.out("Badge cleared (was \(previous)).")
        return .success
    }
}
