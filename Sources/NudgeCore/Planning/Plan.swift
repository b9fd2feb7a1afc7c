import FoundationEssentials

/// The pending plan written to `plan.json` (SPEC §4).
public struct Plan: Equatable, Sendable {
    public var generatedAt: Date
    public var timeZone: String
    public var budget: BudgetStatus
    /// Sorted by fireAt, then id.
    public var pending: [Notification]
    /// Left out by the budget, sorted like `pending`, in their short form.
    public var deferred: [DeferredRecord]

    public init(generatedAt: Date, timeZone: String, budget: BudgetStatus, pending: [Notification],
                deferred: [DeferredRecord]) {
        self.generatedAt = generatedAt
        self.timeZone = timeZone
        self.budget = budget
        self.pending = pending
        self.deferred = deferred
    }

    /// The earliest fireAt in `pending`: when a timer that wants to wake exactly then should wake.
    public var nextWakeAt: Date? { pending.first?.fireAt }
}
