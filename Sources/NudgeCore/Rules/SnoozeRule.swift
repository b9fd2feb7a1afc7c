import FoundationEssentials

/// Snoozing a delivered notification (SPEC §9, §11.13): a new one-off occurrence with its own id that keeps
/// the original's kind, priority, texts and expiry span.
public enum SnoozeRule {
    /// Laundry snoozes default to 10 minutes ("Remind in 10 min"), everything else to `alarms.snoozeMinutes`.
    public static func defaultMinutes(for kind: NotificationKind, settings: Settings) -> Int {
        kind.family == "laundry" ? 10 : settings.alarms.snoozeMinutes
    }

    /// The snooze of `original`, `minutes` after `now`; `existing` are the snoozes already made (kept or
    /// delivered), so the n-th snooze of the same notification gets id `<original id>:snooze-n`, and a snooze
    /// never takes the id of an earlier one whose record nudge no longer keeps.
    public static func snooze(_ original: Notification, minutes: Int, now: Date,
                              existing: [Notification]) -> Notification {
        let base = original.id[...].firstByteRange(of: ":snooze-").map { String(original.id[..<$0.lowerBound]) } ?? original.id
        let prefix = base + ":snooze-"
        let latest = existing.compactMap { $0.id.hasPrefix(prefix) ? Int($0.id.dropFirst(prefix.count)) : nil }.max()
        var snoozed = original
        snoozed.id = "\(base):snooze-\((latest ?? 0) + 1)"
        snoozed.fireAt = now.addingTimeInterval(TimeInterval(minutes) * 60)
        snoozed.expiresAt = snoozed.fireAt.addingTimeInterval(original.expiresAt.timeIntervalSince(original.fireAt))
        snoozed.recurrence = .once
        return snoozed
    }
}
