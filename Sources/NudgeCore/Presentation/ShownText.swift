import FoundationEssentials

/// The text of a notification as the desktop and the command show it at the instant they do (docs/promises.md,
/// "a text is true when shown"): a leave-time counts down to its leave instant ("Leave now" once it has
/// passed), and a delivery more than a minute late says so. stdout's line, the outbox and plan.json keep the
/// record as planned; stdout says the lateness in its own words.
public enum ShownText {
    /// From how many seconds after its fireAt a shown body says it is late.
    static let lateAfter = 60

    /// `notification` with its body as it is true at `now` in `clock`'s zone, and how late it is shown.
    public static func shown(_ notification: Notification, at now: Date, clock: WallClock) -> Notification {
        let late = Int(now.timeIntervalSince(notification.fireAt).rounded(.down))
        var shown = notification
        if let lateLeave = lateLeaveBody(notification, at: now, clock: clock) {
            shown.body = lateLeave   // it says how late in its own words
            return shown
        }
        shown.body = body(notification, at: now, clock: clock)
        if late > lateAfter { shown.body += " (\(TextFormat.span(late)) late)" }
        return shown
    }

    /// The body as it is true at `now`, without the delivery's lateness: what the terminal's line shows, which
    /// says the lateness in its own words (`DeliveryLine`).
    static func body(_ notification: Notification, at now: Date, clock: WallClock) -> String {
        guard notification.kind == .leave else { return notification.body }
        if let lateLeave = lateLeaveBody(notification, at: now, clock: clock) { return lateLeave }
        return leaveBody(notification.body, late: Int(now.timeIntervalSince(notification.fireAt).rounded(.down)))
    }

    /// "Leave in 10 min to arrive at Office by 08:45" shown `late` seconds after its fireAt: the minutes left to
    /// the leave instant (rounded up), or "Leave now …" once it has come.
    static func leaveBody(_ body: String, late: Int) -> String {
        guard late > 0, let parts = LeaveBody(body) else { return body }
        let left = parts.bufferMinutes * 60 - late
        guard left > 0 else { return "Leave now " + parts.rest }
        return "Leave in \((left + 59) / 60) min " + parts.rest
    }

    /// A leave-time shown a minute or more after its leave instant (arrival − travel), when leaving now no longer
    /// arrives on time: "You are late: leaving now you reach Office at 09:12, 27 min after 08:45". nil before, and
    /// for a snooze (whose expiry is no longer the arrival).
    static func lateLeaveBody(_ notification: Notification, at now: Date, clock: WallClock) -> String? {
        guard notification.kind == .leave, !notification.id.contains(":snooze-"),
              let parts = LeaveBody(notification.body), let place = parts.destinationAndTime else { return nil }
        let leaveAt = notification.fireAt.addingTimeInterval(TimeInterval(parts.bufferMinutes) * 60)
        let behind = Int(now.timeIntervalSince(leaveAt).rounded(.down))
        guard behind >= 60 else { return nil }
        // The record expires at the arrival (CommuteRule): the travel is what lies between it and the leave instant.
        let arrival = now.addingTimeInterval(notification.expiresAt.timeIntervalSince(leaveAt))
        let local = clock.localDateTime(of: arrival)
        return "You are late: leaving now you reach \(place.destination) at \(String.hourMinute(local.hour, local.minute)), "
            + "\(TextFormat.span(behind - behind % 60)) after \(place.time)"
    }

    /// "Leave in 10 min to arrive at Office by 08:45" or "Leave now to arrive at Office by 08:45", in parts.
    private struct LeaveBody {
        let bufferMinutes: Int
        /// "to arrive at Office by 08:45".
        let rest: Substring

        init?(_ body: String) {
            if body.hasPrefix("Leave now ") {
                bufferMinutes = 0
                rest = body.dropFirst("Leave now ".count)
            } else if body.hasPrefix("Leave in ") {
                let after = body.dropFirst("Leave in ".count)
                guard let space = after.firstIndex(of: " "), let minutes = Int(after[..<space]),
                      after[space...].hasPrefix(" min to arrive at ") else { return nil }
                bufferMinutes = minutes
                rest = after[space...].dropFirst(" min ".count)
            } else {
                return nil
            }
            guard rest.hasPrefix("to arrive at ") else { return nil }
        }

        /// "Office" and "08:45".
        var destinationAndTime: (destination: Substring, time: Substring)? {
            let text = rest.dropFirst("to arrive at ".count)
            let head = text.dropLast(5)   // "HH:MM"
            guard head.hasSuffix(" by ") else { return nil }
            return (head.dropLast(" by ".count), text.suffix(5))
        }
    }
}
