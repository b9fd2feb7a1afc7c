import NudgeCore

/// The manual's `state.json`: its members part by part, each part's list taken from the part that writes it
/// (`RunState.stateKeys` and the lists it is made of), so the page cannot fall behind the writer. docs/files.md
/// lists the same parts.
extension ManualText {
    static let state: [ManualBlock] = [
        .subsection("state.json"),
        .paragraph("""
            Written by nudge; delete it only to start afresh (the next run is then a first run, and ids already in \
            `outbox.jsonl` are still never delivered again). A damaged one stops the run with exit 65 rather than \
            risk a second delivery. Its members, part by part, in the order written:
            """),
    ] + stateParts.map { part, keys in
        .entry(part, keys.map { key in stateMeanings[key].map { "`\(key)`: \($0)" } ?? "`\(key)`" }
            .joined(separator: "; ") + ".")
    }

    /// Each part of the state with the members it writes.
    static let stateParts: [(part: String, keys: [String])] = [
        ("the previous run", RunState.runKeys),
        ("the totals, your files and the outbox", RunState.bookkeepingKeys),
        ("your actions", UserActions.stateKeys),
        ("the channels' queue", ChannelQueue.stateKeys),
        ("the clicks not applied", UnappliedClicks.stateKeys),
        ("what runs learned", RunState.learnedKeys),
        ("the calendar", CalendarMemory.stateKeys),
        ("what was handled", DeliveryMemory.stateKeys),
    ]

    /// What each member of state.json holds.
    static let stateMeanings: [String: String] = [
        "version": "\(RunState.formatVersion), the format (a newer one is refused)",
        "lastRunAt": "its clock, after which daily repeats fall due",
        "latestRunAt": "the latest clock any run has had",
        "lastRunCommandAt": "the last `nudge run` itself (an editing command re-plans too)",
        "lastSystemdRunAt": """
            the last `nudge run --systemd` (within two hours of the last run, editing commands arm the next wake \
            too)
            """,
        "timeZone": "its zone, to notice travel",
        "zoneWarning": "why that zone is not exactly what `TZ` asked for, when it is not",
        "lastDelivered": "how many it delivered",
        "lastMissed": "how many it recorded as missed",
        "lastBudget": "its budget, `pending` and `limit`",
        "deliveredTotal": "the deliveries since the first run",
        "missedTotal": "the occurrences missed since the first run",
        "recentMissed": "the last \(RunState.recentMissedLimit) of them",
        "fileErrors": "the problems the last run found in your files",
        "fileNotes": "what it did about them",
        "lastGood": "a hash of each copy in `.last-good/`",
        "outboxBytes": "how much of the outbox the ledger reflects",
        "outboxLastLine": "a hash of the line that ends there",
        "badge": "the deliveries with a badge since the last `nudge ack`",
        "calendar": """
            what nudge wrote into the calendar of `deliver.calendar`, when one was ever set: its `url`, the \
            `events` (each `uid`, `etag`, `hash` and `start`), `lastMatchAt` and the `failure` last reported
            """,
        "lastSuppressed": "how many the last run suppressed while notifications were off",
        "snoozes": "the snoozes still to come",
        "timers": "the prayer timers still to come",
        "appliedActions": "the actions applied to each delivery and when (each applies once)",
        "actionsMadeAt": "when each snooze and timer was made or last moved",
        "commandQueue": """
            the deliveries the desktop and the command still owe, each with its channels, badge count, failed \
            attempts and last error, retried until it expires
            """,
        "commandFailures": "their latest \(ChannelQueue.recentFailureLimit) failures",
        "unappliedClicks": """
            the last \(UnappliedClicks.recentLimit) desktop buttons clicked whose action could not be applied before \
            the notification expired (or whose waiter was killed), each with the notification's `id` and `title`, \
            the `action`, its `label`, `clickedAt` and the `reason`
            """,
        "smartReminder": "the learned streak reminder time and when it was computed",
        "plannedLeaveTimes": "each leave-time as planned, moved only by more than 2 minutes",
        "departures": "the open departures of trips",
        "milestones": "the streak milestones reached (never pruned: each is announced once)",
        "ledger": """
            each occurrence id with its `outcome` (`delivered`, `seen`, `missed`, `suppressed` or `departed`), \
            `kind`, `fireAt`, `expiresAt` and `at`
            """,
        "deliveredIDs": "once an entry is pruned, the one-offs delivered, kept for good",
        "settledIDs": """
            the same for one-offs seen, missed, suppressed or departed, each with its instant (`!` before a missed \
            one's, `@` before any other's)
            """,
        "deliveredDates": "the dates on which each daily occurrence was delivered, kept for good as ranges",
        "settledDates": "the dates on which one was seen, missed, suppressed or departed, with their instants",
    ]
}
