/// A quick "certainly not handled" for occurrence ids, in front of the ledger's dictionary: one bit per hash
/// of each id in the ledger.
///
/// Why: the planner asks the ledger about each of 10,000 alarm occurrences, nearly none of them in it, and
/// hashing each id with the standard `Hasher` (SipHash) then probing a table of a handful of entries cost as
/// much as building the occurrence. An id whose bit is clear is not in the ledger; one whose bit is set is
/// looked up there.
struct HandledFilter {
    private var bits: [UInt64]

    /// A filter holding `ids`, with room for `capacity` more before it answers "maybe" too often.
    init(_ ids: some Collection<String>, capacity: Int) {
        var words = 64
        while words * 4 < ids.count + capacity { words <<= 1 }
        bits = Array(repeating: 0, count: words)
        for id in ids { insert(id) }
    }

    mutating func insert(_ id: String) {
        let bit = bitIndex(id)
        bits[bit >> 6] |= 1 << UInt64(bit & 63)
    }

    /// False when `id` was certainly never inserted.
    func mayContain(_ id: String) -> Bool {
        let bit = bitIndex(id)
        return bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }

    private func bitIndex(_ id: String) -> Int {
        Int(truncatingIfNeeded: UpcomingIndex.hash(id)) & (bits.count * 64 - 1)
    }
}
