import FoundationEssentials
import Glibc
import NudgeCore

/// The channels after the outbox (docs/promises.md): goes through the state's queue of deliveries for the desktop
/// notification and the desktop command.
enum ChannelQueueRunner {
    /// What one call of `deliver` did.
    struct Outcome {
        /// The state changed and must be saved.
        var changed = false
        /// Each failed attempt: the channel and the reason.
        var failures: [(channel: DeliveryChannel, reason: String)] = []
    }

    /// The desktop and the command: shows the queued deliveries (new ones and retries of earlier failures),
    /// each channel in turn, and records how they went. A failure is said on stderr when it first happens and
    /// when it ends (delivered or expired), not on every retry, and never changes the exit code of `run`; while
    /// notifications are switched off nothing is retried, and `only` limits the attempts to those ids (`nudge test`).
    ///
    /// Each program notes its own start (`ChannelStart`), so that a run that dies while it goes through the
    /// queue leaves the next one to count what it started instead of starting it again. The caller saves the
    /// state, then removes the notes it records (`ChannelProgram.removeNotes`).
    /// `queuedEarlier` holds the ids the queue had when state.json was read: only those can have a program
    /// started by an earlier run.
    static func deliver(_ state: inout RunState, household: Household, directory: DataDirectory, now: Date,
                        zone: Zone, console: Console, queuedEarlier: Set<String>,
                        only: Set<String>? = nil) -> Outcome {
        let settings = household.settings
        let configured = settings.deliveryChannels
        let queueBefore = state.channelQueue.deliveries
        // A channel switched off since the delivery was queued has nothing left to do for it.
        for index in state.channelQueue.deliveries.indices {
            state.channelQueue.deliveries[index].channels.removeAll { !configured.contains($0) }
        }
        state.channelQueue.deliveries.removeAll { $0.channels.isEmpty }
        var outcome = Outcome(changed: state.channelQueue.deliveries != queueBefore)
        guard !state.channelQueue.deliveries.isEmpty, settings.notifications.enabled || only != nil else {
            return outcome
        }

        let failuresBefore = state.channelQueue.failures
        let environment = ProcessEnvironment.all()
        let desktop = DesktopChannel(directory: directory, environment: environment, household: household,
                                     clock: WallClock(zone: zone), now: now)
        // The command gets the session bus too, so a desktop program of the user's own finds it from cron.
        let commandEnvironment = (try? DesktopChannel.sessionEnvironment(environment).get()) ?? environment
        let command = settings.deliverCommand.map { DesktopCommand(template: $0, environment: commandEnvironment) }
        let notes = ChannelProgram(directory: directory, queuedEarlier: queuedEarlier)
        for expired in state.channelQueue.dropExpired(now: now) {
            expired.expiredLine.map { console.error("nudge: " + $0) }
        }
        for attempt in state.channelQueue.deliveriesToTry(now: now) {
            let id = attempt.delivery.notification.id
            if let only, !only.contains(id) { continue }
            var shown = attempt.delivery
            shown.notification = ShownText.shown(shown.notification, at: now)
            for channel in attempt.channels {
                let error: String?
                switch notes.earlierStart(attempt, channel) {
                case .none:
                    let wrap = { (arguments: [String], limit: TimeInterval?) in
                        notes.wrapped(arguments, for: attempt, channel, limit: limit)
                    }
                    switch channel {
                    case .desktop: error = desktop.show(shown, wrap: wrap)
                    case .command: error = command?.run(shown, wrap: wrap)
                    }
                case .stillGoing:
                    continue
                case .ended(let reason):
                    error = reason
                }
                state.channelQueue.recordAttempt(id, channel: channel, error: error, now: now)
                if let error {
                    outcome.failures.append((channel, error))
                }
                if only != nil {
                    error.map { console.error("nudge: \(channel.name) failed for \(id): \($0)") }
                } else if let line = attempt.reportLine(channel, error: error) {
                    console.error("nudge: " + line, priority: error == nil ? .info : .error)
                }
            }
        }
        DesktopChannel.reapWaiters()

        outcome.changed = outcome.changed || state.channelQueue.deliveries != queueBefore
            || state.channelQueue.failures != failuresBefore
        return outcome
    }
}
