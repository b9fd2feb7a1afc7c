import Foundation
import NudgeCore

/// `nudge snooze ID [--minutes N]`: notify a delivered notification again N minutes from now.
enum SnoozeCommand {
    static let command = Command(
        name: "snooze",
        usage: "nudge snooze ID [--minutes N] [--now T] [--data DIR]",
        summary: "re-notify a delivered notification N minutes from now (default: settings, 10 for laundry)",
        options: [
            .option("--minutes", "N", "minutes from now, 1 to 1440"),
            .now, .data, .help,
        ],
        positionals: 1...1,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = DataDirectory(url: arguments.dataDirectory)
        try directory.requireExists()
        let id = arguments.positionals[0]
        let lock = try DirectoryLock.acquire(in: directory.url, wait: DirectoryLock.editingWait)
        defer { withExtendedLifetime(lock) {} }
        let workspace = try Workspace.load(directory)
        var state = workspace.state ?? RunState()
        guard state.ledger[id]?.outcome == .delivered,
              let original = try lastDelivery(of: id, in: directory, state: state) else {
            throw CLIError.badData(["nudge snooze: \(id) was never delivered (see outbox.jsonl for delivered ids)"])
        }
        let settings = workspace.loaded.household.settings
        let minutes = arguments.values["--minutes"].flatMap(Int.init)
            ?? SnoozeRule.defaultMinutes(for: original.kind, settings: settings)
        let snooze = SnoozeRule.snooze(original, minutes: minutes, now: arguments.now, existing: state.snoozes)
        state.snoozes.append(snooze)
        try directory.write("state.json", state.fileContent)
        let clock = WallClock(zone: workspace.zone)
        console.out("Snoozed \"\(original.title)\" until \(TextFormat.localStamp(snooze.fireAt, clock)) "
            + "(\(snooze.id)).")
        return .success
    }

    /// The record as delivered: from the outbox, or a snooze kept in state (a snooze can be snoozed again).
    private static func lastDelivery(of id: String, in directory: DataDirectory, state: RunState) throws
        -> NudgeCore.Notification? {
        if let snooze = state.snoozes.first(where: { $0.id == id }) { return snooze }
        guard let outbox = try directory.read("outbox.jsonl") else { return nil }
        let marker = Data("\"id\":".utf8)
        var found: NudgeCore.Notification?
        for line in outbox.split(separator: UInt8(ascii: "\n")) where line.range(of: marker) != nil {
            if let record = try? JSONParser.parse(Data(line)), record["id"]?.stringValue == id,
               let delivery = Delivery(record: record) {
                found = delivery.notification
            }
        }
        return found
    }
}
