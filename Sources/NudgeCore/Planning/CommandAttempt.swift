/// A delivery waiting for the desktop command (SPEC §7): retried on each run until its notification expires.
/// A retry only runs the command again; the outbox line was written once, when it was delivered.
public struct CommandAttempt: Equatable, Sendable {
    public var delivery: Delivery
    /// Failed attempts so far.
    public var attempts = 0
    public var lastError: String?

    public init(delivery: Delivery, attempts: Int = 0, lastError: String? = nil) {
        self.delivery = delivery
        self.attempts = attempts
        self.lastError = lastError
    }
}
