extension Household {
    /// Puts back, for each broken top-level entry of `file` with an id, the entry of that id from `lastGood` (the
    /// household its last good version decodes to), unless an entry of the file as it is now has that id (a
    /// duplicate's first use). Returns the entries put back; the others plan not at all until fixed (docs/promises.md).
    mutating func restore(_ broken: [BrokenEntry], of file: UserFile, from lastGood: Household) -> [BrokenEntry] {
        broken.filter { entry in
            guard let id = entry.id, let list = entry.list.topLevelKey else { return false }
            switch (file, list) {
            case (.laundry, "pets"): return Self.restore(id, in: &pets, from: lastGood.pets, id: \.id)
            case (.alarms, "alarms"): return Self.restore(id, in: &alarms, from: lastGood.alarms, id: \.id)
            case (.trips, "trips"): return Self.restore(id, in: &trips, from: lastGood.trips, id: \.id)
            case (.streaks, "games"):
                return Self.restore(id, in: &streaks.games, from: lastGood.streaks.games, id: \.id)
            case (.streaks, "achievements"):
                return Self.restore(id, in: &streaks.achievements, from: lastGood.streaks.achievements, id: \.id)
            case (.streaks, "imports"):
                return Self.restore(id, in: &streaks.imports, from: lastGood.streaks.imports, id: \.id)
            default: return false
            }
        }
    }

    private static func restore<Entry>(_ id: String, in entries: inout [Entry], from saved: [Entry],
                                       id entryID: (Entry) -> String) -> Bool {
        guard !entries.contains(where: { entryID($0) == id }),
              let old = saved.first(where: { entryID($0) == id }) else { return false }
        entries.append(old)
        return true
    }
}
