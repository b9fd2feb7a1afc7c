/// The pending budget: at most `limit` records in the plan, the most important first (docs/design.md,
/// "What a run plans").
///
/// Ranked by priority (critical first), then fireAt (soonest first), then id, so a lower priority never evicts
/// a higher one. Each run ranks everything afresh (a rolling window): a deferred record enters the plan as soon
/// as a slot is free. The budget limits the plan only; a deferred record that falls due is still delivered.
enum Budget {
    /// `pending` and `deferred`, each in time order (fireAt, then id).
    ///
    /// The records are moved into place, never copied: a copy retains half of a record's dozen fields and
    /// the original must then be freed, which for thousands of alarms costs as much as the ranking.
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
    /// records up: ids are compared only where times tie, and then by their first bytes after the kind
    /// (`Notification.Identity.sortPrefix`), which tell nearly all of them apart without making their text
    /// (many alarms ring at the same minute); only the rest are compared as strings.
    private static func timeOrder(_ records: [Notification]) -> [Int] {
        var keys = records.indices.map {
            TimeKey(fireAt: records[$0].fireAt.timeIntervalSinceReferenceDate, kind: records[$0].kind,
                    sortPrefix: records[$0].identity.sortPrefix, index: $0)
        }
        keys.sort { left, right in
            if left.fireAt != right.fireAt { return left.fireAt < right.fireAt }
            if left.sortPrefix != right.sortPrefix, left.sortPrefix != 0, right.sortPrefix != 0,
               left.kind == right.kind {
                return left.sortPrefix < right.sortPrefix
            }
            return records[left.index].id < records[right.index].id
        }
        return keys.map(\.index)
    }

    private struct TimeKey {
        let fireAt: Double
        let kind: NotificationKind
        let sortPrefix: UInt64
        let index: Int
    }

    /// Puts `records[order[i]]` at `i` for every `i` by following the permutation's cycles. Swapped in the
    /// array's buffer, records move; `Array.swapAt` would copy each one and destroy the copy.
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
