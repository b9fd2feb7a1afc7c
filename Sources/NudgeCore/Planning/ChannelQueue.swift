import FoundationEssentials

/// What the channels after the outbox, the desktop and the command, still owe (docs/promises.md): each delivery
/// with the channels that have yet to show it, retried on every run until they all did or it expired, and the
/// latest failures for `nudge status`. A delivery leaves the queue only by being shown on its last channel, by
/// expiring (noted as a failure) or by `drop`.
public struct ChannelQueue: Equatable, Sendable {
    /// How many failures `status` keeps: the oldest go first.
    public static let recentFailureLimit = 20

    /// The deliveries waiting, oldest first, at most one per occurrence id.
    public internal(set) var deliveries: [QueuedDelivery] = []
    /// The latest failed attempts, gave-ups and successes after failures, oldest first, each line starting with
    /// its time: at most `recentFailureLimit`.
    public private(set) var failures: [String] = []

    init() {}

    /// A queue holding exactly these: read from state.json (`ChannelQueue+JSON.swift`), or a test's.
    init(deliveries: [QueuedDelivery], failures: [String]) {
        self.deliveries = deliveries
        self.failures = failures
    }

    var isEmpty: Bool { deliveries.isEmpty }

    /// Queues `delivery` for `channels`, tried in that order. Nothing is queued without a channel, nor for an
    /// occurrence already waiting: the ledger lets each be delivered once.
    mutating func enqueue(_ delivery: Delivery, channels: [DeliveryChannel]) {
        let id = delivery.notification.id
        guard !channels.isEmpty, !deliveries.contains(where: { $0.delivery.notification.id == id }) else { return }
        deliveries.append(QueuedDelivery(delivery: delivery, channels: channels))
    }

    /// Forgets the channels not in `configured` (switched off since a delivery was queued): they have nothing left
    /// to do for it. A delivery with no channel left leaves the queue.
    public mutating func keepOnly(channels configured: [DeliveryChannel]) {
        for index in deliveries.indices {
            deliveries[index].channels.removeAll { !configured.contains($0) }
        }
        deliveries.removeAll { $0.channels.isEmpty }
    }

    /// The queued deliveries still worth trying at `now`; expired ones are dropped and remembered as failures.
    public mutating func deliveriesToTry(now: Date) -> [QueuedDelivery] {
        dropExpired(now: now)
        return deliveries
    }

    /// Drops the queued deliveries that expired before `now`, remembers them as failures, and returns them.
    @discardableResult
    public mutating func dropExpired(now: Date) -> [QueuedDelivery] {
        let expired = deliveries.filter { now > $0.delivery.notification.expiresAt }
        for queued in expired {
            let channels = queued.channels.map(\.name).joined(separator: " and ")
            noteFailure(now, "\(queued.delivery.notification.id): \(channels) gave up after "
                + "\(queued.attempts) failed attempt(s), the notification expired "
                + "(\(queued.lastError ?? "no answer"))")
        }
        deliveries.removeAll { now > $0.delivery.notification.expiresAt }
        return expired
    }

    /// Records how one channel's attempt at the delivery `id` went: a success takes the channel off the delivery's
    /// list (and the delivery off the queue once every channel showed it), a failure stays for the next run. A
    /// success after failures is noted too, so `status` shows when a failed delivery got through.
    public mutating func recordAttempt(_ id: String, channel: DeliveryChannel = .command, error: String?, now: Date) {
        guard let index = deliveries.firstIndex(where: { $0.delivery.notification.id == id }) else { return }
        if let error {
            deliveries[index].attempts += 1
            deliveries[index].lastError = error
            noteFailure(now, "\(id): \(channel.name) failed: \(error)")
            return
        }
        let attempts = deliveries[index].attempts
        if attempts > 0 {
            noteFailure(now, "\(id): \(channel.name) got through after \(attempts) failed attempt(s)")
        }
        deliveries[index].channels.removeAll { $0 == channel }
        if deliveries[index].channels.isEmpty { deliveries.remove(at: index) }
    }

    /// Takes the delivery `id` off the queue without trying it again (`nudge test`: a failed test is reported at
    /// once, not shown late).
    public mutating func drop(_ id: String) {
        deliveries.removeAll { $0.delivery.notification.id == id }
    }

    private mutating func noteFailure(_ now: Date, _ message: String) {
        let line = RFC3339.format(now) + " " + message
        failures = Array((failures + [line]).suffix(Self.recentFailureLimit))
    }
}
