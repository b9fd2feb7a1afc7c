/// What a click waiter does with each message its connection receives (docs/desktop.md). It knows the one
/// notification it holds by the server's unique name and the number that server gave it: a signal from
/// anyone else, or about another number, is not about this notification.
public struct NotificationWatch: Equatable, Sendable {
    /// The unique name (`:1.7`) of the server that answered `Notify`.
    public let server: String
    public let id: UInt32
    /// The actions offered as buttons; anything else invoked (the body's `default`) applies nothing.
    public let buttons: [String]

    public init(server: String, id: UInt32, buttons: [String]) {
        self.server = server
        self.id = id
        self.buttons = buttons
    }

    public enum Step: Equatable, Sendable {
        /// Not about this notification.
        case ignore
        /// A button was clicked: apply it as `nudge act`, then close the notification and end.
        case apply(String)
        /// The body was clicked: apply nothing, close the notification and end.
        case dismiss
        /// The notification is gone (closed, or its server stopped): end without closing anything.
        case end
    }

    public func step(for message: DBusMessage) -> Step {
        if message.kind == .signal, message.member == "NameOwnerChanged", message.sender == "org.freedesktop.DBus",
           message.body.count == 3, message.body[0].string == NotificationsBus.name,
           message.body[1].string == server {
            return .end
        }
        guard message.body.count == 2, message.body[0].uint32 == id else { return .ignore }
        if NotificationsBus.isServerSignal(message, "NotificationClosed", server: server) { return .end }
        if NotificationsBus.isServerSignal(message, "ActionInvoked", server: server),
           let action = message.body[1].string {
            return buttons.contains(action) ? .apply(action) : .dismiss
        }
        return .ignore
    }
}
