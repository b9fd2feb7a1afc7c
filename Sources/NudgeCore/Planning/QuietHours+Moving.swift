import FoundationEssentials

extension QuietHours {
    /// Moves `medium` and `low` records whose fireAt falls inside the quiet period to its end (docs/files.md).
    ///
    /// `critical` and `high` are never moved: the user set those times, and a 05:30 alarm must ring. `start` is
    /// inclusive and `end` exclusive; equal means no quiet hours. The moved record's expiry is computed from its
    /// new fireAt: the same span after it, or, for the once-a-day messages that expire with their day, the end of
    /// the day it now falls on.
    func moving(_ notification: Notification, clock: WallClock) -> Notification {
        guard start != end, notification.priority == .medium || notification.priority == .low else {
            return notification
        }
        let local = clock.localDateTime(of: notification.fireAt)
        let minute = local.hour * 60 + local.minute
        let startMinute = start.minutesSinceMidnight
        let endMinute = end.minutesSinceMidnight
        let endDate: LocalDate
        if startMinute < endMinute {
            guard minute >= startMinute && minute < endMinute else { return notification }
            endDate = local.date
        } else {
            if minute >= startMinute {
                endDate = local.date.adding(days: 1)
            } else if minute < endMinute {
                endDate = local.date
            } else {
                return notification
            }
        }
        var moved = notification
        // In the second pass of a repeated hour (fall back), the end that contains it is the one after it: a
        // record is never announced before it happened (docs/design.md, "What a run plans").
        moved.fireAt = clock.instant(on: endDate, at: end, notBefore: notification.fireAt)
        // A daily occurrence's recurrence tells the local time it rings at, which travel compares (`DueWindow`).
        let ringing = clock.localDateTime(of: moved.fireAt)
        if case .daily = notification.recurrence, let time = WallTime(hour: ringing.hour, minute: ringing.minute) {
            moved.recurrence = .daily(date: ringing.date, time: time)
        }
        switch notification.kind {
        case .personalized, .streakReminder:
            moved.expiresAt = clock.endOfDay(clock.localDate(of: moved.fireAt))
        default:
            moved.expiresAt = moved.fireAt.addingTimeInterval(notification.expiresAt.timeIntervalSince(notification.fireAt))
        }
        return moved
    }
}
