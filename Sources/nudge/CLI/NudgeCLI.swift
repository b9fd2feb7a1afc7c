import FoundationEssentials
import Glibc
import NudgeCore

/// The command line: picks the command, parses its arguments, runs it, and maps any error to an exit code.
enum NudgeCLI {
    /// The version `--version` and the manual print: the top entry of CHANGELOG.md (a test holds the two equal).
    static let version = "0.5.0"
    /// What nudge is, in one line: the overview's first line and the manual's NAME.
    static let tagline = "a local notification planner that systemd runs when something is due"

    static let commands: [Command] = [
        RunCommand.command, PlanCommand.command, StatusCommand.command, CheckCommand.command, TestCommand.command,
        SnoozeCommand.command, ActCommand.command, AckCommand.command, LaundryCommand.command, PlayCommand.command,
        TripCommand.command, ImportCommand.command, TimesCommand.command, InitCommand.command, CompletionsCommand.command,
        ManCommand.command, DesktopWaitCommand.command,
        ChannelExecCommand.command, CompleteValuesCommand.command,
    ]

    /// The command called `name`, building only its own table: `commands` builds all of them (their option lists,
    /// positional forms and help strings), which a `nudge run` every minute does not need.
    /// `commands` stays the list that help, the manual and the completions show; a test checks the two agree.
    static func command(named name: String) -> Command? {
        switch name {
        case "run": RunCommand.command
        case "plan": PlanCommand.command
        case "status": StatusCommand.command
        case "check": CheckCommand.command
        case "test": TestCommand.command
        case "snooze": SnoozeCommand.command
        case "act": ActCommand.command
        case "ack": AckCommand.command
        case "laundry": LaundryCommand.command
        case "play": PlayCommand.command
        case "trip": TripCommand.command
        case "import": ImportCommand.command
        case "times": TimesCommand.command
        case "init": InitCommand.command
        case "completions": CompletionsCommand.command
        case "man": ManCommand.command
        case "desktop-wait": DesktopWaitCommand.command
        case "channel-exec": ChannelExecCommand.command
        case "complete-values": CompleteValuesCommand.command
        default: nil
        }
    }

    /// `arguments` with the command first: `nudge --data DIR status` is `nudge status --data DIR`. The command is
    /// the first word that names one and is not the value of the option before it (as that command reads its
    /// options); nothing moves when the first word is the command, an option of nudge itself, or none is found.
    static func commandFirst(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("-"), !options.contains(where: { $0.name == first }),
              first != "-h" else { return arguments }
        for index in arguments.indices.dropFirst() {
            guard let command = command(named: arguments[index]) else { continue }
            let before = arguments[index - 1]
            let takesValue = command.options.contains { option in
                guard option.name == before, case .argument = option.value else { return false }
                return true
            }
            if takesValue { continue }
            return [arguments[index]] + arguments[..<index] + arguments[(index + 1)...]
        }
        return arguments
    }

    /// The options of `nudge` itself, without a command.
    static let options: [OptionSpec] = [
        .flag("--help", "show this overview of the commands (also -h and help)"),
        .flag("--version", "print the version"),
    ]

    /// Runs the command `arguments` name and returns the exit code. A failed write of the results to standard
    /// output (a full disk under cron's mail, a closed pipe: SIGPIPE is ignored so that nudge sees it) is said on
    /// stderr and makes an otherwise successful command exit 74.
    static func main(_ arguments: [String]) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let console = Console()
        let code = command(arguments, console)
        guard let failure = console.outputFailure() else {
            console.flush()
            return code
        }
        console.error("nudge: could not write the output: \(failure)")
        return code == ExitCode.success.rawValue ? ExitCode.cannotOutput.rawValue : code
    }

    /// `main` without the check of standard output.
    private static func command(_ arguments: [String], _ console: Console) -> Int32 {
        let arguments = commandFirst(arguments)
        guard let first = arguments.first else {
            console.error(overview)
            return ExitCode.usage.rawValue
        }
        switch first {
        case "--help", "-h":
            console.out(overview)
            return ExitCode.success.rawValue
        case "help":
            // `nudge help CMD` is `nudge CMD --help`.
            guard arguments.count > 1 else {
                console.out(overview)
                return ExitCode.success.rawValue
            }
            return command([arguments[1], "--help"], console)
        case "--version":
            console.out("nudge \(version)")
            return ExitCode.success.rawValue
        default:
            break
        }
        guard let command = command(named: first) else {
            let names = commands.filter { !$0.hidden }.map(\.name)
            var message = "nudge: unknown command '\(first)'"
            if let suggestion = Spelling.closest(to: first, among: names) {
                message += " (did you mean \(suggestion)?)"
            }
            console.error(message + "; commands: " + names.joined(separator: ", ") + " (see nudge --help)")
            return ExitCode.usage.rawValue
        }
        do {
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command)
            if parsed.has(.help) {
                console.out(command.helpText)
                return ExitCode.success.rawValue
            }
            return try command.run(parsed, console).rawValue
        } catch let error as CLIError {
            console.error(error.description)
            return error.exitCode.rawValue
        } catch {
            console.error("nudge \(command.name): \(error)")
            return ExitCode.failure.rawValue
        }
    }

    static var overview: String {
        var lines = [
            "nudge \(version) — \(tagline)",
            "",
            "usage: nudge COMMAND [options]   (nudge COMMAND --help for its options)",
            "",
            "commands:",
        ]
        let listed = commands.filter { !$0.hidden }
        let width = listed.map(\.name.count).max() ?? 0
        for command in listed {
            lines.append("  " + command.name + String(repeating: " ", count: width - command.name.count)
                + "  " + command.summary)
        }
        lines += ["", "exit codes:"]
        let codeWidth = ExitCode.allCases.map { String($0.rawValue).count }.max() ?? 0
        for code in ExitCode.allCases {
            let number = String(code.rawValue)
            lines.append("  " + String(repeating: " ", count: codeWidth - number.count) + number + "  " + code.meaning)
        }
        return lines.joined(separator: "\n")
    }
}
