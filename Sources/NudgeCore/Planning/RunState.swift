import FoundationEssentials

/// nudge's memory between runs, kept in `state.json` (docs/files.md lists what nudge writes).
public struct RunState: Equatable, Sendable {
    /// Written into the file; a newer number than this build knows is refused rather than misread.
    public static let formatVersion = 1
    /// How many missed occurrences `status` can list; the total is counted regardless.
    public static let recentMissedLimit = 50

    /// The previous run's `now`: daily repeats fall due after it.
    public internal(set) var lastRunAt: Date?
    /// The latest `now` any run has had.
    var latestRunAt: Date?
    /// The `now` of the last `nudge run` (by the timer, cron or a person), not of an editing command's re-plan:
    /// what the stale-timer warning and `status`'s "Last run" read.
    public internal(set) var lastRunCommandAt: Date?
    /// The `now` of the last `nudge run --systemd`, the run the systemd units start (docs/systemd.md).
    var lastSystemdRunAt: Date?
    /// Whether the systemd units wake nudge: the last `nudge run --systemd` came within two hours of the last
    /// `nudge run` (the hourly timer starts one at least every hour). An editing command then arms the next wake
    /// too, and the stale-run warning waits for the wake that was due. A `nudge run` by hand leaves it so; two
    /// hours of cron's runs without one end it.
    public var wokenBySystemd: Bool {
        guard let systemd = lastSystemdRunAt else { return false }
        return (lastRunCommandAt ?? systemd).timeIntervalSince(systemd) <= 2 * StaleRun.systemdInterval
    }
    /// The zone of the previous run, to notice travel.
    public internal(set) var timeZone: String?
    /// Why the previous run's zone is not exactly what `TZ` asked for (docs/promises.md), for `status`.
    public internal(set) var zoneWarning: String?
    /// What was handled, so that nothing is delivered twice: the ledger, and the ids and dates pruning keeps.
    public internal(set) var memory = DeliveryMemory()
    /// Bytes of `outbox.jsonl` whose lines are already in the ledger; anything beyond was written by a run
    /// that died before saving this file, and is taken into the ledger by the next run.
    public internal(set) var outboxBytes = 0
    /// Hash of the outbox's line that ends at `outboxBytes`: a rotated or truncated outbox that has grown as
    /// long again no longer holds that line there, so recovery then reads the new file from its start.
    public internal(set) var outboxLastLine: String?
    var deliveredTotal = 0
    var missedTotal = 0
    var recentMissed: [MissedRecord] = []
    /// Problems found in user files by the last run, as printed.
    var fileErrors: [String] = []
    /// What the last run did about them, as printed: a file's last good version stands in, an entry plans from
    /// its own or not at all (`nudge status` repeats them).
    var fileNotes: [String] = []
    /// Content hash of the last valid version of each user file, saved beside state.json.
    public internal(set) var lastGood: UserFileMap<String> = [:]
    /// The plan's budget at the last run, for `status`.
    var lastBudget: BudgetStatus?
    /// How many notifications the last run delivered and recorded as missed.
    var lastDelivered = 0
    var lastMissed = 0
    /// Notifications delivered with `badge: true` since the last `nudge ack`.
    var badge = 0
    /// The snoozes and timers the person started, and the actions applied to deliveries.
    public var userActions = UserActions()
    /// The deliveries the desktop and the command still owe, and their latest failures.
    public var channelQueue = ChannelQueue()
    /// The desktop clicks their waiters could not apply, for `status`.
    public var unappliedClicks = UnappliedClicks()
    /// What nudge wrote into the calendar (docs/calendar.md).
    public internal(set) var calendar = CalendarMemory()
    /// How many due notifications the last run suppressed because notifications are switched off.
    var lastSuppressed = 0
    /// The learned streak reminder time and when it was computed (docs/files.md); nil until plays exist.
    var smartReminder: SmartReminder?
    /// Occurrence id → fireAt of each leave reminder in the plan, for the 2-minute hysteresis.
    var plannedLeaveTimes: [String: Date] = [:]
    /// Open departures of trips (docs/files.md), at most one per trip, until arrival or `Departure.openFor`.
    var departures: [Departure] = []
    /// Streak milestones reached, per game, never pruned: each is announced once (docs/files.md, "streaks.json").
    var milestones: [Milestone] = []

    public init() {}

    /// `nudge ack`: the badge back to 0; returns what it was.
    public mutating func clearBadge() -> Int {
        defer { badge = 0 }
        return badge
    }

    /// The outbox accounted for up to `bytes`, whose line ending there hashes to `lastLine` (`DataSnapshot`'s
    /// recovery after a rotated or truncated outbox).
    public mutating func accountOutbox(bytes: Int, lastLine: String?) {
        outboxBytes = bytes
        outboxLastLine = lastLine
    }

    /// `file`'s last good copy, saved beside state.json, has the content hash `hash`.
    public mutating func noteLastGood(_ file: UserFile, hash: String) {
        lastGood[file] = hash
    }

    /// The calendar after a match (`CalendarMatch.finished(at:)`).
    public mutating func noteCalendar(_ memory: CalendarMemory) {
        calendar = memory
    }

    /// An arrival closes the open departure of `trip` (`nudge trip arrive`, "I'm here").
    public mutating func closeDeparture(of trip: String) {
        departures.removeAll { $0.trip == trip }
    }

    /// Accounts for `text`, whole lines just appended to the outbox: its length and the hash of its last line.
    public mutating func noteOutboxAppend(_ text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return }
        outboxBytes += bytes.count
        outboxLastLine = OutboxRecovery.lastLineHash(bytes[...])
    }

    /// After the clock went back to `now`: forgets the outcomes a later clock recorded for occurrences that are
    /// still to come at `now` (`DeliveryMemory.reopen(after:fireAt:)`, docs/promises.md); a missed one leaves the
    /// missed list and its count.
    mutating func reopen(after now: Date, fireAt: (String) -> Date?) {
        forgetMissed(memory.reopen(after: now, fireAt: fireAt))
    }

    /// Takes `ids` off the missed list and out of its count: they were not missed after all (docs/promises.md).
    mutating func forgetMissed(_ ids: Set<String>) {
        guard !ids.isEmpty else { return }
        missedTotal = max(0, missedTotal - ids.count)
        recentMissed.removeAll { ids.contains($0.id) }
    }

    /// Forgets what no promise needs any more, so that state.json stays small: the memory's records
    /// (`DeliveryMemory.prune`), then the snoozes and timers two days after they expired and the actions applied
    /// to deliveries the ledger no longer holds (`UserActions.prune`), and the departures no longer open.
    mutating func prune(now: Date) {
        memory.prune(now: now)
        let ledger = memory.ledger
        userActions.prune(now: now) { ledger[$0] != nil }
        departures = departures.filter { now.timeIntervalSince($0.at) < Departure.openFor }
    }
}
