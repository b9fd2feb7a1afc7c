/// Where each thread's next occurrence is in the planner's list of upcoming records: at most one per thread
/// (just-in-time).
///
/// Why not `[Notification.Thread: Int]`: the planner looks a thread up for each of 10,000 alarms, and hashing
/// the source with the standard `Hasher` (SipHash) cost more than the rest of the look-up. Here the source's
/// bytes are hashed eight at a time (`JSONKeyTable.hash`); slots hold a position plus one (0 is empty) beside 32
/// bits of its hash, with linear probing, kept at most half full.
struct UpcomingIndex {
    private var slots: [UInt64]
    private var count = 0

    init(capacity: Int) {
        var size = 64
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
    }

    /// The position in `upcoming` of the record of `notification`'s thread; when the thread has none yet,
    /// `next`, which becomes its position.
    mutating func position(of notification: Notification, in upcoming: [Notification], next: Int) -> Int {
        position(of: notification, sourceHash: Self.hash(notification.source), in: upcoming, next: next)
    }

    /// The same, given `hash(notification.source)`.
    mutating func position(of notification: Notification, sourceHash hash: UInt64, in upcoming: [Notification],
                           next: Int) -> Int {
        let tag = hash & 0xFFFF_FFFF
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] != 0 {
            let entry = slots[slot]
            let position = Int(entry & 0xFFFF_FFFF) - 1
            if entry >> 32 == tag, upcoming[position].thread == notification.thread { return position }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = tag << 32 | UInt64(next + 1)
        count += 1
        if count * 2 > slots.count { grow() }
        return next
    }

    /// Doubles the slots; entries move by the hash bits they carry.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        for entry in old where entry != 0 {
            var slot = Int(truncatingIfNeeded: entry >> 32) & (slots.count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = entry
        }
    }

    /// The hash of a string's UTF-8 bytes (every native string has them in one piece).
    static func hash(_ text: String) -> UInt64 {
        if let hash = text.utf8.withContiguousStorageIfAvailable(JSONKeyTable.hash) { return hash }
        return Array(text.utf8).withUnsafeBufferPointer(JSONKeyTable.hash)
    }
}
