/// `nudge complete-values KIND` (internal): prints the ids of KIND the data directory knows, one a line, for the
/// completion scripts of `nudge completions` to offer (`HouseholdIDs`). It reads one file, takes no lock and
/// writes nothing, and it prints no error: a completion must never write on the line being typed. A directory
/// or file that is missing or broken, or a kind this version does not know (a script of another version), prints
/// nothing and exits 0.
enum CompleteValuesCommand {
    static let command = Command(
        name: "complete-values",
        usage: "nudge complete-values \(HouseholdIDs.choices) [--data DIR]",
        summary: "(called by the completion scripts) print the ids of one kind in the data directory, one a line",
        options: [.data, .help],
        positionals: 1...1,
        run: run,
        hidden: true)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        guard let kind = HouseholdIDs(rawValue: arguments.positionals[0]),
              let directory = try? arguments.directory() else { return .success }
        for id in kind.listed(in: directory) {
            console.out(id)
        }
        return .success
    }
}
