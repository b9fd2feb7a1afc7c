import FoundationEssentials
import Glibc
import NudgeCore

/// The channels after the outbox (docs/promises.md): goes through the state's queue of deliveries for the desktop
/// notification and the desktop command.
struct ChannelQueueRunner {
    /// What one call of `deliver` did.
    struct Outcome {
        /// The state changed and must be saved.
        var changed = false
        /// Each failed attempt: the channel and the reason.
        var failures: [(channel: DeliveryChannel, reason: String)] = []
    }

    let desktop: DesktopChannel
    let command: DesktopCommand?
    /// The notes each program leaves of its start.
    let notes: ChannelProgram
    let console: Console
    let now: Date
    /// `nudge test`: only these ids are tried, and each failure is said as it is.
    let only: Set<String>?

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
        state.channelQueue.keepOnly(channels: configured)
        var outcome = Outcome(changed: state.channelQueue.deliveries != queueBefore)
        guard !state.channelQueue.deliveries.isEmpty, settings.notifications.enabled || only != nil else {
            return outcome
        }

        let failuresBefore = state.channelQueue.failures
        let runner = ChannelQueueRunner(household: household, directory: directory, now: now, zone: zone,
                                        console: console, queuedEarlier: queuedEarlier, only: only)
        for expired in state.channelQueue.dropExpired(now: now) {
            expired.expiredLine.map { console.error("nudge: " + $0) }
        }
        for queued in state.channelQueue.deliveriesToTry(now: now) {
            if let only, !only.contains(queued.delivery.notification.id) { continue }
            runner.deliver(queued, recordingIn: &state.channelQueue, outcome: &outcome)
        }
        DesktopChannel.reapWaiters()

        outcome.changed = outcome.changed || state.channelQueue.deliveries != queueBefore
            || state.channelQueue.failures != failuresBefore
        return outcome
    }

    private init(household: Household, directory: DataDirectory, now: Date, zone: Zone, console: Console,
                 queuedEarlier: Set<String>, only: Set<String>?) {
        let environment = ProcessEnvironment.all()
        desktop = DesktopChannel(directory: directory, environment: environment, household: household,
                                 clock: WallClock(zone: zone), now: now)
        // The command gets the session bus too, so a desktop program of the user's own finds it from cron.
        let commandEnvironment = (try? DesktopChannel.sessionEnvironment(environment).get()) ?? environment
        command = household.settings.deliverCommand.map {
            DesktopCommand(template: $0, environment: commandEnvironment)
        }
        notes = ChannelProgram(directory: directory, queuedEarlier: queuedEarlier)
        self.console = console
        self.now = now
        self.only = only
    }

    /// Shows one queued delivery on each of its channels, its text as true now (`ShownText`), and records and
    /// reports how each went.
    private func deliver(_ queued: QueuedDelivery, recordingIn queue: inout ChannelQueue, outcome: inout Outcome) {
        let id = queued.delivery.notification.id
        var shown = queued.delivery
        shown.notification = ShownText.shown(shown.notification, at: now, clock: desktop.clock)
        for channel in queued.channels {
            let error: String?
            switch notes.earlierStart(queued, channel) {
            case .none:
                let wrap = { (arguments: [String], limit: TimeInterval?) in
                    notes.wrapped(arguments, for: queued, channel, limit: limit)
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
            queue.recordAttempt(id, channel: channel, error: error, now: now)
            if let error {
                outcome.failures.append((channel, error))
            }
            if only != nil {
                error.map { console.error("nudge: \(channel.name) failed for \(id): \($0)") }
            } else if let line = queued.reportLine(channel, error: error) {
                console.error("nudge: " + line, priority: error == nil ? .info : .error)
            }
        }
    }
}
