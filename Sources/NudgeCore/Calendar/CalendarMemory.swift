import FoundationEssentials

/// What nudge wrote into the calendar (docs/calendar.md, "What nudge remembers"), kept in state.json so that a
/// run with nothing to change makes no request: each event's UID, its ETag and a hash of what it says.
public struct CalendarMemory: Equatable, Sendable {
    /// One event nudge wrote.
    struct KeptEvent: Equatable, Sendable {
        let uid: String
        /// The ETag the server gave for the last write; nil when it gave none.
        var etag: String?
        /// `CalendarEvents.hash(of:)` of what was written: a different hash is a change to write.
        var hash: String
        var start: Date
    }

    /// The collection the events were written to: a different `url` in the settings starts afresh.
    private(set) var url: String?
    /// By UID.
    private(set) var kept: [String: KeptEvent] = [:]
    /// When the collection last matched the plan.
    private(set) var lastMatchAt: Date?
    /// The failure last reported, until a match succeeds: the same failure is reported once (docs/calendar.md).
    private(set) var failure: String?

    init() {}

    /// Exactly these: read from state.json, or a test's.
    init(url: String?, kept: [KeptEvent], lastMatchAt: Date?, failure: String?) {
        self.url = url
        self.kept = Dictionary(kept.map { ($0.uid, $0) }, uniquingKeysWith: { $1 })
        self.lastMatchAt = lastMatchAt
        self.failure = failure
    }

    /// Nothing to remember: state.json then has no `calendar` member.
    var isEmpty: Bool { url == nil && kept.isEmpty && lastMatchAt == nil && failure == nil }

    /// How many events the calendar holds from nudge, as far as nudge knows.
    public var keptCount: Int { kept.count }

    /// The memory of writing into `url`: this one, or a fresh one when it was of another collection (the events
    /// of the old one stay there: nudge no longer has its address).
    func of(_ url: String) -> CalendarMemory {
        guard self.url != url else { return self }
        var fresh = CalendarMemory()
        fresh.url = url
        return fresh
    }

    mutating func keep(_ event: KeptEvent) { kept[event.uid] = event }

    mutating func forget(_ uid: String) { kept[uid] = nil }

    /// The match ended: at `now` without a failure, or with `failure`, which stays until a match succeeds.
    mutating func finish(at now: Date, failure: String?) {
        if failure == nil { lastMatchAt = now }
        self.failure = failure
    }
}
