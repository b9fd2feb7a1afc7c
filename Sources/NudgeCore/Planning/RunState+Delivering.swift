import FoundationEssentials

extension RunState {
    /// Records a delivery in the ledger, counts it for the badge, and queues it for the channels after the
    /// outbox (the desktop, the command). Every way a notification reaches the person (`run`, `test`) goes
    /// through here.
    public mutating func deliver(_ notification: Notification, now: Date, channels: [DeliveryChannel]) -> Delivery {
        memory.record(notification, .delivered, at: now)
        if notification.badge { badge += 1 }
        let delivery = Delivery(notification: notification, deliveredAt: now, badge: badge)
        channelQueue.enqueue(delivery, channels: channels)
        deliveredTotal += 1
        return delivery
    }
}
