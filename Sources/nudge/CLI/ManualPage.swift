/// The manual page, `nudge.1`, in roff: NAME, SYNOPSIS, COMMANDS and EXIT STATUS made from the command table and
/// `ExitCode`, the rest from the texts of `ManualText`.
enum ManualPage {
    static func render(commands: [Command], options: [OptionSpec], version: String, tagline: String) -> String {
        var lines = [
            #".TH NUDGE 1 "" "nudge \#(version)" "User Commands""#,
            // Not hyphenated, not justified: the text is full of options, file names and keys to copy.
            ".nh",
            ".ad l",
            ".SH NAME",
            #"nudge \- "# + Roff.prose(tagline),
            ".SH SYNOPSIS",
            Roff.usage("nudge COMMAND [OPTION]..."),
            ".br",
            Roff.usage("nudge " + options.map(\.name).joined(separator: " | ")),
            ".SH DESCRIPTION",
        ]
        lines += ManualText.description.map(\.roff)
        lines.append(".SH OPTIONS")
        lines += options.map { ManualBlock.entry("`\($0.name)`", $0.help).roff }
        lines.append(".SH COMMANDS")
        lines += ManualText.commands.map(\.roff)
        for command in commands where !command.hidden {
            lines += section(command)
        }
        lines.append(".SH FILES")
        lines += ManualText.files.map(\.roff)
        lines.append(".SH SETTINGS")
        lines += ManualText.settings.map(\.roff)
        lines.append(".SH FILE FORMATS")
        lines += ManualText.formats.map(\.roff)
        lines.append(".SH ENVIRONMENT")
        lines += ManualText.environment.map(\.roff)
        lines.append(".SH EXIT STATUS")
        lines += ExitCode.allCases.map { ManualBlock.entry("`\($0.rawValue)`", $0.meaning).roff }
        lines.append(".SH EXAMPLES")
        lines += ManualText.examples.map(\.roff)
        lines.append(".SH SEE ALSO")
        lines.append(ManualText.seeAlso.map(reference).joined(separator: ",\n"))
        return lines.joined(separator: "\n")
    }

    /// A command's subsection: its usage line, its summary, and each option with its help.
    private static func section(_ command: Command) -> [String] {
        var lines = [".SS " + Roff.prose(command.name), Roff.usage(command.usage), ".PP", Roff.prose(command.summary)]
        for option in command.options {
            var term = Roff.code(option.name)
            if case .argument(let placeholder) = option.value {
                term += #" \fI"# + Roff.prose(placeholder) + #"\fR"#
            }
            lines += [".TP", term, Roff.prose(option.help)]
        }
        return lines
    }

    /// `crontab(5)` as a reference to another page: the name in bold, the section after it.
    private static func reference(_ page: String) -> String {
        guard let open = page.lastIndex(of: "(") else { return Roff.code(page) }
        return Roff.code(String(page[..<open])) + Roff.prose(String(page[open...]))
    }
}
