import FoundationEssentials

/// One planned or delivered notification.
public struct Notification: Equatable, Sendable {
    /// Whether an occurrence belongs to a wall-clock repeat or is a one-off event; they fall due differently
    /// (a daily repeat must fall due after the previous run, a one-off only needs to be undelivered:
    /// docs/design.md, "When a notification is due").
    enum Recurrence: Equatable, Sendable {
        /// One occurrence of a wall-clock repeat: the local date and time of day it rings at, its own or where
        /// quiet hours moved it (the id keeps the date it belongs to).
        case daily(date: LocalDate, time: WallTime)
        case once
    }

    /// The occurrence id: names the real-world event, never the computed time.
    public var id: String {
        get { identity.id }
        set { identity = Identity(kind: kind, source: source, stored: .text(newValue)) }
    }
    public var kind: NotificationKind { identity.kind }
    var source: String { identity.source }
    /// The kind, the source and the id, which may be kept as its parts (`Notification+ID.swift`).
    private(set) var identity: Identity
    public var fireAt: Date
    public var expiresAt: Date
    public var title: String
    var body: String
    var priority: Priority
    var category: String
    public var actions: [String]
    var sound: Bool
    var badge: Bool
    var recurrence: Recurrence

    init(id: String, kind: NotificationKind, source: String, fireAt: Date, expiresAt: Date, title: String,
         body: String, priority: Priority, category: String, actions: [String], sound: Bool, badge: Bool,
         recurrence: Recurrence) {
        self.init(identity: Identity(kind: kind, source: source, stored: .text(id)), fireAt: fireAt,
                  expiresAt: expiresAt, title: title, body: body, priority: priority, category: category,
                  actions: actions, sound: sound, badge: badge, recurrence: recurrence)
    }

    init(identity: Identity, fireAt: Date, expiresAt: Date, title: String, body: String, priority: Priority,
         category: String, actions: [String], sound: Bool, badge: Bool, recurrence: Recurrence) {
        self.identity = identity
        self.fireAt = fireAt
        self.expiresAt = expiresAt
        self.title = title
        self.body = body
        self.priority = priority
        self.category = category
        self.actions = actions
        self.sound = sound
        self.badge = badge
        self.recurrence = recurrence
    }

    /// Equal fields, the ids compared as text (one may be kept as text and the other as its parts).
    public static func == (lhs: Notification, rhs: Notification) -> Bool {
        lhs.identity == rhs.identity && lhs.fireAt == rhs.fireAt && lhs.expiresAt == rhs.expiresAt
            && lhs.title == rhs.title && lhs.body == rhs.body && lhs.priority == rhs.priority && lhs.category == rhs.category
            && lhs.actions == rhs.actions && lhs.sound == rhs.sound && lhs.badge == rhs.badge
            && lhs.recurrence == rhs.recurrence
    }

    /// `nudge://<kind-family>/<source>`.
    var deepLink: String { "nudge://\(kind.family)/\(source)" }

    /// The thread a notification belongs to: at most one pending record per thread (just-in-time).
    var thread: Thread { Thread(family: kind.family, source: source) }

    /// A source within its kind family (`laundry/snowy`), without building a string for it.
    struct Thread: Hashable, Sendable {
        var family: String
        var source: String

        /// The source only: sources of different families rarely share a name, and the planner hashes a
        /// thread for every upcoming record (equality still compares both).
        func hash(into hasher: inout Hasher) {
            hasher.combine(source)
        }
    }

    /// Occurrence id of the form `<kind>:<source>:<event>`, e.g. `alarm.prayer:fajr:2026-11-21`.
    static func occurrenceID(_ kind: NotificationKind, _ source: String, _ event: String) -> String {
        String(concatenating: kind.rawValue, ":", source, ":", event)
    }
}
