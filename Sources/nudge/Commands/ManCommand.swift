/// `nudge man`: prints the manual page in roff, made from the command table and the manual's texts.
enum ManCommand {
    static let command = Command(
        name: "man",
        usage: "nudge man",
        summary: "print the manual page (roff): `nudge man | man -l -`, or save it as nudge.1 in a man directory",
        options: [.help],
        positionals: 0...0,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        console.out(ManualPage.render(commands: NudgeCLI.commands, options: NudgeCLI.options,
                                      version: NudgeCLI.version, tagline: NudgeCLI.tagline))
        return .success
    }
}
