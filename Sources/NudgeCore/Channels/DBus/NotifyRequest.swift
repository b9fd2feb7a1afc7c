/// What `Notify` carries for one delivery (docs/desktop.md): app name, icon, summary, body, the buttons with their
/// labels (none for a notification without), and the hints for urgency, category and sound. Every notification
/// is built here, with buttons or without, so the two cannot differ. It travels from the run to its waiter
/// (`nudge desktop-wait`) as arguments (`key=value` words), and becomes the call's body once the server's
/// capabilities are known.
public struct NotifyRequest: Equatable, Sendable {
    /// The action a click on the notification's body invokes (docs/desktop.md): it applies nothing.
    static let defaultAction = "default"
    static let defaultLabel = "Dismiss"

    var appName = DesktopNotification.appName
    var icon = ""
    public var summary = ""
    /// The body as the record has it; escaped for servers that read markup.
    var body = ""
    /// Button identifiers (the action names) and labels.
    public var buttons: [Button] = []
    /// 0 low, 1 normal, 2 critical.
    var urgency: UInt8 = 1
    var category = ""
    /// A freedesktop sound name; nil asks for silence (`suppress-sound`).
    var sound: String?
    /// Milliseconds; 0 never expires, -1 the server's default.
    var expireTimeout: Int32 = -1

    public struct Button: Equatable, Sendable {
        public var action: String
        public var label: String
        init(action: String, label: String) {
            self.action = action
            self.label = label
        }
    }

    init() {}

    public init(_ notification: Notification, buttons: [(action: NotificationAction, label: String)]) {
        icon = DesktopNotification.icon(notification.kind)
        summary = notification.title
        body = notification.body
        self.buttons = buttons.map { Button(action: $0.action.rawValue, label: $0.label) }
        urgency = DesktopNotification.urgency(notification.priority)
        category = "x-nudge.\(notification.kind.family)"
        sound = notification.sound ? DesktopNotification.soundName(notification.kind) : nil
        // A critical notification waits for the person; the others take the server's timeout.
        expireTimeout = notification.priority == .critical ? 0 : -1
    }

    /// The body of the `Notify` call for a server with `capabilities`. Without "actions" there are no buttons
    /// at all; with them, the buttons and the body's own `default` action.
    func body(capabilities: [String]) -> [DBusValue] {
        var actions: [String] = []
        if capabilities.contains("actions") && !buttons.isEmpty {
            actions = [Self.defaultAction, Self.defaultLabel]
            for button in buttons { actions += [button.action, button.label] }
        }
        var hints: [(String, DBusValue)] = [("urgency", .byte(urgency)), ("category", .string(category))]
        hints.append(sound.map { ("sound-name", .string($0)) } ?? ("suppress-sound", .boolean(true)))
        let shownBody = capabilities.contains("body-markup") ? DesktopNotification.escapedBody(body) : body
        return [.string(appName), .uint32(0), .string(icon), .string(summary), .string(shownBody),
                .strings(actions), .dictionary(hints), .int32(expireTimeout)]
    }
}
