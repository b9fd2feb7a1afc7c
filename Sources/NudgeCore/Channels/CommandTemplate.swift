/// Turns `deliver.command` into the argv and environment for one delivery (docs/files.md). No shell is involved:
/// each template element becomes exactly one argument, so a title holding `$(rm -rf ~)` or backquotes is
/// passed as text.
public enum CommandTemplate {
    static let placeholders = ["id", "kind", "title", "body", "deepLink"]

    /// The arguments with `{id}`, `{kind}`, `{title}`, `{body}` and `{deepLink}` replaced in one pass, so text
    /// coming from a notification is never scanned for placeholders again.
    public static func arguments(_ template: [String], for delivery: Delivery) -> [String] {
        let values = values(delivery.notification)
        return template.map { argument in
            var result = ""
            var rest = Substring(argument)
            while let open = rest.firstIndex(of: "{") {
                result += rest[..<open]
                let afterOpen = rest.index(after: open)
                if let close = rest[afterOpen...].firstIndex(of: "}"),
                   let value = values[String(rest[afterOpen..<close])] {
                    result += value
                    rest = rest[rest.index(after: close)...]
                } else {
                    result += "{"
                    rest = rest[afterOpen...]
                }
            }
            return result + rest
        }
    }

    /// The `NUDGE_*` variables added to the command's environment.
    public static func environment(for delivery: Delivery) -> [String: String] {
        let notification = delivery.notification
        return [
            "NUDGE_ID": notification.id,
            "NUDGE_KIND": notification.kind.rawValue,
            "NUDGE_TITLE": notification.title,
            "NUDGE_BODY": notification.body,
            "NUDGE_DEEPLINK": notification.deepLink,
            "NUDGE_PRIORITY": notification.priority.rawValue,
            "NUDGE_BADGE": String(delivery.badge),
        ]
    }

    private static func values(_ notification: Notification) -> [String: String] {
        ["id": notification.id, "kind": notification.kind.rawValue, "title": notification.title,
         "body": notification.body, "deepLink": notification.deepLink]
    }
}
