import FoundationEssentials

/// A notification delivered by this run, with how late it is.
public struct Delivery: Equatable, Sendable {
    public var notification: Notification
    public var deliveredAt: Date
    /// Whole seconds between fireAt and delivery, 0 when on time.
    var lateSeconds: Int
    /// The badge count including this notification (`NUDGE_BADGE`: docs/files.md, `deliver.command`).
    var badge: Int

    init(notification: Notification, deliveredAt: Date, badge: Int = 0) {
        self.notification = notification
        self.deliveredAt = deliveredAt
        self.badge = badge
        self.lateSeconds = max(0, Int((deliveredAt.timeIntervalSince(notification.fireAt)).rounded(.down)))
    }

    /// The outbox line and `--json` output: the record plus `deliveredAt` and `lateSeconds`.
    public var json: JSONValue {
        notification.json
            .setting("deliveredAt", to: .string(RFC3339.format(deliveredAt)))
            .setting("lateSeconds", to: .number(String(lateSeconds)))
    }

    /// Reads an outbox line (or the same object kept in state); nil when it is not one.
    public init?(record: JSONValue) {
        guard let notification = Notification(record: record),
              let deliveredAt = record["deliveredAt"]?.stringValue.flatMap(RFC3339.parse) else { return nil }
        self.init(notification: notification, deliveredAt: deliveredAt)
    }

    /// One line of `outbox.jsonl`, newline included.
    public var outboxLine: String { json.compactText + "\n" }
}
