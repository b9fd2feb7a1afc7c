import FoundationEssentials

extension RunState {
    /// Records a delivery in the ledger, counts it for the badge, and queues it for the channels after the
    /// outbox (the desktop, the command). Every way a notification reaches the person (`run`, `test`) goes
    /// through here.
    public mutating func deliver(_ notification: Notification, now: Date, channels: [DeliveryChannel]) -> Delivery {
        memory.record(notification, .delivered, at: now)
        if notification.badge { badge += 1 }
        let delivery = Delivery(notification: notification, deliveredAt: now, badge: badge)
        if !channels.isEmpty { commandQueue.append(CommandAttempt(delivery: delivery, channels: channels)) }
        deliveredTotal += 1
        return delivery
    }

    /// The queued deliveries still worth trying at `now`; expired ones are dropped and remembered as failures.
    public mutating func commandsToTry(now: Date) -> [CommandAttempt] {
        dropExpiredCommands(now: now)
        return commandQueue
    }

    /// Drops the queued deliveries that expired before `now`, remembers them as failures, and returns them.
    @discardableResult
    public mutating func dropExpiredCommands(now: Date) -> [CommandAttempt] {
        let expired = commandQueue.filter { now > $0.delivery.notification.expiresAt }
        for attempt in expired {
            let channels = attempt.channels.map(\.name).joined(separator: " and ")
            noteCommandFailure(now, "\(attempt.delivery.notification.id): \(channels) gave up after "
                + "\(attempt.attempts) failed attempt(s), the notification expired "
                + "(\(attempt.lastError ?? "no answer"))")
        }
        commandQueue.removeAll { now > $0.delivery.notification.expiresAt }
        return expired
    }

    /// Records how one channel's attempt went: a success takes the channel off the delivery's list (and the
    /// delivery off the queue once every channel showed it), a failure stays for the next run. A success after
    /// failures is noted too, so `status` shows when a failed delivery got through.
    public mutating func recordCommand(_ id: String, channel: DeliveryChannel = .command, error: String?,
                                       now: Date) {
        guard let index = commandQueue.firstIndex(where: { $0.delivery.notification.id == id }) else { return }
        if let error {
            commandQueue[index].attempts += 1
            commandQueue[index].lastError = error
            noteCommandFailure(now, "\(id): \(channel.name) failed: \(error)")
            return
        }
        let attempts = commandQueue[index].attempts
        if attempts > 0 {
            noteCommandFailure(now, "\(id): \(channel.name) got through after \(attempts) failed attempt(s)")
        }
        commandQueue[index].channels.removeAll { $0 == channel }
        if commandQueue[index].channels.isEmpty { commandQueue.remove(at: index) }
    }

    /// Takes a delivery off the queue without trying it again (`nudge test`: a failed test is reported at once,
    /// not shown late).
    public mutating func dropFromQueue(_ id: String) {
        commandQueue.removeAll { $0.delivery.notification.id == id }
    }

    private mutating func noteCommandFailure(_ now: Date, _ message: String) {
        let line = RFC3339.format(now) + " " + message
        commandFailures = Array((commandFailures + [line]).suffix(Self.recentFailureLimit))
    }
}
