/// The parts of an occurrence id `<kind>:<source>:<event>[:snooze-N]` (docs/design.md, "Occurrence ids"): kinds and
/// sources never hold a colon, the event may (a cycle named by its `startedAt` instant).
public struct OccurrenceID: Equatable, Sendable {
    var kind: String
    public var source: String
    /// The event without any `:snooze-N` suffix: the local date of an alarm or reminder, a cycle's id.
    public var event: String

    public init?(_ id: String) {
        let parts = id.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        kind = String(parts[0])
        source = String(parts[1])
        var event = Substring(parts[2])
        if let suffix = event.firstByteRange(of: ":snooze-") { event = event[..<suffix.lowerBound] }
        self.event = String(event)
    }
}
