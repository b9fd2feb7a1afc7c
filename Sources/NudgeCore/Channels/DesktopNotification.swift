/// What a delivery looks like on the desktop (docs/desktop.md): app name, urgency, icon and sound per record, which
/// `NotifyRequest` carries to the freedesktop notification server for every notification, with buttons or without.
enum DesktopNotification {
    static let appName = "nudge"
    /// Freedesktop sound names: alarms and timers the person started ring like an alarm clock.
    static let alarmSound = "alarm-clock-elapsed"
    static let messageSound = "message-new-instant"

    /// `critical` stays on screen until dismissed; `high` and `medium` are normal; `low` is low (docs/desktop.md).
    /// The `urgency` hint's byte: 0 low, 1 normal, 2 critical.
    static func urgency(_ priority: Priority) -> UInt8 {
        switch priority {
        case .critical: return 2
        case .high, .medium: return 1
        case .low: return 0
        }
    }

    /// An icon from the freedesktop icon naming specification for each kind family.
    static func icon(_ kind: NotificationKind) -> String {
        switch kind.family {
        case "laundry": return "task-due"
        case "commute": return "go-next"
        case "alarm": return "appointment-soon"
        case "streak": return "emblem-favorite"
        case "daily": return "weather-clear"
        case "digest": return "dialog-warning"
        default: return "dialog-information"
        }
    }

    /// The sound of a record with `sound: true`.
    static func soundName(_ kind: NotificationKind) -> String {
        switch kind {
        case .prayer, .plainAlarm, .timerDone, .washComplete, .dryComplete: return alarmSound
        default: return messageSound
        }
    }

    /// The body with `&`, `<` and `>` escaped: servers that show body markup (dunst, GNOME, KDE) would otherwise
    /// read "Tom & Jerry" as broken markup.
    static func escapedBody(_ body: String) -> String {
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
