/// One command-line option: its name, whether it takes a value, and its help line.
struct OptionSpec {
    enum Value {
        /// A flag: present or not.
        case none
        /// Takes one argument, shown in help as `placeholder`.
        case argument(placeholder: String)
    }

    let name: String
    let value: Value
    let help: String
    /// What completion offers for the value (an option's value only).
    var completion = Positional.any

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: .none, help: help)
    }

    static func option(_ name: String, _ placeholder: String, _ help: String,
                       completion: Positional = .any) -> OptionSpec {
        OptionSpec(name: name, value: .argument(placeholder: placeholder), help: help, completion: completion)
    }

    /// Whether it is followed by a value (`--data DIR`), which is then no positional word.
    var takesValue: Bool {
        if case .argument = value { return true }
        return false
    }

    static let data = option("--data", "DIR", "data directory (default: $NUDGE_DATA, else ~/.local/share/nudge; "
        + "$XDG_DATA_HOME/nudge when that is set)", completion: .directory)
    static let now = option("--now", "T", "act as if the clock read T: " + timeForms)

    /// What an option that takes a time accepts, for its help line.
    static let timeForms = "19:30 (today) or 2026-11-25T08:00 in the data directory's zone, or an instant such as "
        + "2026-11-25T08:00:00Z or 2026-11-25T08:00+03:00"
    static let json = flag("--json", "print JSON instead of text")
    static let help = flag("--help", "show this help")
}
