import FoundationEssentials
import Glibc

/// What happened to one occurrence: the ledger is what makes delivery exactly-once across runs.
public struct LedgerEntry: Equatable, Sendable {
    public enum Outcome: String, Sendable {
        /// Written to the outbox (and stdout).
        case delivered
        /// Already past on the very first run: recorded so it is never announced.
        case seen
        /// Expired before a run could deliver it, or replaced by a later occurrence of the same repeat.
        case missed
        /// Fell due while notifications were switched off: not replayed when they are switched back on.
        case suppressed
        /// A leave-time reminder whose trip was departed on before it fired (docs/files.md): handled, not missed.
        case departed
    }

    public var outcome: Outcome
    public var kind: String
    var fireAt: Date
    public var expiresAt: Date
    /// The run's `now` when the outcome was recorded.
    public var at: Date

    init(outcome: Outcome, kind: String, fireAt: Date, expiresAt: Date, at: Date) {
        self.outcome = outcome
        self.kind = kind
        self.fireAt = fireAt
        self.expiresAt = expiresAt
        self.at = at
    }
}
