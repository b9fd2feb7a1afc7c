/// A quick "certainly not handled" for occurrence ids, in front of the ledger's dictionary: one bit per key
/// (`Notification.Identity.filterKey`) of each id in the ledger.
///
/// Why: the planner asks the ledger about the next occurrence of every alarm, nearly none of them in it, and
/// would otherwise make each one's id and hash it with the standard `Hasher` (SipHash). An id whose bit is
/// clear is not in the ledger; one whose bit is set is looked up there.
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
        let bit = bitIndex(Notification.Identity.filterKey(of: id))
        bits[bit >> 6] |= 1 << UInt64(bit & 63)
    }

    /// False when `id` was certainly never inserted.
    func mayContain(_ id: String) -> Bool {
        contains(bitIndex(Notification.Identity.filterKey(of: id)))
    }

    /// False when the id of `identity` was certainly never inserted; `source` is `SourceKey(identity.source)`.
    func mayContain(_ identity: Notification.Identity, source: Notification.Identity.SourceKey) -> Bool {
        contains(bitIndex(identity.filterKey(source: source)))
    }

    private func contains(_ bit: Int) -> Bool {
        bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }

    private func bitIndex(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: key) & (bits.count * 64 - 1)
    }
}
