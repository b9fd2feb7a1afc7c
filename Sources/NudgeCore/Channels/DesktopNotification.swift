/// What a delivery looks like on the desktop (SPEC §7.1): urgency, icon and sound per record, and the
/// `notify-send` arguments that carry them to a freedesktop notification server. Arguments, never a shell.
public enum DesktopNotification {
    public static let appName = "nudge"
    /// Freedesktop sound names: alarms and timers the person started ring like an alarm clock.
    static let alarmSound = "alarm-clock-elapsed"
    static let messageSound = "message-new-instant"

    /// `critical` stays on screen until dismissed; `high` and `medium` are normal; `low` is low (SPEC §7.1).
    public static func urgency(_ priority: Priority) -> String {
        switch priority {
        case .critical: return "critical"
        case .high, .medium: return "normal"
        case .low: return "low"
        }
    }

    /// An icon from the freedesktop icon naming specification for each kind family.
    public static func icon(_ kind: NotificationKind) -> String {
        switch kind.family {
        case "laundry": return "task-due"
        case "commute": return "go-next"
        case "alarm": return "appointment-soon"
        case "streak": return "emblem-favorite"
        case "daily": return "weather-clear"
        default: return "dialog-information"
        }
    }

    /// The sound of a record with `sound: true`.
    public static func soundName(_ kind: NotificationKind) -> String {
        switch kind {
        case .prayer, .timerDone, .washComplete, .dryComplete: return alarmSound
        default: return messageSound
        }
    }

    /// The arguments after `notify-send` for a notification without buttons (those with buttons are shown by
    /// the click waiter over its own bus connection: `NotifyRequest`).
    public static func arguments(_ notification: Notification) -> [String] {
        var arguments = [
            "--app-name=\(appName)",
            "--urgency=\(urgency(notification.priority))",
        ]
        // 0 is "never expires": a critical notification waits for the person. Others take the server's timeout.
        if notification.priority == .critical { arguments.append("--expire-time=0") }
        arguments += [
            "--icon=\(icon(notification.kind))",
            "--category=x-nudge.\(notification.kind.family)",
            notification.sound ? "--hint=string:sound-name:\(soundName(notification.kind))"
                : "--hint=boolean:suppress-sound:true",
        ]
        return arguments + ["--", notification.title, escapedBody(notification.body)]
    }

    /// The body with `&`, `<` and `>` escaped: servers that show body markup (dunst, GNOME, KDE) would otherwise
    /// read "Tom & Jerry" as broken markup.
    public static func escapedBody(_ body: String) -> String {
        var escaped = ""
        for character in body {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
