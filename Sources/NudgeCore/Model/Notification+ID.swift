import FoundationEssentials

extension Notification {
    /// What names a notification's event: its kind, its source and its occurrence id, the id kept as text or, for
    /// a daily occurrence, as its date (the id is then `<kind>:<source>:<date>`, made when it is read).
    ///
    /// Why: a run plans the next occurrence of every alarm, and each one's id would be a heap string, while only
    /// the few delivered or missed need it as a string.
    /// The ledger's filter (`HandledFilter`), the budget's order (`Budget.idHead`) and the plan writer read its
    /// parts instead. Kept together in one stored value, read off a record in a list without copying the record.
    struct Identity: Equatable, Sendable {
        let kind: NotificationKind
        let source: String
        let stored: StoredID

        enum StoredID: Equatable, Sendable {
            case text(String)
            case dated(LocalDate)
        }

        var id: String {
            switch stored {
            case .text(let text): return text
            case .dated(let date): return Notification.occurrenceID(kind, source, date.description)
            }
        }

        /// The same id (kinds and sources are part of it).
        static func == (lhs: Identity, rhs: Identity) -> Bool {
            lhs.kind == rhs.kind && lhs.source == rhs.source && (lhs.stored == rhs.stored || lhs.id == rhs.id)
        }
    }

    /// The record of a daily occurrence on `date`, its id `<kind>:<source>:<date>` (`alarm.prayer:fajr:2026-11-21`).
    init(occurrenceOn date: LocalDate, kind: NotificationKind, source: String, fireAt: Date, expiresAt: Date,
         title: String, body: String, priority: Priority, category: String, actions: [String], sound: Bool,
         badge: Bool, recurrence: Recurrence) {
        self.init(identity: Identity(kind: kind, source: source, stored: .dated(date)), fireAt: fireAt,
                  expiresAt: expiresAt, title: title, body: body, priority: priority, category: category,
                  actions: actions, sound: sound, badge: badge, recurrence: recurrence)
    }
}
