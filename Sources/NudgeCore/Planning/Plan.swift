import FoundationEssentials

/// The pending plan written to `plan.json` (docs/files.md, "The files nudge writes").
public struct Plan: Equatable, Sendable {
    public var generatedAt: Date
    public var timeZone: String
    var budget: BudgetStatus
    /// Sorted by fireAt, then id.
    public var pending: [Notification]
    /// Left out by the budget, sorted like `pending`, in their short form.
    public var deferred: [DeferredRecord]
    /// The earliest instant after `generatedAt` at which a run would act (`Planner.nextWake`): the schedule a
    /// timer that runs nudge only when something is due follows (docs/promises.md). Nil when nothing is ahead.
    public var nextWakeAt: Date?

    init(generatedAt: Date, timeZone: String, budget: BudgetStatus, pending: [Notification],
         deferred: [DeferredRecord], nextWakeAt: Date?) {
        self.generatedAt = generatedAt
        self.timeZone = timeZone
        self.budget = budget
        self.pending = pending
        self.deferred = deferred
        self.nextWakeAt = nextWakeAt
    }
}
