/// `nudge completions bash|zsh|fish`: prints the shell's completion script, generated from the same
/// command table as `--help`.
enum CompletionsCommand {
    static let command = Command(
        name: "completions",
        usage: "nudge completions " + CompletionShell.choices,
        summary: "print the completion script for \(CompletionShell.listing), made from this command table",
        options: [.help],
        positionals: 0...1,
        forms: [[.word(CompletionShell.allCases.map(\.rawValue))]],
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        guard let name = arguments.positionals.first else {
            throw CLIError.usage("nudge completions: name the shell (\(CompletionShell.listing)); "
                + "usage: \(command.usage)")
        }
        guard let shell = CompletionShell(rawValue: name) else {
            throw CLIError.usage("nudge completions: unknown shell \"\(name)\" (expected \(CompletionShell.listing)); "
                + "usage: \(command.usage)")
        }
        console.out(shell.script(for: NudgeCLI.commands, options: NudgeCLI.options))
        return .success
    }
}
