/// The local dates on which each dated thread was delivered, kept for good: the part of the ledger that never
/// forgets.
///
/// Why: the clock may be set back any distance, any number of times (docs/promises.md), and a daily occurrence
/// (`<kind>:<source>:<YYYY-MM-DD>`: an alarm, a daily message, a streak reminder, a leave-time, a prayer timer)
/// can be produced again by any run whose clock comes back to its date. Its delivery must then still be known,
/// however long ago the ledger forgot the entry. A thread's dates are kept as ranges of consecutive days, so an
/// alarm that rang every day for a year costs one range.
struct DeliveredDates: Equatable, Sendable {
    /// The days each dated occurrence was delivered: kind → source → sorted, disjoint ranges of day numbers
    /// (`LocalDate.daysSinceEpoch`), none adjacent.
    private var deliveredDays: [String: [String: [ClosedRange<Int>]]] = [:]

    init() {}

    var isEmpty: Bool { deliveredDays.isEmpty }

    /// Whether the occurrence of `kind` from `source` on `date` was delivered.
    func contains(kind: String, source: String, date: LocalDate) -> Bool {
        guard let ranges = deliveredDays[kind]?[source] else { return false }
        return Self.find(date.daysSinceEpoch, in: ranges)
    }

    private static func find(_ day: Int, in ranges: [ClosedRange<Int>]) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < day { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(day)
    }

    /// Whether `id`, if it is dated, names a delivered occurrence.
    func contains(id: String) -> Bool {
        guard let parts = Self.parts(of: id) else { return false }
        return contains(kind: parts.kind, source: parts.source, date: parts.date)
    }

    /// Whether `notification` is dated and was delivered on its date. Read for every occurrence a run
    /// considers: a daily one's date is kept beside its id (`Notification.Identity`), and only kinds with
    /// delivered dates are looked at.
    func contains(_ notification: Notification) -> Bool {
        guard !deliveredDays.isEmpty, let sources = deliveredDays[notification.kind.rawValue] else { return false }
        switch notification.identity.stored {
        case .dated(let date):
            guard let ranges = sources[notification.source] else { return false }
            return Self.find(date.daysSinceEpoch, in: ranges)
        case .text(let id):
            return contains(id: id)
        }
    }

    /// Notes the delivery of `id`; false (and nothing noted) when `id` is not dated.
    @discardableResult
    mutating func insert(id: String) -> Bool {
        guard let parts = Self.parts(of: id) else { return false }
        insert(kind: parts.kind, source: parts.source, day: parts.date.daysSinceEpoch)
        return true
    }

    private mutating func insert(kind: String, source: String, day: Int) {
        var ranges = deliveredDays[kind]?[source] ?? []
        var merged = day...day
        ranges.removeAll { range in
            guard range.upperBound + 1 >= merged.lowerBound && range.lowerBound - 1 <= merged.upperBound else {
                return false
            }
            merged = min(range.lowerBound, merged.lowerBound)...max(range.upperBound, merged.upperBound)
            return true
        }
        let position = ranges.firstIndex { $0.lowerBound > merged.upperBound } ?? ranges.count
        ranges.insert(merged, at: position)
        deliveredDays[kind, default: [:]][source] = ranges
    }

    /// Whether `id` is `<kind>:<source>:<YYYY-MM-DD>` (`parts(of:)` is not nil), without making its parts: asked
    /// of every ledger entry `prune` looks at.
    static func isDated(_ id: String) -> Bool {
        var colons = 0
        for byte in id.utf8 where byte == UInt8(ascii: ":") { colons += 1 }
        guard colons == 2, let last = id.lastIndex(of: ":") else { return false }
        return LocalDate.parse(String(id[id.index(after: last)...])) != nil
    }

    /// `<kind>:<source>:<YYYY-MM-DD>` split into its parts; nil for any other id (a laundry stage, a snooze).
    static func parts(of id: String) -> (kind: String, source: String, date: LocalDate)? {
        let pieces = id.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 3, let date = LocalDate.parse(String(pieces[2])) else { return nil }
        return (String(pieces[0]), String(pieces[1]), date)
    }

    // MARK: - state.json

    /// Each thread as `"<kind>:<source>"` → its dates, sorted by thread: `"2026-11-21/2027-03-02 2027-03-04"`.
    var textMembers: [(key: String, value: String)] {
        deliveredDays.flatMap { kind, sources in
            sources.map { source, ranges in
                (kind + ":" + source, ranges.map { range in
                    let first = LocalDate(daysSinceEpoch: range.lowerBound).description
                    guard range.count > 1 else { return first }
                    return first + "/" + LocalDate(daysSinceEpoch: range.upperBound).description
                }.joined(separator: " "))
            }
        }.sorted { $0.key < $1.key }
    }

    /// Reads one member written by `textMembers`; false when it is not one (ranges out of order included).
    mutating func read(thread: String, dates: String) -> Bool {
        let pieces = thread.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else { return false }
        var ranges: [ClosedRange<Int>] = []
        for text in dates.split(separator: " ") {
            let ends = text.split(separator: "/", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count), let first = LocalDate.parse(String(ends[0])),
                  let last = LocalDate.parse(String(ends[ends.count - 1])), !(last < first),
                  ranges.last.map({ $0.upperBound + 1 < first.daysSinceEpoch }) ?? true else { return false }
            ranges.append(first.daysSinceEpoch...last.daysSinceEpoch)
        }
        guard !ranges.isEmpty else { return false }
        deliveredDays[String(pieces[0]), default: [:]][String(pieces[1])] = ranges
        return true
    }
}
