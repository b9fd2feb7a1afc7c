import FoundationEssentials

/// The one-offs (a laundry stage, a health warning, an achievement, an import, a snooze, a check-in) recorded as
/// seen, missed, suppressed or departed whose ledger entries were pruned, each with its instant (its fireAt, or
/// when it was recorded if that was earlier) and whether it was missed, kept for good.
///
/// Why: a one-off's source can leave the files and come back (a cycle removed by hand, a file restored from a
/// copy), and a clock set back can then bring its time around again: missed stays missed, and seen stays seen,
/// whatever nudge prunes (docs/promises.md, exactly once). The instant kept lets a set back judge the outcome as
/// its ledger entry did, by the instant recorded and by the one this run plans (`SettledDates.reopens`), so
/// pruning changes no answer.
struct SettledOneOffs: Equatable, Sendable {
    /// Occurrence id → what was recorded.
    private var settled: [String: SettledDates.Settled] = [:]

    var isEmpty: Bool { settled.isEmpty }

    /// Every id kept.
    var ids: Dictionary<String, SettledDates.Settled>.Keys { settled.keys }

    func contains(id: String) -> Bool {
        settled[id] != nil
    }

    /// Notes the one-off `id` as settled at `fireAt`, missed or not.
    mutating func insert(id: String, fireAt: Date, missed: Bool) {
        settled[id] = SettledDates.Settled(fireAt: fireAt, missed: missed)
    }

    /// After the clock went back to `now`: forgets each one-off whose instant lies ahead of the corrected clock
    /// both as kept and as this run plans it (`fireAt`; nil when nothing produces it now), and returns the ids of
    /// those that were missed.
    mutating func forget(after now: Date, fireAt: (String) -> Date?) -> Set<String> {
        var forgottenMissed = Set<String>()
        settled = settled.filter { id, record in
            guard SettledDates.reopens(recorded: record.fireAt, planned: fireAt(id), now: now) else { return true }
            if record.missed { forgottenMissed.insert(id) }
            return false
        }
        return forgottenMissed
    }

    // MARK: - state.json

    /// Each id → `"@<instant>"` (seen, suppressed or departed) or `"!<instant>"` (missed), sorted by id.
    var textMembers: [(key: String, value: String)] {
        settled.keys.sorted().compactMap { id in
            settled[id].map { (id, ($0.missed ? "!" : "@") + RFC3339.format($0.fireAt)) }
        }
    }

    /// Reads one member written by `textMembers`; false when it is not one.
    mutating func read(id: String, text: String) -> Bool {
        guard let mark = text.first, mark == "@" || mark == "!",
              let fireAt = RFC3339.parse(String(text.dropFirst())) else { return false }
        insert(id: id, fireAt: fireAt, missed: mark == "!")
        return true
    }

    /// An id of the list a state.json of an earlier version kept for seen one-offs, without their instants: kept
    /// as seen long ago, so that no set back reopens it (those ids were never announced).
    mutating func readEarlierVersion(id: String) {
        insert(id: id, fireAt: Date(timeIntervalSince1970: 0), missed: false)
    }
}
