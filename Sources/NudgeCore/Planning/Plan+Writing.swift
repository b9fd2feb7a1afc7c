import FoundationEssentials

extension Plan {
    /// The file's content: pretty JSON (the layout of `JSONValue.prettyText`) with a final newline, byte-identical
    /// for the same plan; `nudge plan --json` prints the same text. Deferred records are written one to a line
    /// without spaces: thousands of them are rewritten every minute, and this is the least text that lists them.
    public var fileContent: [UInt8] {
        var out = PrettyJSONWriter(capacity: 1_024 + pending.count * 640 + deferred.count * 200)
        out.open("{")
        out.member("generatedAt"); out.instant(generatedAt)
        out.member("timeZone"); out.string(timeZone)
        out.member("budget")
        out.open("{")
        out.member("pending"); out.number(budget.pending)
        out.member("limit"); out.number(budget.limit)
        out.member("status"); out.string(budget.level.rawValue)
        out.member("message"); out.string(budget.message)
        out.close("}")
        out.member("pending")
        out.open("[")
        for record in pending {
            out.element()
            out.open("{")
            Self.write(record, to: &out)
            out.close("}")
        }
        out.close("]")
        out.member("deferred")
        out.open("[")
        for record in deferred {
            out.element(); record.write(to: &out)
        }
        out.close("]")
        out.member("nextWakeAt"); out.instant(nextWakeAt)
        out.close("}")
        return out.finish()
    }

    /// The file's text without its final newline, as `nudge plan --json` prints it.
    public var text: String {
        String(decoding: fileContent.dropLast(), as: UTF8.self)
    }

    /// A pending record's members, in the order of `Notification.json`.
    private static func write(_ record: Notification, to out: inout PrettyJSONWriter) {
        out.member("id"); out.id(record.identity)
        out.member("kind"); out.plain(record.kind.rawValue)
        out.member("source"); out.string(record.source)
        out.member("fireAt"); out.instant(record.fireAt)
        out.member("expiresAt"); out.instant(record.expiresAt)
        out.member("title"); out.string(record.title)
        out.member("body"); out.string(record.body)
        out.member("priority"); out.plain(record.priority.rawValue)
        out.member("category"); out.string(record.category)
        out.member("actions")
        out.open("[")
        for action in record.actions {
            out.element(); out.string(action)
        }
        out.close("]")
        out.member("sound"); out.bool(record.sound)
        out.member("badge"); out.bool(record.badge)
        out.member("deepLink")
        // `Notification.deepLink`, written from its parts.
        out.raw("\"nudge://"); out.escaped(record.kind.family)
        out.raw("/"); out.escaped(record.source)
        out.raw("\"")
    }
}
