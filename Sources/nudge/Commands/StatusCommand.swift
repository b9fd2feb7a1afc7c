import Foundation
import NudgeCore

/// `nudge status`: last run, budget, missed deliveries and file errors, from state.json.
enum StatusCommand {
    static let command = Command(
        name: "status",
        usage: "nudge status [--json] [--now T] [--data DIR]",
        summary: "show the last run, the budget, missed deliveries and errors in files",
        options: [.json, .now, .data, .help],
        positionals: 0...0,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = DataDirectory(url: arguments.dataDirectory)
        try directory.requireExists()
        let state = try directory.loadState()
        let settings = directory.userSettings()
        if arguments.has("--json") {
            console.out(StatusReport.json(state, settings: settings).prettyText)
        } else {
            let zone = SystemZone.resolve(settingsZone: state?.timeZone)
            console.out(StatusReport.text(state, settings: settings, now: arguments.now, zone: zone))
        }
        return .success
    }
}
