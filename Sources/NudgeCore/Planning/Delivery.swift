import Foundation

/// A notification delivered by this run, with how late it is.
public struct Delivery: Equatable, Sendable {
    public var notification: Notification
    public var deliveredAt: Date
    /// Whole seconds between fireAt and delivery, 0 when on time.
    public var lateSeconds: Int

    public init(notification: Notification, deliveredAt: Date) {
        self.notification = notification
        self.deliveredAt = deliveredAt
        self.lateSeconds = max(0, Int((deliveredAt.timeIntervalSince(notification.fireAt)).rounded(.down)))
    }

    /// The outbox line and `--json` output: the record plus `deliveredAt` and `lateSeconds`.
    public var json: JSONValue {
        notification.json
            .setting("deliveredAt", to: .string(RFC3339.format(deliveredAt)))
            .setting("lateSeconds", to: .number(String(lateSeconds)))
    }

    /// One line of `outbox.jsonl`, newline included.
    public var outboxLine: String { json.compactText + "\n" }
}
