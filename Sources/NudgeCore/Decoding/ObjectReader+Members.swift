extension ObjectReader {
    /// The value nodes of the members named in `known`, found in one pass over the object; members not in
    /// `known` are recorded as unknown keys (what `checkKeys` does).
    ///
    /// Why: looking each key up in turn would scan an object's members once per key, and a key that is absent
    /// (most alarms leave out `enabled` and `weekdays`) all of them: for a large file, more than parsing it.
    func members(_ known: [StaticString]) -> KnownMembers {
        var found = KnownMembers()
        let tape = document.tape
        forEachMember(known) { field, value in
            if tape.kind(value) != .null { found.nodes[field] = Int32(truncatingIfNeeded: value) }
        }
        return found
    }

    /// Member nodes by their place in a list of at most 16 known keys, held inline (no allocation per object).
    struct KnownMembers {
        /// Node indices fit in 32 bits: a tape has fewer nodes than its file has bytes (`JSONTape.maximumSize`).
        fileprivate var nodes = InlineArray<16, Int32>(repeating: -1)

        /// The value node of known key `field`, nil when the member is absent or `null`.
        @inline(__always)
        subscript(field: Int) -> Int? {
            nodes[field] < 0 ? nil : Int(nodes[field])
        }
    }
}
