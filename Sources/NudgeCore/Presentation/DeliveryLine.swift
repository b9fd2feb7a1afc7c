import Foundation

/// The line `nudge run` prints for a person when it delivers a notification.
public enum DeliveryLine {
    /// `[2026-11-21 08:15] Wash Complete! — Snowy is ready for the dryer! (critical, laundry.washComplete, 3 min late)`
    public static func text(_ delivery: Delivery, clock: WallClock) -> String {
        let notification = delivery.notification
        var details = "\(notification.priority.rawValue), \(notification.kind.rawValue)"
        if delivery.lateSeconds >= 60 {
            details += ", \(TextFormat.span(delivery.lateSeconds)) late"
        }
        let stamp = TextFormat.localDateTime(notification.fireAt, clock)
        return "[\(stamp)] \(notification.title) — \(notification.body) (\(details))"
    }
}
