import FoundationEssentials

/// Snoozing a delivered notification (docs/design.md, "Acting on a delivery"): a new one-off occurrence with its own id
/// that keeps the original's kind, priority, texts and expiry span.
public enum SnoozeRule {
    /// Laundry snoozes default to 10 minutes ("Remind in 10 min"), everything else to `alarms.snoozeMinutes`.
    public static func defaultMinutes(for kind: NotificationKind, settings: Settings) -> Int {
        kind.family == "laundry" ? 10 : settings.alarms.snoozeMinutes
    }

    /// The snooze of `original`, `minutes` after `now`; `existing` are the snoozes already made (kept or
    /// delivered), so the n-th snooze of the same notification gets id `<original id>:snooze-n`, and a snooze
    /// never takes the id of an earlier one whose record nudge no longer keeps.
    static func snooze(_ original: Notification, minutes: Int, now: Date,
                       existing: [Notification]) -> Notification {
        snooze(original, minutes: minutes, now: now, taken: existing.map(\.id))
    }

    /// The same, numbered after every id in `taken` (snoozes made, and ids the memory remembers).
    static func snooze(_ original: Notification, minutes: Int, now: Date, taken: [String]) -> Notification {
        let prefix = baseID(of: original.id) + ":snooze-"
        let latest = taken.compactMap { $0.hasPrefix(prefix) ? Int($0.dropFirst(prefix.count)) : nil }.max()
        var snoozed = original
        snoozed.id = "\(prefix)\((latest ?? 0) + 1)"
        snoozed.fireAt = now.addingTimeInterval(TimeInterval(minutes) * 60)
        snoozed.expiresAt = snoozed.fireAt.addingTimeInterval(original.expiresAt.timeIntervalSince(original.fireAt))
        snoozed.recurrence = .once
        return snoozed
    }
}

extension SnoozeRule {
    /// What snoozing a delivered notification did.
    public enum Outcome: Equatable, Sendable {
        /// A new snooze, `<id>:snooze-n`.
        case made(Notification)
        /// The one still to come, moved from `from` to its new time; its id kept.
        case moved(Notification, from: Date)
        /// The one still to come, left as it is: the new time falls in the minute it already rings in.
        case alreadySnoozed(Notification)
        /// Nothing: the notification is settled (the person left, arrived, completed, played).
        case settled(Settlement)
    }

    /// The actions after which a notification is done with: snoozing it again would remind of nothing.
    static let settlingActions: [NotificationAction] = [.leavingNow, .arrived, .complete, .markPlayed,
                                                        .remindTomorrow]

    /// Snoozes `original` for `minutes` from `now` in `state` (docs/promises.md, one snooze per notification):
    /// a notification has at most one snooze still to come, which a second snooze moves, keeping its id; one an
    /// action settled is not snoozed. The notification and its snoozes count as one: a click on a snooze
    /// settles the original too. `existing` are the snoozes made so far (kept or delivered): the next number is
    /// after theirs and after every snooze id the state still remembers, so that no id is used twice while
    /// anything remembers it.
    public static func apply(to original: Notification, minutes: Int, now: Date, state: inout RunState,
                             existing: [Notification]) -> Outcome {
        if let (action, at) = settlement(of: original.id, state: state) { return .settled(.action(action, at: at)) }
        let base = baseID(of: original.id)
        let family = { (id: String) in id == base || id.hasPrefix(base + ":snooze-") }
        let taken = existing.map(\.id) + state.userActions.snoozes.map(\.id) + state.memory.rememberedIDs
        let next = snooze(original, minutes: minutes, now: now, taken: taken)
        let memory = state.memory
        if let pending = state.userActions.snoozes.first(where: { family($0.id) && !memory.isHandled($0.id) }) {
            if sameMinute(pending.fireAt, next.fireAt) { return .alreadySnoozed(pending) }
            var moved = next
            moved.id = pending.id
            state.userActions.keep(snooze: moved, madeAt: now)
            return .moved(moved, from: pending.fireAt)
        }
        state.userActions.keep(snooze: next, madeAt: now)
        return .made(next)
    }

    /// The action that settled the notification `id` (or one of its snoozes, or the one it snoozes), and when;
    /// nil while it may still be snoozed.
    static func settlement(of id: String, state: RunState) -> (NotificationAction, Date)? {
        let base = baseID(of: id)
        var found: (NotificationAction, Date)?
        for (applied, actions) in state.userActions.applied
            where applied == base || applied.hasPrefix(base + ":snooze-") {
            for action in settlingActions {
                if let at = actions[action.rawValue], found.map({ at < $0.1 }) ?? true { found = (action, at) }
            }
        }
        return found
    }

    /// "\"Time to Leave\" was settled by LEAVING_NOW at 2026-11-23 08:05: it is not snoozed", or with the
    /// reason it moved on ("\"Time to Leave\" is settled (you left for Office at 2026-11-23 08:05 already): …").
    static func settledText(_ notification: Notification, _ settlement: Settlement,
                            clock: WallClock) -> String {
        switch settlement {
        case let .action(action, at):
            return "\"\(notification.title)\" was settled by \(action.rawValue) at "
                + "\(TextFormat.localDateTime(at, clock)): it is not snoozed"
        case .movedOn(let reason):
            return "\"\(notification.title)\" is settled (\(reason)): it is not snoozed"
        }
    }

    /// Whether two instants fall in the same minute (of every zone: zones differ from UTC by whole minutes).
    private static func sameMinute(_ one: Date, _ other: Date) -> Bool {
        (one.timeIntervalSince1970 / 60).rounded(.down) == (other.timeIntervalSince1970 / 60).rounded(.down)
    }

    /// The id of the notification a snooze came from ("…:snooze-2" → "…"); the id itself otherwise.
    static func baseID(of id: String) -> String {
        id[...].firstByteRange(of: ":snooze-").map { String(id[..<$0.lowerBound]) } ?? id
    }

    /// "Snoozed "Time to Leave" until Mon 23 Nov 08:14 (commute.leave:office:2026-11-23:snooze-1)." or, for the
    /// one snooze moved, "Moved the snooze of … from 08:14 to 08:16 (…)".
    public static func text(of outcome: Outcome, _ original: Notification, clock: WallClock) -> String {
        switch outcome {
        case let .made(snooze):
            return "Snoozed \"\(original.title)\" until \(TextFormat.localStamp(snooze.fireAt, clock)) (\(snooze.id))."
        case let .moved(snooze, from):
            return "Moved the snooze of \"\(original.title)\" from \(TextFormat.localStamp(from, clock)) to "
                + "\(TextFormat.localStamp(snooze.fireAt, clock)) (\(snooze.id)): one snooze per notification."
        case .alreadySnoozed(let snooze):
            return "\"\(original.title)\" is already snoozed until \(TextFormat.localStamp(snooze.fireAt, clock)) "
                + "(\(snooze.id)): nothing changed."
        case .settled(let settlement):
            return "Nothing to do: \(settledText(original, settlement, clock: clock))."
        }
    }
}
