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
        var text = ""
        for (index, shell) in allCases.enumerated() {
            text += index == 0 ? "" : index == allCases.count - 1 ? " or " : ", "
            text += shell.rawValue
        }
        return text
    }

    /// "bash|zsh|fish", for the usage line. (A loop, not `joined`: the command table is built on every start,
    /// and the first `joined` costs a search of the runtime's conformance records.)
    static var choices: String {
        var text = ""
        for shell in allCases {
            text += (text.isEmpty ? "" : "|") + shell.rawValue
        }
        return text
    }
}
