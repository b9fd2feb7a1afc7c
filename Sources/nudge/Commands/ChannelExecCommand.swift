import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `nudge channel-exec` (internal, docs/promises.md): how the run starts a channel program. It notes its own start
/// (`ChannelStart`: pid, start time, boot id), runs the program in its process group with the standard streams
/// it was given, and notes the program's outcome when it ends. The run waits for it as for the program itself;
/// when the run dies meanwhile, the next run finds in the note whether the program is still going and how it
/// ended, and never starts it a second time.
enum ChannelExecCommand {
    static let note = OptionSpec.option("--note", "FILE", "where to note the start and the outcome")
    static let id = OptionSpec.option("--id", "ID", "the delivery's id")
    static let channel = OptionSpec.option("--channel", "CHANNEL", "desktop or command")
    static let attempts = OptionSpec.whole("--attempts", "N", 0...Int.max, "the delivery's failed attempts so far")
    static let limit = OptionSpec.seconds("--limit", "S", 0...1_000_000_000,
                                          "how many seconds the program may run (none: the click waiter)")

    static let command = Command(
        name: HelperCommands.channelExec,
        usage: "nudge channel-exec --note FILE --id ID --channel CHANNEL --attempts N [--limit S] -- PROGRAM ARGUMENTS…",
        summary: "(started by nudge) run a channel program, noting its start and how it ended",
        options: [
            note, id, channel, attempts, limit,
            .help,
        ],
        positionals: 1...4_096,
        run: run,
        hidden: true)

    /// The environment variable that tells the click waiter where its note is, to mark it shown.

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        guard let note = arguments.text(Self.note), let id = arguments.text(Self.id),
              let channel = arguments.text(Self.channel).flatMap(DeliveryChannel.init(rawValue:)),
              let attempts = arguments.whole(Self.attempts) else {
            throw CLIError.usage("nudge channel-exec: usage: \(command.usage)")
        }
        let program = arguments.positionals
        var start = ChannelStart(id: id, channel: channel, attempts: attempts, pid: getpid(),
                                 startTime: ChannelProgram.stat(of: getpid())?.startTime ?? 0,
                                 bootID: ChannelProgram.bootID ?? "unknown", startedAt: RunClock(fixed: nil).now(),
                                 limit: arguments.seconds(Self.limit))
        // Not flushed: a process that dies leaves the note whole (the rename is atomic); a power loss changes the
        // boot id, and the program is started again whatever the note says.
        try AtomicFile.write(start.fileContent, to: note, durability: .derived)
        var environment = ProcessEnvironment.all()
        if start.limit == nil { environment[HelperCommands.startNoteVariable] = note }   // only the click waiter marks it shown
        // The run reads the program's own exit status from this process: the same code, or 128 + its signal.
        var code: Int32 = 0
        switch ChildProcess.spawn(program, environment: environment, stdout: STDOUT_FILENO, stderr: STDERR_FILENO,
                                  placement: .sameGroup) {
        case .failure(let error):
            start.outcome = "cannot start \(program[0]): \(error.reason)"
            console.error("nudge: \(start.outcome ?? "")")
            code = 127
        case .success(let pid):
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            start.outcome = ChildProcess.describe(status: status, program: program[0]) ?? ""
            code = status & 0x7f != 0 ? 128 + (status & 0x7f) : (status >> 8) & 0xff
        }
        // The waiter may have marked the note shown meanwhile: keep that.
        if case .success(let data) = PosixFile.contents(of: note), let noted = ChannelStart(fileContent: data) {
            start.shown = noted.shown
        }
        try? AtomicFile.write(start.fileContent, to: note, durability: .derived)
        exit(code)
    }
}
