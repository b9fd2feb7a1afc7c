/// One command-line option: its name, whether it takes a value and of what kind, and its help line. A command
/// declares its options once; parsing, range checks, `--help`, the manual and the completions are made from them,
/// and the command reads what was given through them (`ParsedArguments.has`, `text`, `instant`, `seconds`,
/// `whole`).
struct OptionSpec {
    enum Value {
        /// A flag: present or not.
        case none
        /// Takes one argument, shown in help as `placeholder`.
        case argument(placeholder: String)
    }

    /// What an option's argument must be; anything else is a usage error (exit 64) that says so.
    enum Kind {
        case text
        /// A time: a time of day, a local date-time or an instant (`TypedTime`), read in the data directory's zone.
        case time
        /// A whole number in the range.
        case whole(ClosedRange<Int>)
        /// A number of seconds in the range.
        case seconds(ClosedRange<Double>)
    }

    let name: String
    let value: Value
    var kind = Kind.text
    let help: String
    /// What completion offers for the value (an option's value only).
    var completion = Positional.any

    init(name: String, value: Value, kind: Kind = .text, help: String, completion: Positional = .any) {
        self.name = name
        self.value = value
        self.kind = kind
        self.help = help
        self.completion = completion
    }

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: .none, help: help)
    }

    static func option(_ name: String, _ placeholder: String, _ help: String,
                       completion: Positional = .any) -> OptionSpec {
        OptionSpec(name: name, value: .argument(placeholder: placeholder), help: help, completion: completion)
    }

    static func time(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: .argument(placeholder: placeholder), kind: .time, help: help)
    }

    static func whole(_ name: String, _ placeholder: String, _ range: ClosedRange<Int>, _ help: String)
        -> OptionSpec {
        OptionSpec(name: name, value: .argument(placeholder: placeholder), kind: .whole(range), help: help)
    }

    static func seconds(_ name: String, _ placeholder: String, _ range: ClosedRange<Double>, _ help: String)
        -> OptionSpec {
        OptionSpec(name: name, value: .argument(placeholder: placeholder), kind: .seconds(range), help: help)
    }

    var isTime: Bool {
        if case .time = kind { return true }
        return false
    }

    /// Why `text` is not a value of this option, nil when it is one (a time is read later, once the zone is known).
    func problem(with text: String) -> String? {
        switch kind {
        case .text, .time:
            return nil
        case .whole(let range):
            guard let number = Int(text), range.contains(number) else {
                return "\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\""
            }
            return nil
        case .seconds(let range):
            guard let seconds = Double(text), seconds.isFinite, range.contains(seconds) else {
                return "\(name) expects seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not \"\(text)\""
            }
            return nil
        }
    }

    /// Whether it is followed by a value (`--data DIR`), which is then no positional word.
    var takesValue: Bool {
        if case .argument = value { return true }
        return false
    }

    static let data = option("--data", "DIR", "data directory (default: $NUDGE_DATA, else ~/.local/share/nudge; "
        + "$XDG_DATA_HOME/nudge when that is set)", completion: .directory)
    static let now = time("--now", "T", "act as if the clock read T: " + timeForms)

    /// What an option that takes a time accepts, for its help line.
    static let timeForms = "19:30 (today) or 2026-11-25T08:00 in the data directory's zone, or an instant such as "
        + "2026-11-25T08:00:00Z or 2026-11-25T08:00+03:00"
    static let json = flag("--json", "print JSON instead of text")
    static let help = flag("--help", "show this help")
}
