import FoundationEssentials

extension Plan {
    /// The file's content: pretty JSON with a final newline, byte-identical for the same plan.
    ///
    /// The same text as `json.prettyText`, written straight into bytes: with thousands of records (every alarm
    /// beyond the budget is listed in `deferred`) building a JSONValue tree first cost more than all of planning.
    public var fileContent: Data {
        var out = PrettyWriter(capacity: 512 + (pending.count + deferred.count) * 640)
        out.open("{")
        out.key("generatedAt", first: true)
        out.instant(generatedAt)
        out.key("timeZone")
        out.string(timeZone)
        out.key("budget")
        out.open("{")
        out.key("pending", first: true)
        out.number(budget.pending)
        out.key("limit")
        out.number(budget.limit)
        out.key("status")
        out.string(budget.level.rawValue)
        out.key("message")
        out.string(budget.message)
        out.close("}", empty: false)
        out.key("pending")
        out.records(pending, reason: nil)
        out.key("deferred")
        out.records(deferred, reason: "budget")
        out.key("nextWakeAt")
        if let nextWakeAt { out.instant(nextWakeAt) } else { out.raw("null") }
        out.close("}", empty: false)
        out.bytes.append(UInt8(ascii: "\n"))
        return out.bytes.data()
    }
}

/// Writes the pretty JSON format of `JSONValue.prettyText` (two-space indent, `"key": value`) field by field.
private struct PrettyWriter {
    var bytes: ByteBuffer
    var depth = 0

    init(capacity: Int) {
        bytes = ByteBuffer(capacity: capacity)
    }

    mutating func raw(_ text: StaticString) {
        bytes.append(text: text)
    }

    /// A line break and enough spaces for any depth a plan reaches, copied in one piece: appending the
    /// spaces one by one was a third of writing a plan of 10,000 records.
    private static let lineBreak: [UInt8] = [UInt8(ascii: "\n")] + Array(repeating: UInt8(ascii: " "), count: 16)

    mutating func newline() {
        let length = 1 + depth * 2
        if length <= Self.lineBreak.count {
            Self.lineBreak.withUnsafeBufferPointer { bytes.append(bytes: UnsafeBufferPointer(rebasing: $0[..<length])) }
        } else {
            bytes.append(UInt8(ascii: "\n"))
            for _ in 0..<depth * 2 { bytes.append(UInt8(ascii: " ")) }
        }
    }

    mutating func open(_ bracket: StaticString) {
        raw(bracket)
        depth += 1
    }

    mutating func close(_ bracket: StaticString, empty: Bool) {
        depth -= 1
        if !empty { newline() }
        raw(bracket)
    }

    /// `"name": ` on a new line, after a comma unless it is the object's first member. `name` is written as it
    /// is: every key of a plan is plain ASCII.
    mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        newline()
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
    }

    mutating func string(_ value: String) {
        JSONValue.appendQuoted(value, to: &bytes)
    }

    mutating func number(_ value: Int) {
        if value >= 0 {
            ASCIIDigits.append(value, width: 1, to: &bytes)
        } else {
            var text = String(value)
            text.withUTF8 { bytes.append(bytes: $0) }
        }
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    mutating func instant(_ date: Date) {
        bytes.append(UInt8(ascii: "\""))
        RFC3339.append(date, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func records(_ records: [Notification], reason: StaticString?) {
        open("[")
        for (index, record) in records.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            newline()
            self.record(record, reason: reason)
        }
        close("]", empty: records.isEmpty)
    }

    /// One record in the field order of `Notification.json`.
    mutating func record(_ record: Notification, reason: StaticString?) {
        open("{")
        key("id", first: true)
        string(record.id)
        key("kind")
        string(record.kind.rawValue)
        key("source")
        string(record.source)
        key("fireAt")
        instant(record.fireAt)
        key("expiresAt")
        instant(record.expiresAt)
        key("title")
        string(record.title)
        key("body")
        string(record.body)
        key("priority")
        string(record.priority.rawValue)
        key("category")
        string(record.category)
        key("actions")
        open("[")
        for (index, action) in record.actions.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            newline()
            string(action)
        }
        close("]", empty: record.actions.isEmpty)
        key("sound")
        bool(record.sound)
        key("badge")
        bool(record.badge)
        key("deepLink")
        // `record.deepLink`, written without building the string first.
        raw("\"nudge://")
        JSONValue.appendEscaped(record.kind.family, to: &bytes)
        bytes.append(UInt8(ascii: "/"))
        JSONValue.appendEscaped(record.source, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        if let reason {
            key("reason")
            bytes.append(UInt8(ascii: "\""))
            raw(reason)
            bytes.append(UInt8(ascii: "\""))
        }
        close("}", empty: false)
    }
}
