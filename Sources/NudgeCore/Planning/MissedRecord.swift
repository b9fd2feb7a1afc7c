import FoundationEssentials

/// An occurrence that fell due but was not delivered, kept for `nudge status`.
public struct MissedRecord: Equatable, Sendable {
    enum Reason: String, Sendable {
        /// Past its expiry when a run came (downtime, suspend, cron not running).
        case expired
        /// A later occurrence of the same daily repeat was delivered instead.
        case superseded
    }

    var id: String
    var kind: String
    var title: String
    var fireAt: Date
    var reason: Reason
    /// The run that noticed it.
    var recordedAt: Date

    init(id: String, kind: String, title: String, fireAt: Date, reason: Reason, recordedAt: Date) {
        self.id = id
        self.kind = kind
        self.title = title
        self.fireAt = fireAt
        self.reason = reason
        self.recordedAt = recordedAt
    }
}
