import FoundationEssentials

/// The line `nudge run` prints for a person when it delivers a notification.
public enum DeliveryLine {
    /// From how many seconds after its fireAt a delivery says it is late: half of cron's minute. `--linger` keeps
    /// on-time deliveries within the promised ±2 s, so 30 s late is a missed wake-up, a suspend or a slow disk,
    /// never the minute's rounding; the `--json` form always has the exact `lateSeconds`.
    static let lateFrom = 30

    /// `[2026-11-21 08:15] Wash Complete! — Snowy is ready for the dryer! (critical, laundry.washComplete, 3 min
    /// late) → nudge act laundry.washComplete:snowy:c-1042 COMPLETE_ACTION|SNOOZE_ACTION`
    ///
    /// It ends with how to act on the notification from a terminal (docs/design.md, "Acting on a delivery"): its id and
    /// the actions that do something, or `nudge snooze ID` when it offers none.
    public static func text(_ delivery: Delivery, clock: WallClock) -> String {
        let notification = delivery.notification
        var details = "\(notification.priority.rawValue), \(notification.kind.rawValue)"
        if delivery.lateSeconds >= lateFrom {
            details += ", \(TextFormat.span(delivery.lateSeconds)) late"
        }
        let stamp = TextFormat.localDateTime(notification.fireAt, clock)
        // The body as the desktop shows it at the delivery (a leave-time late says "Leave now" or that she is late).
        let body = ShownText.body(notification, at: delivery.deliveredAt, clock: clock)
        return "[\(stamp)] \(notification.title) — \(body) (\(details)) → \(howToAct(notification))"
    }

    /// `nudge act ID A|B`, or `nudge snooze ID` for a notification without actions of its own; for the missed
    /// digest, `nudge status`, which lists everything missed.
    static func howToAct(_ notification: Notification) -> String {
        if notification.kind == .missedDigest { return "nudge status" }
        let actions = NotificationAction.buttons(for: notification, canPlay: false).map(\.action.rawValue)
        guard !actions.isEmpty else { return "nudge snooze \(notification.id)" }
        var names = actions[0]
        for name in actions.dropFirst() { names += "|" + name }
        return "nudge act \(notification.id) \(names)"
    }
}
