import FoundationEssentials

extension Plan {
    /// The file's content: pretty JSON (the layout of `JSONValue.prettyText`) with a final newline, byte-identical
    /// for the same plan; `nudge plan --json` prints the same text. Deferred records are written one to a line
    /// without spaces: thousands of them are rewritten every minute, and this is the least text that lists them.
    public var fileContent: [UInt8] {
        var out = PrettyJSONWriter(capacity: 1_024 + pending.count * 640 + deferred.count * 200)
        out.open("{")
        out.key("generatedAt"); out.instant(generatedAt)
        out.key("timeZone"); out.string(timeZone)
        out.key("budget")
        out.open("{")
        out.key("pending"); out.number(budget.pending)
        out.key("limit"); out.number(budget.limit)
        out.key("status"); out.string(budget.level.rawValue)
        out.key("message"); out.string(budget.message)
        out.close("}")
        out.key("pending")
        out.open("[")
        for record in pending {
            out.element()
            out.open("{")
            Self.write(record, to: &out)
            out.close("}")
        }
        out.close("]")
        out.key("deferred")
        out.open("[")
        for record in deferred {
            out.element(); record.write(to: &out)
        }
        out.close("]")
        out.key("nextWakeAt"); out.instant(nextWakeAt)
        out.close("}")
        return out.finish()
    }

    /// The file's text without its final newline, as `nudge plan --json` prints it.
    public var text: String {
        String(decoding: fileContent.dropLast(), as: UTF8.self)
    }

    /// A pending record's members, in the order of `Notification.json` (SPEC §3).
    private static func write(_ record: Notification, to out: inout PrettyJSONWriter) {
        out.key("id"); out.id(record.identity)
        out.key("kind"); out.string(record.kind.rawValue)
        out.key("source"); out.string(record.source)
        out.key("fireAt"); out.instant(record.fireAt)
        out.key("expiresAt"); out.instant(record.expiresAt)
        out.key("title"); out.string(record.title)
        out.key("body"); out.string(record.body)
        out.key("priority"); out.string(record.priority.rawValue)
        out.key("category"); out.string(record.category)
        out.key("actions")
        out.open("[")
        for action in record.actions {
            out.element(); out.string(action)
        }
        out.close("]")
        out.key("sound"); out.bool(record.sound)
        out.key("badge"); out.bool(record.badge)
        out.key("deepLink"); out.string(record.deepLink)
    }
}
