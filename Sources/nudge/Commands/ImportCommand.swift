import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `nudge import [--game GAME] [TEXT]` (docs/files.md): a game's share text, from the argument or stdin, becomes an
/// import and a play in streaks.json, under the lock, atomically, then re-plans.
enum ImportCommand {
    static let command = Command(
        name: "import",
        usage: "nudge import [--game GAME] [TEXT] [--now T] [--data DIR]",
        summary: "import a game result from its share text (TEXT, or stdin: `wl-paste | nudge import`); Wordle, "
            + "Connections, The Mini and Strands are recognised",
        options: [
            game,
            .now, .data, .help,
        ],
        positionals: 0...1,
        run: run)

    static let game = OptionSpec.option("--game", "GAME", "the game of streaks.json the text belongs to; its first line "
        + "is then the summary unless the text is recognised", completion: .household(.games))

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let now = arguments.now
        let directory = try arguments.directory().preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        let text: [UInt8]
        if let argument = arguments.positionals.first {
            text = Array(argument.utf8)
        } else {
            guard isatty(STDIN_FILENO) == 0 else {
                throw CLIError.usage("nudge import: give the share text as an argument or on stdin, e.g. "
                    + "`wl-paste | nudge import` or `xclip -o -selection clipboard | nudge import`")
            }
            text = try readStandardInput()
        }
        try directory.edit(now: now, console: console) { edit in
            let clock = edit.clock
            switch ImportEditor.importResult(text, game: arguments.text(Self.game), in: try edit.read(.streaks),
                                             now: now, clock: clock) {
            case let .success(.imported(content, entry, gameName)):
                try edit.write(.streaks, content)
                edit.lines = ["Imported \(gameName): \(entry.summary) (\(entry.id)); a play at "
                    + "\(TextFormat.localDateTime(now, clock)) counts for the streak."]
            case let .success(.alreadyImported(entry, gameName)):
                edit.lines = ["\(gameName): \(entry.id) already imported at "
                    + "\(TextFormat.localDateTime(entry.importedAt, clock)) (\(entry.summary)); nothing changed."]
                edit.replans = false
            case .failure(let failure):
                throw edit.badData(failure.description, command: "import", file: .streaks)
            }
        }
        return .success
    }

    /// Stdin to its end, keeping at most one byte more than a share text may have (the rest is counted, so
    /// the message can say how long it was, and discarded).
    private static func readStandardInput() throws -> [UInt8] {
        var kept: [UInt8] = []
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError.failure("nudge import: cannot read stdin: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            total += count
            if kept.count <= ImportEditor.maximumBytes {
                kept += buffer[0..<min(count, ImportEditor.maximumBytes + 1 - kept.count)]
            }
        }
        if total > kept.count {
            throw CLIError.badData(["nudge import: " + ImportEditor.Failure.tooLong(bytes: total).description])
        }
        return kept
    }
}
