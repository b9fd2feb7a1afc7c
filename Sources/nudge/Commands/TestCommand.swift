import FoundationEssentials
import Glibc
import NudgeCore

/// `nudge test` (docs/design.md, "Occurrence ids"): one notification now through every channel, even with the master
/// switch off. It tells the truth: exit 0 only when every configured channel delivered, else 69 with the reason
/// of each failure, and then the "working perfectly" line is not printed.
enum TestCommand {
    static let command = Command(
        name: "test",
        usage: "nudge test [--json] [--now T] [--data DIR]",
        summary: "send a test notification now through every channel; exit 69 when one of them failed",
        options: [.json, .now, .data, .help],
        positionals: 0...0,
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = try arguments.directory().preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        let lock = try directory.lock(wait: DirectoryLock.editingWait)
        defer { withExtendedLifetime(lock) {} }
        let snapshot = try DataSnapshot.load(directory)
        let household = snapshot.loaded.household
        let settings = household.settings
        let now = arguments.now
        var state = snapshot.state ?? RunState()
        var notification = TestRule.notification(now: now, settings: settings)
        // Two tests in one second are two occurrences (docs/design.md, "Occurrence ids").
        let base = notification.id
        var count = 1
        while state.memory.isHandled(notification.id) {
            count += 1
            notification.id = "\(base):\(count)"
        }
        let delivery = state.deliver(notification, now: now, channels: settings.deliveryChannels)
        state.noteOutboxAppend(delivery.outboxLine)
        try Commit(state: state, outboxRepairLength: snapshot.outboxRepairLength, outboxLines: delivery.outboxLine)
            .write(to: directory)

        let outcome = ChannelQueueRunner.deliver(&state, household: household, directory: directory, now: now,
                                                 zone: snapshot.zone, console: console,
                                                 queuedEarlier: snapshot.queuedIDs, only: [notification.id])
        // A failed test is reported now, not shown late by a retry.
        state.channelQueue.drop(notification.id)
        if outcome.changed || !outcome.failures.isEmpty {
            try Commit(state: state).write(to: directory)
        }
        ChannelProgram(directory: directory).removeNotes(notConcerning: state.channelQueue.deliveries)
        if outcome.failures.isEmpty {
            StdoutChannel(console: console, json: arguments.has(.json), quiet: false,
                          clock: WallClock(zone: snapshot.zone)).print([delivery])
        }
        if settings.deliveryChannels.isEmpty {
            console.error("nudge: no desktop channel set up (settings.json \"deliver\": {\"desktop\": true} or "
                + "\"command\"): the test reached stdout and the outbox only")
        }
        if !settings.notifications.enabled {
            console.error("nudge: notifications are switched off (settings.json notifications.enabled): "
                + "scheduled notifications are not delivered")
        }
        guard outcome.failures.isEmpty else {
            for failure in outcome.failures {
                console.error("nudge test: the test notification did NOT reach the \(failure.channel.name): "
                    + failure.reason)
            }
            return .unavailable
        }
        return .success
    }
}
