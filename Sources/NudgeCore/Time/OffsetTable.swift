/// A zone's offsets over a span of instants, read from the zone once so that `WallClock` can answer the
/// planner's many lookups (six per daily occurrence) by a search in a few segments instead of a search through
/// the zone's whole history, or an evaluation of its rule after the last listed transition, each time.
struct OffsetTable: Sendable {
    /// UTC seconds where each segment starts, ascending; the first is the span's start.
    private let starts: [Int]
    /// The offset east of UTC in seconds from `starts[i]` to the next start.
    private let offsets: [Int]
    /// The first UTC second after the span.
    private let end: Int

    /// nil for an empty span.
    init?(zone: Zone, from start: Int, to end: Int) {
        guard start < end else { return nil }
        var starts = [start]
        var offsets = [zone.secondsFromGMT(atUTC: start)]
        var cursor = start
        while let next = zone.nextTransition(afterUTC: cursor), next < end {
            starts.append(next)
            offsets.append(zone.secondsFromGMT(atUTC: next))
            cursor = next
        }
        self.starts = starts
        self.offsets = offsets
        self.end = end
    }

    /// The offset from the UTC second `lower` through `upper` when it does not change between them (one segment
    /// holds both); nil when it does, or outside the span.
    func steadyOffset(from lower: Int, through upper: Int) -> Int? {
        guard lower >= starts[0], upper < end, lower <= upper else { return nil }
        let segment = starts.partitioningIndex { $0 > lower }
        guard segment == starts.count || starts[segment] > upper else { return nil }
        return offsets[segment - 1]
    }

    /// The offset at the UTC second `utc`, or nil outside the span.
    func offset(atUTC utc: Int) -> Int? {
        guard utc >= starts[0], utc < end else { return nil }
        return offsets[starts.partitioningIndex { $0 > utc } - 1]
    }
}
