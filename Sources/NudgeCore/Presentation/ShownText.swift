import FoundationEssentials

/// The text of a notification as the desktop and the command show it at the instant they do (docs/promises.md,
/// "a text is true when shown"): a leave-time counts down to its leave instant ("Leave now" once it has
/// passed), and a delivery more than a minute late says so. stdout's line, the outbox and plan.json keep the
/// record as planned; stdout says the lateness in its own words.
public enum ShownText {
    /// From how many seconds after its fireAt a shown body says it is late.
    public static let lateAfter = 60

    /// `notification` with its body as it is true at `now`.
    public static func shown(_ notification: Notification, at now: Date) -> Notification {
        let late = Int(now.timeIntervalSince(notification.fireAt).rounded(.down))
        var shown = notification
        if notification.kind == .leave { shown.body = leaveBody(notification.body, late: late) }
        if late > lateAfter { shown.body += " (\(TextFormat.span(late)) late)" }
        return shown
    }

    /// "Leave in 10 min to arrive at Office by 08:45" shown `late` seconds after its fireAt: the minutes left to
    /// the leave instant (rounded up), or "Leave now …" once it has come.
    static func leaveBody(_ body: String, late: Int) -> String {
        let prefix = "Leave in "
        guard late > 0, body.hasPrefix(prefix) else { return body }
        let rest = body.dropFirst(prefix.count)
        guard let space = rest.firstIndex(of: " "), let buffer = Int(rest[..<space]),
              rest[space...].hasPrefix(" min to arrive at ") else { return body }
        let destination = rest[space...].dropFirst(" min ".count)
        let left = buffer * 60 - late
        guard left > 0 else { return "Leave now " + destination }
        return "Leave in \((left + 59) / 60) min " + destination
    }
}
