import Foundation
import NudgeCore

/// `nudge status`: last run, budget, the last deliveries, missed deliveries and errors in files.
enum StatusCommand {
    /// How many deliveries `status` lists (SPEC §11.20).
    static let deliveriesShown = 10

    static let command = Command(
        name: "status",
        usage: "nudge status [--json] [--now T] [--data DIR]",
        summary: "show the last run, the budget, the last ten deliveries with their ids, missed deliveries and "
            + "errors in files",
        options: [.json, .now, .data, .help],
        positionals: 0...0,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = DataDirectory(url: try arguments.dataDirectory())
        try directory.requireExists()
        let state = try directory.loadState()
        let (settings, report) = settingsFile(directory)
        let extras = StatusReport.Extras(
            settingsWarnings: report?.warnings ?? [],
            recentDeliveries: OutboxFile(url: directory.fileURL("outbox.jsonl")).lastDeliveries(deliveriesShown))
        if arguments.has("--json") {
            console.out(StatusReport.json(state, settings: settings, extras: extras, now: arguments.now).prettyText)
        } else {
            let zone = SystemZone.resolve(settingsZone: state?.timeZone)
            console.out(StatusReport.text(state, settings: settings, extras: extras, now: arguments.now, zone: zone))
        }
        return .success
    }

    /// settings.json as decoded, with its report (nil when the file is missing or unreadable).
    private static func settingsFile(_ directory: DataDirectory) -> (Settings, FileReport?) {
        guard let data = try? directory.read(UserFile.settings.fileName) else { return (Settings(), nil) }
        let (settings, report) = UserFileDecoder.settings(data)
        return (settings ?? Settings(), report)
    }
}
