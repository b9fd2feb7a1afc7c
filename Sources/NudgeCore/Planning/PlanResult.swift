import FoundationEssentials

/// Everything one run decides: the plan to write, what to deliver now and its outbox lines, what was missed, and
/// the state to keep.
public struct PlanResult: Equatable, Sendable {
    public var plan: Plan
    /// Due now, in fireAt order.
    public var deliveries: [Delivery]
    /// The outbox lines of `deliveries`, already accounted for in `state` (`RunState.noteOutboxAppend`).
    public var outboxLines: String
    /// Fell due since the previous run and will not be delivered.
    public var missed: [MissedRecord]
    /// Fell due while `settings.notifications.enabled` is false: recorded, never delivered or replayed.
    public var suppressed: [Notification]
    /// The state after this run, as if every delivery succeeded and its outbox lines were appended.
    public var state: RunState
    /// No previous state: past occurrences were recorded as seen instead of delivered.
    public var isFirstRun: Bool
}
