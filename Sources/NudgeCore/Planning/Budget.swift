/// The pending budget (SPEC §5.2): at most `limit` records in the plan, the most important first.
///
/// Ranked by priority (critical first), then fireAt (soonest first), then id, so a lower priority never evicts
/// a higher one. Each run ranks everything afresh (a rolling window): a deferred record enters the plan as soon
/// as a slot is free. The budget limits the plan only; a deferred record that falls due is still delivered.
enum Budget {
    /// `pending` and `deferred`, each in time order (fireAt, then id).
    ///
    /// The records are moved into place, never copied: with 10,000 alarms, copying each record into its list
    /// (a dozen fields, half of them retained) and freeing the original cost as much as the ranking.
    static func split(_ candidates: consuming [Notification],
                      limit: Int) -> (pending: [Notification], deferred: [Notification]) {
        var records = candidates
        let byTime = timeOrder(records)
        guard records.count > limit else {
            rearrange(&records, by: byTime)
            return (records, [])
        }
        // The ranking (priority, fireAt, id) is the time order taken one priority at a time, so the slots are
        // filled by walking `byTime` once per priority (critical first) instead of sorting a second time.
        var kept = [Bool](repeating: false, count: records.count)
        var free = max(0, limit)
        for priority in Priority.allCases where free > 0 {
            for index in byTime where records[index].priority == priority {
                kept[index] = true
                free -= 1
                if free == 0 { break }
            }
        }
        // Deferred first: then the pending records are split off the end, without moving the others.
        var ranked = byTime.filter { !kept[$0] }
        let deferredCount = ranked.count
        ranked += byTime.lazy.filter { kept[$0] }
        rearrange(&records, by: ranked)
        let pending = Array(records[deferredCount...])
        records.removeLast(records.count - deferredCount)
        return (pending, records)
    }

    /// The indices of `records` in time order. Sorted as (fireAt, index) pairs, not as indices looking their
    /// records up: ids are compared only where times tie.
    private static func timeOrder(_ records: [Notification]) -> [Int] {
        var keys = records.indices.map { TimeKey(fireAt: records[$0].fireAt.timeIntervalSinceReferenceDate, index: $0) }
        keys.sort { $0.fireAt != $1.fireAt ? $0.fireAt < $1.fireAt : records[$0.index].id < records[$1.index].id }
        return keys.map(\.index)
    }

    private struct TimeKey {
        let fireAt: Double
        let index: Int
    }

    /// Puts `records[order[i]]` at `i` for every `i` by following the permutation's cycles: records are swapped
    /// in their buffer (moved), never copied; `Array.swapAt` copied and destroyed them.
    private static func rearrange(_ records: inout [Notification], by order: [Int]) {
        var placed = [Bool](repeating: false, count: order.count)
        records.withUnsafeMutableBufferPointer { records in
            for start in order.indices where !placed[start] {
                var position = start
                while order[position] != start {
                    records.swapAt(position, order[position])
                    placed[position] = true
                    position = order[position]
                }
                placed[position] = true
            }
        }
    }
}
