import FoundationEssentials

/// What nudge remembers of the occurrences it has handled, so that none is delivered twice (docs/promises.md,
/// exactly once): the ledger of recent outcomes, and what pruning keeps of older ones for good, the ids of
/// one-offs still produced and the dates of daily repeats. It answers whether an occurrence is handled, in a
/// fixed order, and is changed only through what it records, prunes and reopens.
public struct DeliveryMemory: Equatable, Sendable {
    /// Ledger entries are kept this long after their occurrence expired, then pruned.
    public static let ledgerRetention: TimeInterval = 2 * 86_400

    /// Occurrence id → what happened to it, while it may matter: until two days after it expired (a delivery
    /// can be acted on until then), and longer while nothing else remembers it (`prune`).
    public private(set) var ledger: [String: LedgerEntry] = [:]
    /// The dates of every dated delivery, kept for good (`DeliveredDates`).
    public private(set) var deliveredDates = DeliveredDates()
    /// The dated occurrences pruned as seen, missed, suppressed or departed, each with its fireAt (or when it was
    /// recorded, if earlier) and whether it was missed (`SettledDates`), kept for good.
    public private(set) var settledDates = SettledDates()
    /// The ids of older deliveries of one-offs still in the files (an achievement, an import, a laundry stage
    /// not yet moved on): only the id, while the files produce it (`prune`).
    public private(set) var deliveredIDs: Set<String> = []
    /// The same for one-offs recorded as seen, never announced: past on the first run, or already expired when
    /// they appeared. Only the id, while the files produce it (`prune`).
    public private(set) var settledIDs: Set<String> = []

    public init() {}

    /// A memory holding exactly these records: read from state.json (`DeliveryMemory+JSON.swift`), or a test's.
    init(ledger: [String: LedgerEntry] = [:], deliveredIDs: Set<String> = [], settledIDs: Set<String> = [],
         deliveredDates: DeliveredDates = DeliveredDates(), settledDates: SettledDates = SettledDates()) {
        self.ledger = ledger
        self.deliveredIDs = deliveredIDs
        self.settledIDs = settledIDs
        self.deliveredDates = deliveredDates
        self.settledDates = settledDates
    }

    /// True when the memory knows an outcome of the occurrence `id`: it must never be delivered (again). The same
    /// answer as the planner's (`isHandled(_:source:filter:produced:)`), from all five memories, so that pruning
    /// changes no answer: a dated occurrence settled (seen, missed, suppressed, departed) stays handled once its
    /// entry has gone to `settledDates`. Asked by the commands that record an outcome or start an occurrence of
    /// their own (`TripRecorder`, Remind Tomorrow, `SettlementRule`'s timer, `SnoozeRule`, `nudge test`).
    public func isHandled(_ id: String) -> Bool {
        ledger[id] != nil || deliveredIDs.contains(id) || settledIDs.contains(id) || deliveredDates.contains(id: id)
            || settledDates.contains(id: id)
    }

    /// `isHandled` for the planner's candidates: asks the five memories in turn, the ledger (behind `filter`, the
    /// run's `handledFilter`), the delivered and settled one-off ids, the delivered and settled dates of daily
    /// repeats. A one-off found is added to `produced`: its source still makes it, so `prune` keeps its record.
    func isHandled(_ candidate: borrowing Notification, source: Notification.Identity.SourceKey,
                   filter: borrowing HandledFilter, produced: inout Set<String>) -> Bool {
        if filter.mayContain(candidate.identity, source: source), ledger[candidate.id] != nil {
            if case .text = candidate.identity.stored { produced.insert(candidate.id) }
            return true
        }
        if !(deliveredIDs.isEmpty && settledIDs.isEmpty), case .text(let id) = candidate.identity.stored,
           deliveredIDs.contains(id) || settledIDs.contains(id) {
            produced.insert(id)
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

    /// Every occurrence id the ledger and the one-off ids remember (dates are not ids): for naming a new laundry
    /// cycle unlike any remembered one.
    public var rememberedIDs: [String] {
        Array(ledger.keys) + Array(deliveredIDs) + Array(settledIDs)
    }

    /// Records `outcome` of `notification` at `now` in the ledger, replacing what it held.
    public mutating func record(_ notification: Notification, _ outcome: LedgerEntry.Outcome, at now: Date) {
        ledger[notification.id] = LedgerEntry(outcome: outcome, kind: notification.kind.rawValue,
                                              fireAt: notification.fireAt, expiresAt: notification.expiresAt, at: now)
    }

    /// Records `outcome` of `notification` at `now` unless it is already handled; true when it recorded it.
    @discardableResult
    public mutating func recordUnlessHandled(_ notification: Notification, _ outcome: LedgerEntry.Outcome,
                                             at now: Date) -> Bool {
        guard !isHandled(notification.id) else { return false }
        record(notification, outcome, at: now)
        return true
    }

    /// Records the delivery of `notification` at `deliveredAt` unless the ledger already has it delivered (a line
    /// of the outbox that a run which died had written); true when it recorded it.
    public mutating func recordDeliveryUnlessRecorded(_ notification: Notification, deliveredAt: Date) -> Bool {
        guard ledger[notification.id]?.outcome != .delivered else { return false }
        record(notification, .delivered, at: deliveredAt)
        return true
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
    /// a date missed in one zone stays missed in another. `SettledDates` judges its dates the same way, by the
    /// earlier of the fireAt and the recording time that `prune` kept for each; `settledIDs`, kept only while
    /// their one-offs are produced, by the fireAt this run plans.
    mutating func reopen(after now: Date, fireAt: (String) -> Date?) -> Set<String> {
        var forgottenMissed = Set<String>()
        ledger = ledger.filter { id, entry in
            let keep = entry.outcome == .delivered
                || !SettledDates.reopens(recorded: min(entry.at, entry.fireAt), planned: fireAt(id), now: now)
            if !keep && entry.outcome == .missed { forgottenMissed.insert(id) }
            return keep
        }
        forgottenMissed.formUnion(settledDates.forget(after: now, fireAt: fireAt))
        if !settledIDs.isEmpty { settledIDs = settledIDs.filter { id in fireAt(id).map { $0 <= now } ?? true } }
        return forgottenMissed
    }
}
