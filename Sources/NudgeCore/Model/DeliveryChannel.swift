/// A channel after the outbox (docs/promises.md): each gets every delivery exactly once in the end, retried on the next
/// runs while it fails and the notification has not expired.
public enum DeliveryChannel: String, CaseIterable, Sendable {
    /// A freedesktop notification, sent by nudge's own D-Bus code (`deliver.desktop`).
    case desktop
    /// The user's own argv template (`deliver.command`).
    case command

    /// How a person calls it in messages.
    public var name: String {
        switch self {
        case .desktop: return "desktop notification"
        case .command: return "desktop command"
        }
    }
}
