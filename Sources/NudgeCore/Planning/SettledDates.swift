import FoundationEssentials

/// The dated occurrences recorded as seen, missed or suppressed whose ledger entries were pruned, each with the
/// fireAt it was recorded at, kept for good.
///
/// Why: `SettledSpan` settles an occurrence at its instant, and within one zone a dated occurrence
/// (`<kind>:<source>:<YYYY-MM-DD>`) always has the same instant. In another zone the same local date has another
/// instant, up to 26 hours away: the spans alone would take it for an occurrence no run has seen, and after a
/// clock set back between the two instants it would ring although its date was missed (SPEC §2: one per local
/// date; §11.41). Kept here, the date stays settled in any zone, as its ledger entry kept it, until the clock
/// goes back before the instant it was recorded at (§11.43: `forget(after:)`).
public struct SettledDates: Equatable, Sendable {
    /// kind → source → day number (`LocalDate.daysSinceEpoch`) → the fireAt recorded.
    private var threads: [String: [String: [Int: Date]]] = [:]

    public init() {}

    public var isEmpty: Bool { threads.isEmpty }

    /// Whether `id` is dated and its date was pruned as settled.
    func contains(id: String) -> Bool {
        guard let parts = DeliveredDates.parts(of: id) else { return false }
        return threads[parts.kind]?[parts.source]?[parts.date.daysSinceEpoch] != nil
    }

    /// Whether `notification` is dated and its date was pruned as settled.
    func contains(_ notification: Notification) -> Bool {
        guard !threads.isEmpty, let sources = threads[notification.kind.rawValue],
              let days = sources[notification.source] else { return false }
        switch notification.identity.stored {
        case .dated(let date):
            return days[date.daysSinceEpoch] != nil
        case .text(let id):
            return contains(id: id)
        }
    }

    /// After the clock went back to `now`: forgets the dates recorded at an instant after it, which are due at
    /// that time again (SPEC §11.43), as their ledger entries would have been forgotten.
    mutating func forget(after now: Date) {
        guard !threads.isEmpty else { return }
        var kept: [String: [String: [Int: Date]]] = [:]
        for (kind, sources) in threads {
            for (source, days) in sources {
                let remaining = days.filter { $0.value <= now }
                if !remaining.isEmpty { kept[kind, default: [:]][source] = remaining }
            }
        }
        threads = kept
    }

    /// Notes the occurrence `id` as settled at `fireAt`; false (and nothing noted) when `id` is not dated.
    @discardableResult
    mutating func insert(id: String, fireAt: Date) -> Bool {
        guard let parts = DeliveredDates.parts(of: id) else { return false }
        threads[parts.kind, default: [:]][parts.source, default: [:]][parts.date.daysSinceEpoch] = fireAt
        return true
    }

    // MARK: - state.json

    /// Each thread as `"<kind>:<source>"` → its dates with their instants, sorted:
    /// `"2026-03-21@18:45 2026-03-22@2026-03-21T23:30:00Z"` — the time alone when the instant is on that date in
    /// UTC at a whole minute.
    var textMembers: [(key: String, value: String)] {
        threads.flatMap { kind, sources in
            sources.map { source, days in
                (kind + ":" + source, days.sorted { $0.key < $1.key }.map { day, fireAt in
                    let date = LocalDate(daysSinceEpoch: day).description
                    let instant = RFC3339.format(fireAt)
                    let time = instant.dropFirst(11).prefix(5)
                    guard instant == date + "T" + time + ":00Z" else { return date + "@" + instant }
                    return date + "@" + time
                }.joined(separator: " "))
            }
        }.sorted { $0.key < $1.key }
    }

    /// Reads one member written by `textMembers`; false when it is not one.
    mutating func read(thread: String, text: String) -> Bool {
        let pieces = thread.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else { return false }
        var days: [Int: Date] = [:]
        for entry in text.split(separator: " ") {
            let halves = entry.split(separator: "@", omittingEmptySubsequences: false)
            guard halves.count == 2, let date = LocalDate.parse(String(halves[0])) else { return false }
            let instantText = halves[1].count == 5 ? halves[0] + "T" + halves[1] + ":00Z" : halves[1]
            guard let fireAt = RFC3339.parse(String(instantText)) else { return false }
            days[date.daysSinceEpoch] = fireAt
        }
        guard !days.isEmpty else { return false }
        threads[String(pieces[0]), default: [:]][String(pieces[1])] = days
        return true
    }
}
