import FoundationEssentials

/// The dated occurrences recorded as seen, missed, suppressed or departed whose ledger entries were pruned, each
/// with its instant (its fireAt, or when it was recorded if that was earlier) and whether it was missed, kept
/// for good.
///
/// Why: a dated occurrence (`<kind>:<source>:<YYYY-MM-DD>`) can be produced again by any run whose clock comes
/// back to its date, however long ago its ledger entry was pruned (docs/promises.md), and in another zone at another
/// instant, up to 26 hours away; a date missed at home must not ring after travel (one per local date:
/// docs/travelling.md). Kept here, the date stays settled in any zone, as its ledger entry kept it, until the clock
/// goes back before both the instant kept for it and the date's instant in the zone of that run (docs/promises.md,
/// `forget(after:fireAt:)`); a missed one then leaves the missed count, as its ledger entry would.
struct SettledDates: Equatable, Sendable {
    /// One date's record.
    struct Settled: Equatable, Sendable {
        var fireAt: Date
        var missed: Bool
    }

    /// The days each dated occurrence was settled: kind → source → day number (`LocalDate.daysSinceEpoch`) →
    /// what was recorded.
    private var settledDays: [String: [String: [Int: Settled]]] = [:]

    init() {}

    var isEmpty: Bool { settledDays.isEmpty }

    /// Whether `id` is dated and its date was pruned as settled.
    func contains(id: String) -> Bool {
        guard let parts = DeliveredDates.parts(of: id) else { return false }
        return settledDays[parts.kind]?[parts.source]?[parts.date.daysSinceEpoch] != nil
    }

    /// Whether `notification` is dated and its date was pruned as settled.
    func contains(_ notification: Notification) -> Bool {
        guard !settledDays.isEmpty, let sources = settledDays[notification.kind.rawValue],
              let days = sources[notification.source] else { return false }
        switch notification.identity.stored {
        case .dated(let date):
            return days[date.daysSinceEpoch] != nil
        case .text(let id):
            return contains(id: id)
        }
    }

    /// After the clock went back to `now`: forgets the dates whose kept instant and whose instant in the run's
    /// zone (`fireAt`; nil when nothing produces the date now, and then the kept one) are both after `now`: they
    /// are due at that time again (docs/promises.md), as their ledger entries would have been forgotten. Returns the
    /// ids of the forgotten dates that were missed.
    @discardableResult
    mutating func forget(after now: Date, fireAt: (String) -> Date? = { _ in nil }) -> Set<String> {
        guard !settledDays.isEmpty else { return [] }
        var kept: [String: [String: [Int: Settled]]] = [:]
        var forgottenMissed = Set<String>()
        for (kind, sources) in settledDays {
            for (source, days) in sources {
                var remaining: [Int: Settled] = [:]
                for (day, settled) in days {
                    let id = { kind + ":" + source + ":" + LocalDate(daysSinceEpoch: day).description }
                    if Self.reopens(recorded: settled.fireAt, planned: fireAt(id()), now: now) {
                        if settled.missed { forgottenMissed.insert(id()) }
                    } else {
                        remaining[day] = settled
                    }
                }
                if !remaining.isEmpty { kept[kind, default: [:]][source] = remaining }
            }
        }
        settledDays = kept
        return forgottenMissed
    }

    /// Whether a clock set back to `now` reopens an outcome recorded for an occurrence at `recorded` (its fireAt,
    /// or when the outcome was recorded if that was earlier) that this run plans at `planned` (nil when nothing
    /// produces it now): only when it lies ahead of the corrected clock both ways. The ledger and
    /// the settled dates judge by this one rule, so pruning changes no outcome.
    static func reopens(recorded: Date, planned: @autoclosure () -> Date?, now: Date) -> Bool {
        recorded > now && (planned() ?? recorded) > now
    }

    /// Notes the occurrence `id` as settled at `fireAt`, missed or not; false (and nothing noted) when `id` is not
    /// dated.
    @discardableResult
    mutating func insert(id: String, fireAt: Date, missed: Bool = false) -> Bool {
        guard let parts = DeliveredDates.parts(of: id) else { return false }
        settledDays[parts.kind, default: [:]][parts.source, default: [:]][parts.date.daysSinceEpoch] =
            Settled(fireAt: fireAt, missed: missed)
        return true
    }

    // MARK: - state.json

    /// Each thread as `"<kind>:<source>"` → its dates with their instants, sorted:
    /// `"2026-03-21!18:45 2026-03-22@2026-03-21T23:30:00Z"` — `!` before the instant of a missed date, `@` before
    /// one seen or suppressed; the time alone when the instant is on that date in UTC at a whole minute.
    var textMembers: [(key: String, value: String)] {
        settledDays.flatMap { kind, sources in
            sources.map { source, days in
                (kind + ":" + source, days.sorted { $0.key < $1.key }.map { day, settled in
                    let date = LocalDate(daysSinceEpoch: day).description
                    let mark = settled.missed ? "!" : "@"
                    let instant = RFC3339.format(settled.fireAt)
                    let time = instant.dropFirst(11).prefix(5)
                    guard instant == date + "T" + time + ":00Z" else { return date + mark + instant }
                    return date + mark + time
                }.joined(separator: " "))
            }
        }.sorted { $0.key < $1.key }
    }

    /// Reads one member written by `textMembers`; false when it is not one.
    mutating func read(thread: String, text: String) -> Bool {
        let pieces = thread.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else { return false }
        var days: [Int: Settled] = [:]
        for entry in text.split(separator: " ") {
            let halves = entry.split(maxSplits: 1, omittingEmptySubsequences: false) { $0 == "@" || $0 == "!" }
            guard halves.count == 2, let date = LocalDate.parse(String(halves[0])) else { return false }
            let instantText = halves[1].count == 5 ? halves[0] + "T" + halves[1] + ":00Z" : halves[1]
            guard let fireAt = RFC3339.parse(String(instantText)) else { return false }
            days[date.daysSinceEpoch] = Settled(fireAt: fireAt, missed: entry[halves[0].endIndex] == "!")
        }
        guard !days.isEmpty else { return false }
        settledDays[String(pieces[0]), default: [:]][String(pieces[1])] = days
        return true
    }
}
