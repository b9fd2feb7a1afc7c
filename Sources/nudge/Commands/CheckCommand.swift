import Foundation
import NudgeCore

/// `nudge check`: validates every user file and lists every problem (and unknown keys as warnings).
enum CheckCommand {
    static let command = Command(
        name: "check",
        usage: "nudge check [--data DIR]",
        summary: "validate every user file; list every problem; exit 0 or 65",
        options: [.data, .help],
        positionals: 0...0,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = DataDirectory(url: arguments.dataDirectory)
        try directory.requireExists()
        let (files, unreadable) = directory.userFiles()
        let loaded = HouseholdLoader.load(current: files, unreadable: unreadable)
        for report in loaded.reports {
            report.warnings.forEach { console.error("\(directory.path)/\($0)") }
        }
        let problems = loaded.problems
        problems.forEach { console.error("\(directory.path)/\($0)") }
        let checked = loaded.reports.map(\.file.fileName)
        if problems.isEmpty {
            console.out(checked.isEmpty ? "No user files in \(directory.path) — nothing to check."
                                        : "OK: \(checked.joined(separator: ", ")) valid")
            return .success
        }
        console.out("\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(directory.path)")
        return .badData
    }
}
