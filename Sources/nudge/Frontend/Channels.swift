import Foundation
import NudgeCore

/// The channels after the outbox (SPEC §7): a line on stdout per delivery, then the desktop command.
struct Channels {
    let console: Console
    let json: Bool
    let quiet: Bool
    let clock: WallClock

    /// Channel 1: one line per delivery for people, or with `--json` the outbox object; nothing with `--quiet`.
    func print(_ deliveries: [Delivery]) {
        guard !quiet else { return }
        for delivery in deliveries {
            console.out(json ? delivery.json.compactText : DeliveryLine.text(delivery, clock: clock))
        }
    }

    /// Channel 3: runs the queued desktop-command deliveries (new ones and retries of earlier failures) and
    /// records how they went. Returns true when the state changed and must be saved. A failure is reported on
    /// stderr and never changes the exit code; while notifications are switched off nothing is retried, and
    /// `only` limits the attempts to those ids (`nudge test`).
    static func runCommands(_ state: inout RunState, settings: Settings, now: Date, console: Console,
                            only: Set<String>? = nil) -> Bool {
        guard let template = settings.deliverCommand else {
            let hadQueue = !state.commandQueue.isEmpty
            state.commandQueue = []
            return hadQueue
        }
        guard settings.notifications.enabled || only != nil else { return false }
        let (queueBefore, failuresBefore) = (state.commandQueue, state.commandFailures)
        let command = DesktopCommand(template: template)
        for attempt in state.commandsToTry(now: now) {
            let id = attempt.delivery.notification.id
            if let only, !only.contains(id) { continue }
            let error = command.run(attempt.delivery)
            state.recordCommand(id, error: error)
            if let error {
                console.error("nudge: desktop command failed for \(id): \(error); retried on the next runs until "
                    + RFC3339.format(attempt.delivery.notification.expiresAt))
            }
        }
        return state.commandQueue != queueBefore || state.commandFailures != failuresBefore
    }
}
