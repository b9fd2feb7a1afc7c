import Foundation
import NudgeCore

/// `nudge test` (SPEC §5.7, §11.14): one notification now through every channel, even with the master switch off.
enum TestCommand {
    static let command = Command(
        name: "test",
        usage: "nudge test [--json] [--now T] [--data DIR]",
        summary: "send a test notification now through stdout, the outbox and the desktop command",
        options: [.json, .now, .data, .help],
        positionals: 0...0,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = DataDirectory(url: arguments.dataDirectory)
        try directory.requireExists()
        let lock = try DirectoryLock.acquire(in: directory.url, wait: DirectoryLock.editingWait)
        defer { withExtendedLifetime(lock) {} }
        let workspace = try Workspace.load(directory)
        let settings = workspace.loaded.household.settings
        let now = arguments.now
        var state = workspace.state ?? RunState()
        let delivery = state.deliver(TestRule.notification(now: now, settings: settings), now: now,
                                        viaCommand: settings.deliverCommand != nil)
        let outbox = OutboxFile(url: directory.fileURL("outbox.jsonl"))
        if let length = workspace.outboxRepairLength { try outbox.truncate(to: length) }
        try outbox.append(delivery.outboxLine)
        state.outboxBytes += delivery.outboxLine.utf8.count
        try directory.write("state.json", state.fileContent)

        Channels(console: console, json: arguments.has("--json"), quiet: false,
                 clock: WallClock(zone: workspace.zone)).print([delivery])
        if Channels.runCommands(&state, settings: settings, now: now, console: console,
                                only: [delivery.notification.id]) {
            try directory.write("state.json", state.fileContent)
        }
        if settings.deliverCommand == nil {
            console.error("nudge: no desktop command set (settings.json deliver.command): stdout and the outbox only")
        }
        if !settings.notifications.enabled {
            console.error("nudge: notifications are switched off (settings.json notifications.enabled): "
                + "scheduled notifications are not delivered")
        }
        return .success
    }
}
