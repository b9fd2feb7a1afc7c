import Foundation
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `nudge channel-exec` (internal, SPEC §7): how the run starts a channel program. It notes its own start
/// (`ChannelStart`: pid, start time, boot id) and then becomes the program (exec, same pid), so the note exists
/// whenever the program ran, even when the run that started it was killed at once; the next run then does not
/// start it a second time.
enum ChannelExecCommand {
    static let command = Command(
        name: "channel-exec",
        usage: "nudge channel-exec --note FILE --id ID --channel CHANNEL --attempts N -- PROGRAM ARGUMENTS…",
        summary: "(started by nudge) note the start of a channel program, then run it",
        options: [
            .option("--note", "FILE", "where to note the start"),
            .option("--id", "ID", "the delivery's id"),
            .option("--channel", "CHANNEL", "desktop or command"),
            .option("--attempts", "N", "the delivery's failed attempts so far"),
            .help,
        ],
        positionals: 1...4_096,
        run: run,
        hidden: true)

    /// The environment variable that tells the started program where its note is.
    static let noteVariable = "NUDGE_START_NOTE"

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        guard let note = arguments.values["--note"], let id = arguments.values["--id"],
              let channel = arguments.values["--channel"].flatMap(DeliveryChannel.init(rawValue:)),
              let attempts = arguments.values["--attempts"].flatMap(Int.init),
              let startTime = ChannelProgram.stat(of: getpid())?.startTime else {
            throw CLIError.usage("nudge channel-exec: usage: \(command.usage)")
        }
        let start = ChannelStart(id: id, channel: channel, attempts: attempts, pid: getpid(), startTime: startTime,
                                 bootID: ChannelProgram.bootID)
        // Not flushed: a process that dies leaves the note whole (the rename is atomic); a power loss changes the
        // boot id, and the program is started again whatever the note says.
        try AtomicFile.write(start.fileContent, to: URL(fileURLWithPath: note), durability: .derived)
        let program = arguments.positionals
        // The click waiter removes the note when it could not show its notification, so the next run tries again.
        setenv(noteVariable, note, 1)
        let argv = program.map { strdup($0) } + [nil]
        execvp(program[0], argv)
        let reason = String(cString: strerror(errno))
        unlink(note)
        console.error("nudge: cannot start \(program[0]): \(reason)")
        return .unavailable
    }
}
