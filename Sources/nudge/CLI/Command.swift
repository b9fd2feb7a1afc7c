/// One subcommand: its name, help and option table, and the function that runs it.
struct Command {
    let name: String
    let usage: String
    let summary: String
    let options: [OptionSpec]
    /// How many positional arguments it takes.
    let positionals: ClosedRange<Int>
    /// The positional words it takes, one list per form (`laundry start PET wash|dry`, `laundry fold PET`, …), for
    /// completion. A form may be left out where nothing can be completed; a shorter form need not be listed.
    var forms: [[Positional]] = []
    let run: (ParsedArguments, Console) throws -> ExitCode
    /// Left out of `--help`: nudge starts it itself (the desktop channel's click waiter).
    var hidden = false

    var helpText: String {
        var lines = ["usage: \(usage)", "", summary, "", "options:"]
        let rendered = options.map { option -> (String, String) in
            switch option.value {
            case .none: return (option.name, option.help)
            case .argument(let placeholder): return ("\(option.name) \(placeholder)", option.help)
            }
        }
        let width = rendered.map(\.0.count).max() ?? 0
        for (name, help) in rendered {
            lines.append("  " + name + String(repeating: " ", count: width - name.count) + "  " + help)
        }
        return lines.joined(separator: "\n")
    }
}
