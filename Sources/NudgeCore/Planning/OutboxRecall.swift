import FoundationEssentials

/// Exactly once however far the clock goes back (SPEC §7). The ledger forgets an occurrence two days after it
/// expired, pruning against the run's clock; a clock then set back further than that would find occurrences
/// that are not expired by its reading and no longer in the ledger. The outbox holds every delivered id, so
/// the ledger recalls them from it, once per step back, before such a run plans.
public enum OutboxRecall {
    /// Whether a run at `now` may lack delivered ids in its ledger: the clock is more than `ledgerRetention`
    /// behind the latest run, and the outbox was not yet read back for a clock this far back.
    public static func isNeeded(_ state: RunState, now: Date) -> Bool {
        guard let latest = state.latestRunAt ?? state.lastRunAt,
              latest.addingTimeInterval(-RunState.ledgerRetention) > now else { return false }
        if let recalledFrom = state.outboxRecalledFrom, recalledFrom <= now { return false }
        return true
    }

    /// Takes into the ledger, as delivered, every outbox line whose occurrence the ledger would still hold at
    /// `now` (expired less than `ledgerRetention` before it) and does not; counts nothing, queues nothing:
    /// these deliveries happened and were accounted for when they did. Returns how many were recalled.
    @discardableResult
    public static func recall(_ outbox: [UInt8], into state: inout RunState, now: Date) -> Int {
        let horizon = now.addingTimeInterval(-RunState.ledgerRetention)
        var recalled = 0
        for line in outbox.split(separator: UInt8(ascii: "\n")) {
            guard let record = try? JSONParser.parse(Array(line)), let delivery = Delivery(record: record) else {
                continue
            }
            let notification = delivery.notification
            guard notification.expiresAt >= horizon, state.ledger[notification.id]?.outcome != .delivered else {
                continue
            }
            state.ledger[notification.id] = LedgerEntry(outcome: .delivered, kind: notification.kind.rawValue,
                                                        fireAt: notification.fireAt,
                                                        expiresAt: notification.expiresAt, at: delivery.deliveredAt)
            recalled += 1
        }
        state.outboxRecalledFrom = now
        return recalled
    }
}
