/// The shells `nudge completions` writes a script for.
enum CompletionShell: String, CaseIterable {
    case bash, zsh, fish

    /// The completion script for this shell, made from `commands` (hidden ones left out) and `nudge`'s own
    /// options: the same table `--help` prints, so a new command or option is completed without further work.
    func script(for commands: [Command], options: [OptionSpec]) -> String {
        let table = CompletionTable(commands, options: options)
        switch self {
        case .bash: return BashCompletion.script(table)
        case .zsh: return ZshCompletion.script(table)
        case .fish: return FishCompletion.script(table)
        }
    }

    /// "bash, zsh or fish", for messages.
    static var listing: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}
