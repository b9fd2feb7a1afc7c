import FoundationEssentials

/// A desktop button clicked whose action could not be applied (docs/desktop.md, "A click that cannot be applied at
/// once"): its waiter retried it until the notification expired, or was killed first. The next run says so once on
/// stderr and `nudge status` lists it, so that a click is never lost without a word.
public struct UnappliedClick: Equatable, Sendable {
    /// The delivered notification's occurrence id and title.
    var id: String
    var title: String
    /// The action (`COMPLETE_ACTION`) and the label of its button ("Start Dryer").
    var action: String
    var label: String
    var clickedAt: Date
    /// Why it was not applied: how its waiter ended, and the last attempt's error.
    var reason: String

    init(id: String, title: String, action: String, label: String, clickedAt: Date, reason: String) {
        self.id = id
        self.title = title
        self.action = action
        self.label = label
        self.clickedAt = clickedAt
        self.reason = reason
    }

    /// The reason of a click its waiter retried until the notification expired, and closed it then.
    static func gaveUpReason(expiresAt: Date) -> String {
        "retried until the notification expired at \(RFC3339.format(expiresAt))"
    }

    /// The reason of a click whose waiter was stopped (a logout, `systemctl --user stop`) while it retried it; it
    /// closed the notification then.
    static let stoppedReason = "its waiter was stopped before it could apply it"

    /// The reason of a click whose waiter was killed while it retried it.
    static let killedReason = "its waiter was killed before it could apply it"

    /// What the run's stderr says, once: the click, why it was not applied, and how to apply it now.
    public var reportLine: String {
        "desktop click not applied: \"\(label)\" on \"\(title)\" (\(id)) at \(RFC3339.format(clickedAt)), "
            + "\(reason); `nudge act \(id) \(action)` applies it now"
    }
}
