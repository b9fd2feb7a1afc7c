import NudgeCore

/// Parses a command's arguments against its option table; every mistake is a usage error (exit 64) that
/// says what was wrong and what would be right.
enum ArgumentParser {
    static func parse(_ arguments: [String], for command: Command) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                parsed.positionals += remaining
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                parsed.positionals.append(argument)
                continue
            }
            // `-h` is `--help` on every command, as on nudge itself.
            var name = argument == "-h" ? "--help" : argument
            var inlineValue: String?
            if let equals = argument.utf8.firstIndex(of: UInt8(ascii: "=")) {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.utf8.index(after: equals)...])
            }
            guard let spec = command.options.first(where: { $0.name == name })
                    ?? (name == "--help" ? OptionSpec.help : nil) else {
                throw CLIError.usage(unknownOption(name, command))
            }
            switch spec.value {
            case .none:
                if inlineValue != nil { throw CLIError.usage("nudge \(command.name): \(name) takes no value") }
                parsed.flags.insert(name)
            case .argument(let placeholder):
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw CLIError.usage("nudge \(command.name): \(name) needs a value (\(name) \(placeholder))")
                }
                try validate(value, for: spec, command)
                parsed.values[name] = value
            }
        }
        if !parsed.has(.help) {
            guard command.positionals.contains(parsed.positionals.count) else {
                throw CLIError.usage("nudge \(command.name): wrong number of arguments; usage: \(command.usage)")
            }
            try parsed.readTimes(command)
        }
        return parsed
    }

    /// The usage error of a time option whose value is not a time (or lies outside the years nudge accepts).
    static func notATime(_ value: String, for name: String, command: String) -> CLIError {
        CLIError.usage("nudge \(command): \(name) expects a time such as \(TypedTime.examples) (a time without an "
            + "offset is read in the data directory's zone), between the years 2000 and 2200, not \"\(value)\"")
    }

    private static func validate(_ value: String, for spec: OptionSpec, _ command: Command) throws {
        if spec.isTime, TypedTime(value) == nil { throw notATime(value, for: spec.name, command: command.name) }
        if let problem = spec.problem(with: value) { throw CLIError.usage("nudge \(command.name): " + problem) }
    }

    private static func unknownOption(_ name: String, _ command: Command) -> String {
        let known = command.options.map(\.name)
        var message = "nudge \(command.name): unknown option '\(name)'"
        if let suggestion = Spelling.closest(to: name, among: known) { message += " (did you mean \(suggestion)?)" }
        return message + "; options: " + known.joined(separator: ", ")
    }
}
