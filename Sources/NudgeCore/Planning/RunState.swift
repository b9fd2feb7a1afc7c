import FoundationEssentials

/// nudge's memory between runs, kept in `state.json` (docs/files.md lists what nudge writes).
public struct RunState: Equatable, Sendable {
    /// Written into the file; a newer number than this build knows is refused rather than misread.
    public static let formatVersion = 1
    /// How many missed occurrences `status` can list; the total is counted regardless.
    public static let recentMissedLimit = 50
    /// Ledger entries are kept this long after their occurrence expired, then pruned.
    public static let ledgerRetention: TimeInterval = 2 * 86_400
    /// How many desktop-command failures `status` keeps.
    public static let recentFailureLimit = 20

    /// The previous run's `now`: daily repeats fall due after it.
    public var lastRunAt: Date?
    /// The latest `now` any run has had.
    public var latestRunAt: Date?
    /// The `now` of the last `nudge run` (by the timer, cron or a person), not of an editing command's re-plan:
    /// what the stale-timer warning and `status`'s "Last run" read.
    public var lastRunCommandAt: Date?
    /// The `now` of the last `nudge run --systemd`, the run the systemd units start (docs/systemd.md).
    public var lastSystemdRunAt: Date?
    /// Whether the systemd units wake nudge: the last `nudge run --systemd` came within two hours of the last
    /// `nudge run` (the hourly timer starts one at least every hour). An editing command then arms the next wake
    /// too, and the stale-run warning waits for the wake that was due. A `nudge run` by hand leaves it so; two
    /// hours of cron's runs without one end it.
    public var wokenBySystemd: Bool {
        guard let systemd = lastSystemdRunAt else { return false }
        return (lastRunCommandAt ?? systemd).timeIntervalSince(systemd) <= 2 * StaleRun.systemdInterval
    }
    /// The zone of the previous run, to notice travel.
    public var timeZone: String?
    /// Why the previous run's zone is not exactly what `TZ` asked for (docs/promises.md), for `status`.
    public var zoneWarning: String?
    /// Occurrence id → what happened to it, while it may matter: until two days after it expired (a delivery
    /// can be acted on until then), and longer while nothing else remembers it (`prune`).
    public var ledger: [String: LedgerEntry] = [:]
    /// The dates of every dated delivery, kept for good (`DeliveredDates`).
    public var deliveredDates = DeliveredDates()
    /// The dated occurrences pruned as seen, missed, suppressed or departed, each with its fireAt (or when it was
    /// recorded, if earlier) and whether it was missed (`SettledDates`), kept for good.
    public var settledDates = SettledDates()
    /// The ids of older deliveries of one-offs still in the files (an achievement, an import, a laundry stage
    /// not yet moved on): only the id, while the files produce it (`prune`).
    public var deliveredIDs: Set<String> = []
    /// The same for one-offs recorded as seen, never announced: past on the first run, or already expired when
    /// they appeared. Only the id, while the files produce it (`prune`).
    public var settledIDs: Set<String> = []
    /// Bytes of `outbox.jsonl` whose lines are already in the ledger; anything beyond was written by a run
    /// that died before saving this file, and is taken into the ledger by the next run.
    public var outboxBytes = 0
    /// Hash of the outbox's line that ends at `outboxBytes`: a rotated or truncated outbox that has grown as
    /// long again no longer holds that line there, so recovery then reads the new file from its start.
    public var outboxLastLine: String?
    public var deliveredTotal = 0
    public var missedTotal = 0
    public var recentMissed: [MissedRecord] = []
    /// Problems found in user files by the last run, as printed.
    public var fileErrors: [String] = []
    /// What the last run did about them, as printed: a file's last good version stands in, an entry plans from
    /// its own or not at all (`nudge status` repeats them).
    public var fileNotes: [String] = []
    /// Content hash of the last valid version of each user file, saved beside state.json.
    public var lastGood: UserFileMap<String> = [:]
    /// The plan's budget at the last run, for `status`.
    public var lastBudget: BudgetStatus?
    /// How many notifications the last run delivered and recorded as missed.
    public var lastDelivered = 0
    public var lastMissed = 0
    /// Notifications delivered with `badge: true` since the last `nudge ack`.
    public var badge = 0
    /// Snoozed notifications waiting to notify again: one-off occurrences with their own ids.
    public var snoozes: [Notification] = []
    /// Prayer timers started by `START_TIMER` (docs/files.md, "alarms.json"): one-off `alarm.timerDone` occurrences.
    public var timers: [Notification] = []
    /// Delivered occurrence id → action → when it was applied: an action applies at most once per notification
    /// (docs/design.md, "Acting on a delivery").
    public var appliedActions: [String: [String: Date]] = [:]
    /// Deliveries the desktop command has yet to show, retried on each run until they expire.
    public var commandQueue: [CommandAttempt] = []
    /// The last failures of the desktop command, for `status`.
    public var commandFailures: [String] = []
    /// How many due notifications the last run suppressed because notifications are switched off.
    public var lastSuppressed = 0
    /// The learned streak reminder time and when it was computed (docs/files.md); nil until plays exist.
    public var smartReminder: SmartReminder?
    /// Occurrence id → fireAt of each leave reminder in the plan, for the 2-minute hysteresis.
    public var plannedLeaveTimes: [String: Date] = [:]
    /// Open departures of trips (docs/files.md), at most one per trip, until arrival or `Departure.openFor`.
    public var departures: [Departure] = []
    /// Streak milestones reached, per game, never pruned: each is announced once (docs/files.md, "streaks.json").
    public var milestones: [Milestone] = []

    public init() {}

    /// Accounts for `text`, whole lines just appended to the outbox: its length and the hash of its last line.
    public mutating func noteOutboxAppend(_ text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return }
        outboxBytes += bytes.count
        outboxLastLine = OutboxRecovery.lastLineHash(bytes[...])
    }

    /// True when the ledger, the delivered dates or the ids of one-offs know the occurrence: it must never be
    /// delivered (again).
    public func isHandled(_ id: String) -> Bool {
        ledger[id] != nil || deliveredIDs.contains(id) || settledIDs.contains(id) || deliveredDates.contains(id: id)
    }

    /// Whether the occurrence `id` was delivered, however long ago if it is dated.
    public func wasDelivered(_ id: String) -> Bool {
        ledger[id]?.outcome == .delivered || deliveredIDs.contains(id) || deliveredDates.contains(id: id)
    }

    /// After the clock went back to `now`: forgets the outcomes a later clock recorded for occurrences that are
    /// still to come at `now` (docs/promises.md). A clock that ran ahead marked real future occurrences as missed (or
    /// seen, or suppressed); once it is corrected they must ring when their time truly comes, and a missed one
    /// leaves the missed list and its count. What was already due at `now` keeps its outcome whatever the clock
    /// did: an achievement seen two days ago, or an alarm suppressed while notifications were off, must stay
    /// silent. Deliveries are always kept: those really happened and must not repeat.
    ///
    /// An outcome is forgotten only when its occurrence lies ahead of the corrected clock both at the instant
    /// recorded and as this run plans it (`fireAt`; nil when nothing produces it now). After travel the same
    /// date falls at another instant: one whose time has passed where it was recorded was truly missed there,
    /// and one whose time has passed where the person now is will not come again; either stays as recorded, as
    /// a date missed in one zone stays missed in another. `SettledDates` judges its dates the same way, by the
    /// earlier of the fireAt and the recording time that `prune` kept for each; `settledIDs`, kept only while
    /// their one-offs are produced, by the fireAt this run plans.
    mutating func forgetUndeliveredRecorded(after now: Date, fireAt: (String) -> Date?) {
        var forgottenMissed = Set<String>()
        ledger = ledger.filter { id, entry in
            let keep = entry.outcome == .delivered
                || !SettledDates.reopens(recorded: min(entry.at, entry.fireAt), planned: fireAt(id), now: now)
            if !keep && entry.outcome == .missed { forgottenMissed.insert(id) }
            return keep
        }
        forgottenMissed.formUnion(settledDates.forget(after: now, fireAt: fireAt))
        if !settledIDs.isEmpty { settledIDs = settledIDs.filter { id in fireAt(id).map { $0 <= now } ?? true } }
        forgetMissed(forgottenMissed)
    }

    /// Takes `ids` off the missed list and out of its count: they were not missed after all (docs/promises.md).
    mutating func forgetMissed(_ ids: Set<String>) {
        guard !ids.isEmpty else { return }
        missedTotal = max(0, missedTotal - ids.count)
        recentMissed.removeAll { ids.contains($0.id) }
    }

    /// Forgets what no promise needs any more, so that state.json stays small (docs/promises.md, exactly once):
    ///
    /// - every entry is kept until two days after its occurrence expired (`ledgerRetention`): the age limit of
    ///   `snooze` and `act`, and the actions applied, live that long;
    /// - then a dated occurrence keeps its outcome for good by its date: a delivery in `deliveredDates`, a seen,
    ///   missed, suppressed or departed one in `settledDates` with its instant;
    /// - a one-off (a laundry stage, an achievement, a snooze) keeps its outcome while this run's data still
    ///   produce it (`produced`) or its kind is switched off (it may come back): a delivery as its id in
    ///   `deliveredIDs`, a seen one as its id in `settledIDs` (a new household may bring hundreds of them, each
    ///   past when nudge started), a missed or suppressed one as its whole entry (its instant, and whether a clock
    ///   set back before it takes it off the missed count). Once its source is gone, no run can produce it again.
    ///
    /// Snoozes and timers go two days after they expired: nothing produces them after that.
    mutating func prune(now: Date, produced: Set<String>, isSwitchedOn: (String) -> Bool) {
        let horizon = now.addingTimeInterval(-Self.ledgerRetention)
        var deliveredDated: [String] = []
        var deliveredOneOffs: [String] = []
        var seenOneOffs: [String] = []
        var settledDated: [(id: String, entry: LedgerEntry)] = []
        // A one-off that this run's data still produce, or whose kind is switched off: it may come back.
        func mayComeBack(_ id: String) -> Bool {
            produced.contains(id) || !isSwitchedOn(String(id.prefix { $0 != ":" }))
        }
        ledger = ledger.filter { id, entry in
            guard entry.expiresAt < horizon else { return true }
            switch (DeliveredDates.isDated(id), entry.outcome) {
            case (true, .delivered): deliveredDated.append(id)
            case (true, _): settledDated.append((id, entry))
            case (false, .delivered): deliveredOneOffs.append(id)
            case (false, .seen): seenOneOffs.append(id)
            case (false, _): return mayComeBack(id)
            }
            return false
        }
        for id in deliveredDated { deliveredDates.insert(id: id) }
        // A date is kept with the earlier of its fireAt and the time it was recorded (a leave-time silenced by a
        // departure before it fired): a clock set back before that instant reopens it, as with its ledger entry.
        for (id, entry) in settledDated {
            settledDates.insert(id: id, fireAt: min(entry.at, entry.fireAt), missed: entry.outcome == .missed)
        }
        deliveredIDs.formUnion(deliveredOneOffs)
        if !deliveredIDs.isEmpty { deliveredIDs = deliveredIDs.filter(mayComeBack) }
        settledIDs.formUnion(seenOneOffs)
        if !settledIDs.isEmpty { settledIDs = settledIDs.filter(mayComeBack) }
        snoozes = snoozes.filter { $0.expiresAt >= horizon }
        timers = timers.filter { $0.expiresAt >= horizon }
        appliedActions = appliedActions.filter { ledger[$0.key] != nil }
        departures = departures.filter { now.timeIntervalSince($0.at) < Departure.openFor }
    }
}
