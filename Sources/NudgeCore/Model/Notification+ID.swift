import FoundationEssentials

extension Notification {
    /// What names a notification's event: its kind, its source and its occurrence id, the id kept as text or, for
    /// a daily occurrence, as its date (the id is then `<kind>:<source>:<YYYY-MM-DD>`, made when it is read).
    ///
    /// Why: a run plans the next occurrence of every alarm, and each one's id would be a heap string, while only
    /// the few delivered or missed need it as text. How a dated id reads is known here, where the budget's order
    /// (`sortPrefix`) and the ledger's filter (`filterKey`) get what they need without making the text, and in the
    /// plan writer, which writes it from its parts (`PrettyJSONWriter.id`); each is tested against the text.
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

        /// What the budget sorts ids of one kind by before their text: the first 8 bytes of `<source>:` in a dated
        /// id, zero-padded, as a number that orders as they do; 0 (not known) for an id kept as text, or a source
        /// that is not ASCII (strings order such text otherwise). Of two ids of one kind, different prefixes order as
        /// the ids do: the first byte where they differ is in both prefixes, at the latest the colon that ends the
        /// shorter source.
        var sortPrefix: UInt64 {
            guard case .dated = stored else { return 0 }
            var prefix: UInt64 = 0
            var count = 0
            for byte in source.utf8 {
                guard byte < 0x80 else { return 0 }
                if count < 8 { prefix |= UInt64(byte) << (56 - 8 * count) }
                count += 1
            }
            if count < 8 { prefix |= UInt64(UInt8(ascii: ":")) << (56 - 8 * count) }
            return prefix
        }

        /// What the ledger's filter files this id by: `filterKey(of: id)`, made from the parts when the id is dated.
        func filterKey(source key: SourceKey) -> UInt64 {
            if case .dated(let date) = stored, (0...9999).contains(date.year), !key.hasColon {
                return Self.filterKey(sourceHash: key.hash, date: date)
            }
            return Self.filterKey(of: id)
        }

        /// What the ledger's filter files an id's text by. `<kind>:<source>:<YYYY-MM-DD>` (split at its first two
        /// colons): its source's hash and its date, as for a dated id kept as parts; any other id: its text's hash.
        static func filterKey(of id: String) -> UInt64 {
            var id = id
            return id.withUTF8 { bytes in
                guard let first = bytes.firstIndex(of: UInt8(ascii: ":")),
                      let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ":")),
                      let date = LocalDate.parse(bytes: UnsafeBufferPointer(rebasing: bytes[(second + 1)...])) else {
                    return JSONKeyTable.hash(bytes)
                }
                return filterKey(sourceHash: JSONKeyTable.hash(UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])),
                                 date: date)
            }
        }

        private static func filterKey(sourceHash: UInt64, date: LocalDate) -> UInt64 {
            let number = date.year * 10_000 + date.month * 100 + date.day
            return sourceHash ^ (UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15)
        }

        /// A source's hash (`UpcomingIndex.hash`), and whether it has a colon, which would split its id's text
        /// elsewhere than its parts. The planner makes one per candidate, for the filter and `UpcomingIndex`.
        struct SourceKey {
            let hash: UInt64
            let hasColon: Bool

            init(_ source: String) {
                var source = source
                (hash, hasColon) = source.withUTF8 { bytes in
                    (JSONKeyTable.hash(bytes), bytes.contains(UInt8(ascii: ":")))
                }
            }
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
