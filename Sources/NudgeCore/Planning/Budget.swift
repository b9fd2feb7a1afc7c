/// The pending budget (SPEC §5.2): at most `limit` records in the plan, the most important first.
///
/// Ranked by priority (critical first), then fireAt (soonest first), then id, so a lower priority never evicts
/// a higher one. Each run ranks everything afresh (a rolling window): a deferred record enters the plan as soon
/// as a slot is free. The budget limits the plan only; a deferred record that falls due is still delivered.
enum Budget {
    static func split(_ candidates: [Notification], limit: Int) -> (pending: [Notification], deferred: [Notification]) {
        // Sorting indices over extracted keys, not the records: a record is a dozen fields, there may be 10,000.
        let fireAts = candidates.map(\.fireAt)
        let ids = candidates.map(\.id)
        // The ids only where the times tie: a tuple comparison retained and released both ids every time.
        let byTime = candidates.indices.sorted {
            fireAts[$0] != fireAts[$1] ? fireAts[$0] < fireAts[$1] : ids[$0] < ids[$1]
        }
        guard candidates.count > limit else { return (byTime.map { candidates[$0] }, []) }
        // The ranking (priority, fireAt, id) is the time order taken one priority at a time, so the slots are
        // filled by walking `byTime` once per priority (critical first) instead of sorting a second time.
        let priorities = candidates.map(\.priority)
        var kept = [Bool](repeating: false, count: candidates.count)
        var free = max(0, limit)
        for priority in Priority.allCases where free > 0 {
            for index in byTime where priorities[index] == priority {
                kept[index] = true
                free -= 1
                if free == 0 { break }
            }
        }
        return (byTime.filter { kept[$0] }.map { candidates[$0] }, byTime.filter { !kept[$0] }.map { candidates[$0] })
    }
}
