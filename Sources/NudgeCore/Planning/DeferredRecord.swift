import FoundationEssentials

/// A record the budget left out of the plan, as `plan.json` lists it (docs/design.md, "What a run plans"): short, only
/// what says what waits and when, no body, actions or links. Each run ranks every record afresh, so a deferred one
/// enters `pending`, whole, as soon as there is room; nothing is ever built from this short form.
public struct DeferredRecord: Equatable, Sendable {
    /// What every deferred record gives as its `reason`.
    static let reason = "budget"

    var id: String { identity.id }
    var kind: NotificationKind { identity.kind }
    var source: String { identity.source }
    /// The id with its kind and source: an alarm's id is kept as its date and written from its parts.
    let identity: Notification.Identity
    public var fireAt: Date
    var priority: Priority
    var title: String

    init(id: String, kind: NotificationKind, source: String, fireAt: Date, priority: Priority,
         title: String) {
        identity = Notification.Identity(kind: kind, source: source, stored: .text(id))
        self.fireAt = fireAt
        self.priority = priority
        self.title = title
    }

    /// The short form of a planned record.
    init(_ record: Notification) {
        identity = record.identity
        fireAt = record.fireAt
        priority = record.priority
        title = record.title
    }

    /// Reads a deferred record of `plan.json` (a full record, as older versions wrote, reads as well); nil when it
    /// is not one.
    init?(record: JSONValue) {
        guard let id = record["id"]?.stringValue,
              let kind = record["kind"]?.stringValue.flatMap(NotificationKind.init(rawValue:)),
              let source = record["source"]?.stringValue,
              let fireAt = record["fireAt"]?.stringValue.flatMap(RFC3339.parse),
              let priority = record["priority"]?.stringValue.flatMap(Priority.init(rawValue:)),
              let title = record["title"]?.stringValue else { return nil }
        self.init(id: id, kind: kind, source: source, fireAt: fireAt, priority: priority, title: title)
    }

    /// The record as `plan.json` lists it, on one line without spaces, members in the order docs/design.md lists them.
    func write(to out: inout PrettyJSONWriter) {
        out.raw("{\"id\":"); out.id(identity)
        out.raw(",\"kind\":"); out.plain(kind.rawValue)
        out.raw(",\"source\":"); out.string(source)
        out.raw(",\"fireAt\":"); out.instant(fireAt)
        out.raw(",\"priority\":"); out.plain(priority.rawValue)
        out.raw(",\"title\":"); out.string(title)
        out.raw(",\"reason\":\"budget\"}")
    }
}
