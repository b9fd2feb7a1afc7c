/// A delivery waiting for the channels after the outbox (SPEC §7, §7.1): retried on each run until every channel
/// showed it or its notification expired. A retry only runs the channel again; the outbox line was written
/// once, when it was delivered.
public struct CommandAttempt: Equatable, Sendable {
    public var delivery: Delivery
    /// The channels that have yet to show it, in the order they are tried.
    public var channels: [DeliveryChannel]
    /// Failed attempts so far, of any channel.
    public var attempts = 0
    public var lastError: String?

    public init(delivery: Delivery, channels: [DeliveryChannel] = [.command], attempts: Int = 0,
                lastError: String? = nil) {
        self.delivery = delivery
        self.channels = channels
        self.attempts = attempts
        self.lastError = lastError
    }
}
