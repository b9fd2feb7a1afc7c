/// String nodes of a tape, hashed by their text: the keys of one large object (the parser's duplicate check, and
/// member lookups after), or the ids of a list (`ObjectReader.list`'s unique-id check).
///
/// Why: `state.json` keeps a member per planned leave time and per ledger entry, tens of thousands in one object,
/// and the run looks each of them up by key; a linear scan would make that quadratic. Texts are hashed in place,
/// so no `String` is built for them.
///
/// Slots hold a node index plus one (0 is an empty slot) beside 32 bits of its hash; open addressing with
/// linear probing, kept at most half full.
struct JSONKeyTable {
    private var slots: [UInt64]
    private(set) var count = 0

    init(capacity: Int) {
        var size = 64
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
    }

    /// Adds the string node `key` of `tape` and returns nil; when a node with the same text is there already,
    /// adds nothing and returns that node.
    mutating func insert(_ key: Int, in tape: JSONTape) -> Int? {
        let hash = tape.withText(key, Self.hash)
        if let existing = find(hash: hash, in: tape, where: { tape.textEquals($0, key) }) { return existing }
        if (count + 1) * 2 > slots.count { grow() }
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = UInt64(truncatingIfNeeded: hash) << 32 | UInt64(key + 1)
        count += 1
        return nil
    }

    /// The key node whose text is `text`, or nil.
    func find(_ text: UnsafeBufferPointer<UInt8>, in tape: JSONTape) -> Int? {
        find(hash: Self.hash(text), in: tape) { node in tape.withText(node) { JSONTape.sameBytes($0, text) } }
    }

    private func find(hash: UInt64, in tape: JSONTape, where matches: (Int) -> Bool) -> Int? {
        let tag = hash & 0xFFFF_FFFF
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] != 0 {
            let entry = slots[slot]
            if entry >> 32 == tag, matches(Int(entry & 0xFFFF_FFFF) - 1) { return Int(entry & 0xFFFF_FFFF) - 1 }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Doubles the slots; entries move by the hash bits they carry, without rehashing any text.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        for entry in old where entry != 0 {
            // The low 32 bits of the hash are the top half of the entry; tables never need more index bits.
            var slot = Int(truncatingIfNeeded: entry >> 32) & (slots.count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = entry
        }
    }

    /// A multiply-xorshift hash of 8-byte words; its low 32 bits pick the slot and are kept to compare.
    static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(text.count) &* multiplier
        guard let base = text.baseAddress else { return hash }
        var offset = 0
        while offset + 8 <= text.count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            hash = (hash ^ word) &* multiplier
            hash ^= hash >> 29
            offset += 8
        }
        // The last 1 to 7 bytes in one word: from two 4-byte loads when there are 4 or more (overlapping where
        // fewer than 8), else byte by byte.
        var tail: UInt64 = 0
        let rest = text.count - offset
        if rest >= 4 {
            let low = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self)
            let high = UnsafeRawPointer(base + text.count - 4).loadUnaligned(as: UInt32.self)
            // The last bytes low: ids differ most at their end, and a product's low bits see only low bits.
            tail = UInt64(high) | UInt64(low) << 32
        } else {
            var shift: UInt64 = 0
            while offset < text.count {
                tail |= UInt64(base[offset]) << shift
                shift += 8
                offset += 1
            }
        }
        hash = (hash ^ tail) &* multiplier
        hash ^= hash >> 32
        return hash & 0xFFFF_FFFF
    }
}
