/// The pending budget (SPEC §5.2): at most `limit` records in the plan, the most important first.
///
/// Ranked by priority (critical first), then fireAt (soonest first), then id, so a lower priority never evicts
/// a higher one. Each run ranks everything afresh (a rolling window): a deferred record enters the plan as soon
/// as a slot is free. The budget limits the plan only; a deferred record that falls due is still delivered.
enum Budget {
    static func split(_ candidates: [Notification], limit: Int) -> (pending: [Notification], deferred: [Notification]) {
        guard candidates.count > limit else { return (candidates.sorted(by: Planner.comesFirst), []) }
        let ranked = candidates.sorted { lhs, rhs in
            (lhs.priority, lhs.fireAt, lhs.id) < (rhs.priority, rhs.fireAt, rhs.id)
        }
        let pending = ranked.prefix(max(0, limit)).sorted(by: Planner.comesFirst)
        let deferred = ranked.dropFirst(max(0, limit)).sorted(by: Planner.comesFirst)
        return (Array(pending), Array(deferred))
    }
}
