import FoundationEssentials

/// What nudge remembers of the occurrences it has handled, so that none is delivered twice (docs/promises.md,
/// exactly once): the ledger of recent outcomes, and what pruning keeps of older ones for good, the ids of
/// one-offs and the dates of daily repeats. It answers whether an occurrence is handled, in a fixed order, and is
/// changed only through what it records, prunes and reopens.
public struct DeliveryMemory: Equatable, Sendable {
    /// Ledger entries are kept this long after their occurrence expired, then pruned.
    public static let ledgerRetention: TimeInterval = 2 * 86_400

    /// Occurrence id → what happened to it, while it may matter: until two days after it expired (a delivery
    /// can be acted on until then), and longer while nothing else remembers it (`prune`).
    public private(set) var ledger: [String: LedgerEntry] = [:]
    /// The dates of every dated delivery, kept for good (`DeliveredDates`).
    private(set) var deliveredDates = DeliveredDates()
    /// The dated occurrences pruned as seen, missed, suppressed or departed, each with its fireAt (or when it was
    /// recorded, if earlier) and whether it was missed (`SettledDates`), kept for good.
    private(set) var settledDates = SettledDates()
    /// The ids of older deliveries of one-offs (an achievement, an import, a laundry stage, a snooze), kept for
    /// good: a delivery never repeats, whatever the files or the clock do later.
    private(set) var deliveredIDs: Set<String> = []
    /// The one-offs pruned as seen, missed, suppressed or departed, each with its instant and whether it was
    /// missed (`SettledOneOffs`), kept for good.
    private(set) var settledOneOffs = SettledOneOffs()

    init() {}

    /// A memory holding exactly these records: read from state.json (`DeliveryMemory+JSON.swift`), or a test's.
    init(ledger: [String: LedgerEntry] = [:], deliveredIDs: Set<String> = [],
         settledOneOffs: SettledOneOffs = SettledOneOffs(), deliveredDates: DeliveredDates = DeliveredDates(),
         settledDates: SettledDates = SettledDates()) {
        self.ledger = ledger
        self.deliveredIDs = deliveredIDs
        self.settledOneOffs = settledOneOffs
        self.deliveredDates = deliveredDates
        self.settledDates = settledDates
    }

    /// True when the memory knows an outcome of the occurrence `id`: it must never be delivered (again). The same
    /// answer as the planner's (`isHandled(_:source:filter:)`), from all five memories, so that pruning changes no
    /// answer: an occurrence settled (seen, missed, suppressed, departed) stays handled once its entry has gone to
    /// `settledDates` or `settledOneOffs`. Asked by the commands that record an outcome or start an occurrence of
    /// their own (`TripRecorder`, Remind Tomorrow, `SettlementRule`'s timer, `SnoozeRule`, `nudge test`).
    public func isHandled(_ id: String) -> Bool {
        ledger[id] != nil || deliveredIDs.contains(id) || settledOneOffs.contains(id: id)
            || deliveredDates.contains(id: id) || settledDates.contains(id: id)
    }

    /// `isHandled` for the planner's candidates: asks the five memories in turn, the ledger (behind `filter`, the
    /// run's `handledFilter`), the delivered and settled one-offs, the delivered and settled dates of daily
    /// repeats.
    func isHandled(_ candidate: borrowing Notification, source: Notification.Identity.SourceKey,
                   filter: borrowing HandledFilter) -> Bool {
        if filter.mayContain(candidate.identity, source: source), ledger[candidate.id] != nil { return true }
        if !(deliveredIDs.isEmpty && settledOneOffs.isEmpty), case .text(let id) = candidate.identity.stored,
           deliveredIDs.contains(id) || settledOneOffs.contains(id: id) {
            return true
        }
        return deliveredDates.contains(candidate) || settledDates.contains(candidate)
    }

    /// A quick "certainly not in the ledger" for one run, with room for `capacity` ids recorded during it.
    func handledFilter(capacity: Int) -> HandledFilter {
        HandledFilter(ledger.keys, capacity: capacity)
    }

    /// Whether the occurrence `id` was delivered, however long ago if it is dated.
    public func wasDelivered(_ id: String) -> Bool {
        ledger[id]?.outcome == .delivered || deliveredIDs.contains(id) || deliveredDates.contains(id: id)
    }

    /// Every occurrence id the ledger and the one-offs remember (dates are not ids): for naming a new laundry
    /// cycle or numbering a snooze unlike any remembered one.
    public var rememberedIDs: [String] {
        Array(ledger.keys) + Array(deliveredIDs) + Array(settledOneOffs.ids)
    }

    /// Records `outcome` of `notification` at `now` in the ledger, replacing what it held.
    mutating func record(_ notification: Notification, _ outcome: LedgerEntry.Outcome, at now: Date) {
        ledger[notification.id] = LedgerEntry(outcome: outcome, kind: notification.kind.rawValue,
                                              fireAt: notification.fireAt, expiresAt: notification.expiresAt, at: now)
    }

    /// Records `outcome` of `notification` at `now` unless it is already handled; true when it recorded it.
    @discardableResult
    mutating func recordUnlessHandled(_ notification: Notification, _ outcome: LedgerEntry.Outcome,
                                      at now: Date) -> Bool {
        guard !isHandled(notification.id) else { return false }
        record(notification, outcome, at: now)
        return true
    }

    /// Records the delivery of `notification` at `deliveredAt` unless the ledger already has it delivered (a line
    /// of the outbox that a run which died had written); true when it recorded it.
    mutating func recordDeliveryUnlessRecorded(_ notification: Notification, deliveredAt: Date) -> Bool {
        guard ledger[notification.id]?.outcome != .delivered else { return false }
        record(notification, .delivered, at: deliveredAt)
        return true
    }

    /// Forgets what no promise needs any more, so that state.json stays small (docs/promises.md, exactly once):
    ///
    /// - every entry is kept until two days after its occurrence expired (`ledgerRetention`): the age limit of
    ///   `snooze` and `act`, and the actions applied, live that long;
    /// - then its outcome is kept for good in a smaller form: a dated occurrence's delivery in `deliveredDates`,
    ///   a seen, missed, suppressed or departed one in `settledDates` with its instant; a one-off's delivery as
    ///   its id in `deliveredIDs`, any other outcome in `settledOneOffs` with its instant.
    ///
    /// The instant kept is the earlier of the fireAt and the time the outcome was recorded (a leave-time silenced
    /// by a departure before it fired): a clock set back before it reopens the outcome, as with its ledger entry.
    mutating func prune(now: Date) {
        let horizon = now.addingTimeInterval(-Self.ledgerRetention)
        var pruned: [(id: String, entry: LedgerEntry)] = []
        ledger = ledger.filter { id, entry in
            guard entry.expiresAt < horizon else { return true }
            pruned.append((id, entry))
            return false
        }
        for (id, entry) in pruned {
            let instant = min(entry.at, entry.fireAt)
            let missed = entry.outcome == .missed
            switch (DeliveredDates.isDated(id), entry.outcome) {
            case (true, .delivered): deliveredDates.insert(id: id)
            case (true, _): settledDates.insert(id: id, fireAt: instant, missed: missed)
            case (false, .delivered): deliveredIDs.insert(id)
            case (false, _): settledOneOffs.insert(id: id, fireAt: instant, missed: missed)
            }
        }
    }

    /// After the clock went back to `now`: forgets the outcomes a later clock recorded for occurrences that are
    /// still to come at `now` (docs/promises.md), and returns the ids of those that were missed. A clock that ran
    /// ahead marked real future occurrences as missed (or seen, or suppressed); once it is corrected they must
    /// ring when their time truly comes. What was already due at `now` keeps its outcome whatever the clock did:
    /// an achievement seen two days ago, or an alarm suppressed while notifications were off, must stay silent.
    /// Deliveries are always kept: those really happened and must not repeat.
    ///
    /// An outcome is forgotten only when its occurrence lies ahead of the corrected clock both at the instant
    /// recorded and as this run plans it (`fireAt`; nil when nothing produces it now). After travel the same
    /// date falls at another instant: one whose time has passed where it was recorded was truly missed there,
    /// and one whose time has passed where the person now is will not come again; either stays as recorded, as
    /// a date missed in one zone stays missed in another. `SettledDates` and `SettledOneOffs` judge theirs the
    /// same way, by the instant that `prune` kept for each.
    mutating func reopen(after now: Date, fireAt: (String) -> Date?) -> Set<String> {
        var forgottenMissed = Set<String>()
        ledger = ledger.filter { id, entry in
            let keep = entry.outcome == .delivered
                || !SettledDates.reopens(recorded: min(entry.at, entry.fireAt), planned: fireAt(id), now: now)
            if !keep && entry.outcome == .missed { forgottenMissed.insert(id) }
            return keep
        }
        forgottenMissed.formUnion(settledDates.forget(after: now, fireAt: fireAt))
        forgottenMissed.formUnion(settledOneOffs.forget(after: now, fireAt: fireAt))
        return forgottenMissed
    }
}
