import FoundationEssentials

/// "Missed while away" (docs/design.md, "Missed while away"): a run that records critical or high occurrences as expired unseen (the
/// machine slept or was off) delivers one notification that lists them, on every channel, so that a missed alarm
/// is told, not only listed by `nudge status`.
///
/// Its id is made from the ids it lists: a run killed after its outbox line and before state.json leaves the
/// next run the same missed occurrences and so the same id, which the recovered ledger already holds as delivered.
enum MissedDigest {
    static let title = "Missed while away"
    static let category = "MISSED_DIGEST"
    /// The digest lists at most this many, then "and N more".
    static let shownItems = 5
    /// A digest is never itself missed: it stays deliverable for a day.
    static let lifetime: TimeInterval = 86_400

    /// The digest of `missed` (the occurrences this run records as expired unseen, not listed as missed before),
    /// made at `now`, local times in `clock`'s zone; nil when none of them is critical or high.
    static func notification(listing missed: [Notification], now: Date, clock: WallClock,
                                    settings: Settings) -> Notification? {
        let items = missed.filter { $0.priority == .critical || $0.priority == .high }
            .sorted { ($0.fireAt, $0.id) < ($1.fireAt, $1.id) }
        guard !items.isEmpty else { return nil }
        let today = clock.localDate(of: now)
        var body = ""
        for item in items.prefix(shownItems) {
            let local = clock.localDateTime(of: item.fireAt)
            let time = String.hourMinute(local.hour, local.minute)
            let when = local.date == today ? time : TextFormat.localStamp(item.fireAt, clock)
            body += (body.isEmpty ? "" : ", ") + "\(item.title) (\(when))"
        }
        if items.count > shownItems { body += " and \(items.count - shownItems) more" }
        let event = ContentHash.of(Array(items.map(\.id).sorted().joined(separator: "\n").utf8))
        return Notification(id: Notification.occurrenceID(.missedDigest, "away", event), kind: .missedDigest,
                            source: "away", fireAt: now, expiresAt: now.addingTimeInterval(lifetime), title: title,
                            body: body, priority: .high, category: category, actions: [],
                            sound: settings.notifications.sound, badge: settings.notifications.badge,
                            recurrence: .once)
    }
}
