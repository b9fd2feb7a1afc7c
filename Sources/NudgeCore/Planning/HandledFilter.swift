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
        let bit = bitIndex(Self.key(id))
        bits[bit >> 6] |= 1 << UInt64(bit & 63)
    }

    /// False when `id` was certainly never inserted.
    func mayContain(_ id: String) -> Bool {
        contains(bitIndex(Self.key(id)))
    }

    /// False when the id of `identity` was certainly never inserted. A dated id is not built: its key is made
    /// from its source and date.
    func mayContain(_ identity: Notification.Identity) -> Bool {
        mayContain(identity, source: SourceKey(identity.source))
    }

    /// The same, given `SourceKey(identity.source)` (the planner reads each source once, for this and
    /// `UpcomingIndex`).
    func mayContain(_ identity: Notification.Identity, source: SourceKey) -> Bool {
        if case .dated(let date) = identity.stored, (0...9999).contains(date.year), !source.hasColon {
            return contains(bitIndex(Self.key(source: source.hash, date: date)))
        }
        return mayContain(identity.id)
    }

    /// A source's hash (`UpcomingIndex.hash`), and whether it has a colon, which would split its id's text
    /// elsewhere than its parts.
    struct SourceKey {
        let hash: UInt64
        let hasColon: Bool

        init(_ source: String) {
            var source = source
            (hash, hasColon) = source.withUTF8 { bytes in
                (JSONKeyTable.hash(bytes), bytes.contains(UInt8(ascii: ":")))
            }
        }
    }

    /// What an id is filed by. `<kind>:<source>:<YYYY-MM-DD>` (split at its first two colons): its source's
    /// hash and its date, so that a dated id's key needs no text; any other id: the hash of its text.
    private static func key(_ id: String) -> UInt64 {
        var id = id
        return id.withUTF8 { bytes in
            guard let first = bytes.firstIndex(of: UInt8(ascii: ":")),
                  let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ":")),
                  let date = LocalDate.parse(bytes: UnsafeBufferPointer(rebasing: bytes[(second + 1)...])) else {
                return JSONKeyTable.hash(bytes)
            }
            return key(source: JSONKeyTable.hash(UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])),
                       date: date)
        }
    }

    private static func key(source: UInt64, date: LocalDate) -> UInt64 {
        let number = date.year * 10_000 + date.month * 100 + date.day
        return source ^ (UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15)
    }

    private func contains(_ bit: Int) -> Bool {
        bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }

    private func bitIndex(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: key) & (bits.count * 64 - 1)
    }
}
