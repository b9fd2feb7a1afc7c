/// A delivery waiting in the `ChannelQueue` for the channels after the outbox, the desktop and the command
/// (docs/promises.md): retried on each run until every channel showed it or its notification expired. A retry only
/// runs the channel again; the outbox line was written once, when it was delivered.
public struct QueuedDelivery: Equatable, Sendable {
    public var delivery: Delivery
    /// The channels that have yet to show it, in the order they are tried.
    public var channels: [DeliveryChannel]
    /// Failed attempts so far, of any channel.
    public var attempts = 0
    /// Why the latest failed attempt failed.
    var lastError: String?

    init(delivery: Delivery, channels: [DeliveryChannel] = [.command], attempts: Int = 0,
         lastError: String? = nil) {
        self.delivery = delivery
        self.channels = channels
        self.attempts = attempts
        self.lastError = lastError
    }
}

extension QueuedDelivery {
    /// What stderr says of one channel's attempt at this delivery, as it stood before the attempt: the first
    /// failure, and the end of a delivery that had failed (delivered here, or `expiredLine`), never a retry that
    /// fails again. cron mails each run's stderr; `nudge status` shows every attempt (docs/promises.md).
    public func reportLine(_ channel: DeliveryChannel, error: String?) -> String? {
        let id = delivery.notification.id
        switch (error, attempts) {
        case let (error?, 0):
            return "\(channel.name) failed for \(id): \(error); retried on the next runs until "
                + "\(RFC3339.format(delivery.notification.expiresAt)) (said once: `nudge status` shows the retries)"
        case (nil, let failed) where failed > 0:
            return "\(channel.name) got through for \(id) after \(failed) failed attempt\(failed == 1 ? "" : "s")"
        default:
            return nil
        }
    }

    /// What stderr says when this delivery expired in the queue after failing.
    public var expiredLine: String? {
        guard attempts > 0 else { return nil }
        let channels = channels.map(\.name).joined(separator: " and ")
        return "\(channels) gave up on \(delivery.notification.id): it expired at "
            + "\(RFC3339.format(delivery.notification.expiresAt)) after \(attempts) failed "
            + "attempt\(attempts == 1 ? "" : "s") (\(lastError ?? "no answer"))"
    }
}

