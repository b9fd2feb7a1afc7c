/// What the completion scripts of every shell offer, worked out once from the command table: the commands
/// `--help` lists, their options, and what may be typed at each place among their positional words.
///
/// The scripts agree on one key for "where am I": the command, the number of positional words typed before the
/// cursor, and those words, separated by spaces (`laundry 2 start snowy`). Each `Slot` is a glob pattern over
/// that key (`laundry 2 start *`) with what to offer there, so every shell matches it with its own `case`.
struct CompletionTable {
    /// One place among a command's positional words, and what completion offers there.
    struct Slot: Equatable {
        let command: String
        /// The positional words before it: the word each must be, or nil where any word may stand.
        let before: [String?]
        var words: [String]
        var directories: Bool
        /// The ids of the data directory offered here (`nudge complete-values`), after `words`.
        var ids: [HouseholdIDs] = []

        /// The parts of the key pattern: literal text, or nil for `*` (any one word).
        var pattern: [String?] {
            [command, String(before.count)] + before
        }
    }

    /// The commands a person can type: hidden ones are never offered.
    let commands: [Command]
    /// The options of `nudge` itself, before any command (`--help`, `--version`).
    let options: [OptionSpec]
    let slots: [Slot]

    init(_ commands: [Command], options: [OptionSpec]) {
        self.commands = commands.filter { !$0.hidden }
        self.options = options
        var slots: [Slot] = []
        for command in self.commands {
            for form in command.forms {
                for (index, positional) in form.enumerated() {
                    let ids = positional.ids.map { [$0] } ?? []
                    guard !positional.words.isEmpty || positional == .directory || !ids.isEmpty else { continue }
                    for before in Self.prefixes(form[..<index]) {
                        let slot = Slot(command: command.name, before: before, words: positional.words,
                                        directories: positional == .directory, ids: ids)
                        if let same = slots.firstIndex(where: { $0.command == slot.command && $0.before == before }) {
                            slots[same].words += slot.words.filter { !slots[same].words.contains($0) }
                            slots[same].directories = slots[same].directories || slot.directories
                            slots[same].ids += slot.ids.filter { !slots[same].ids.contains($0) }
                        } else {
                            slots.append(slot)
                        }
                    }
                }
            }
        }
        self.slots = slots
    }

    /// Every way the positional words before a place can read: one list per choice of fixed words.
    private static func prefixes(_ positionals: ArraySlice<Positional>) -> [[String?]] {
        positionals.reduce([[]]) { partial, positional in
            let choices: [String?] = positional.fixedWords ?? [nil]
            return partial.flatMap { prefix in choices.map { prefix + [$0] } }
        }
    }

    /// The options of every command that are followed by a value, for skipping that value when counting
    /// positional words, with what to offer for it.
    var valueOptions: [(command: String, option: OptionSpec)] {
        commands.flatMap { command in
            command.options.filter(\.takesValue).map { (command.name, $0) }
        }
    }

    /// The `case` patterns, for bash and zsh, of "COMMAND OPTION" for the options with a value that `include`
    /// picks, one line per command, joined into one list of alternatives that continues over the lines.
    func optionPatterns(indent: String, where include: (OptionSpec) -> Bool = { _ in true }) -> String? {
        let lines = commands.compactMap { command -> String? in
            let options = command.options.filter { $0.takesValue && include($0) }
            guard !options.isEmpty else { return nil }
            return options.map { Self.singleQuoted("\(command.name) \($0.name)") }.joined(separator: "|")
        }
        return lines.isEmpty ? nil : lines.joined(separator: "|\\\n" + indent)
    }

    /// A pattern over the key in the glob syntax of bash's and zsh's `case`: literal runs single-quoted, `*` for
    /// any word.
    static func casePattern(_ parts: [String?]) -> String {
        var pattern = ""
        var literal = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { literal += " " }
            if let part {
                literal += part
            } else {
                pattern += (literal.isEmpty ? "" : singleQuoted(literal)) + "*"
                literal = ""
            }
        }
        return pattern + (literal.isEmpty ? "" : singleQuoted(literal))
    }

    /// `text` as one word for bash and zsh: single quotes, any `'` inside closed, escaped and reopened.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }
}
