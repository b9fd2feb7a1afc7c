import Foundation

extension RunState {
    /// Records a delivery in the ledger, counts it for the badge, and queues it for the desktop command.
    /// Every way a notification reaches the person (`run`, `test`) goes through here.
    public mutating func deliver(_ notification: Notification, now: Date, viaCommand: Bool) -> Delivery {
        ledger[notification.id] = Planner.entry(notification, .delivered, now)
        if notification.badge { badge += 1 }
        let delivery = Delivery(notification: notification, deliveredAt: now, badge: badge)
        if viaCommand { commandQueue.append(CommandAttempt(delivery: delivery)) }
        deliveredTotal += 1
        return delivery
    }

    /// The queued desktop-command deliveries still worth trying at `now`; expired ones are dropped and
    /// remembered as failures.
    public mutating func commandsToTry(now: Date) -> [CommandAttempt] {
        let (live, expired) = (commandQueue.filter { now <= $0.delivery.notification.expiresAt },
                               commandQueue.filter { now > $0.delivery.notification.expiresAt })
        for attempt in expired {
            noteCommandFailure("\(attempt.delivery.notification.id): gave up after \(attempt.attempts) "
                + "attempt(s), the notification expired (\(attempt.lastError ?? "no answer"))")
        }
        commandQueue = live
        return live
    }

    /// Records how one attempt went: a success leaves the queue, a failure stays for the next run.
    public mutating func recordCommand(_ id: String, error: String?) {
        guard let index = commandQueue.firstIndex(where: { $0.delivery.notification.id == id }) else { return }
        if let error {
            commandQueue[index].attempts += 1
            commandQueue[index].lastError = error
            noteCommandFailure("\(id): \(error)")
        } else {
            commandQueue.remove(at: index)
        }
    }

    private mutating func noteCommandFailure(_ message: String) {
        commandFailures = Array((commandFailures + [message]).suffix(Self.recentFailureLimit))
    }
}
