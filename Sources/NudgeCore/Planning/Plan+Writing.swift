import Foundation

extension Plan {
    /// The file's content: pretty JSON with a final newline, byte-identical for the same plan.
    ///
    /// The same text as `json.prettyText`, written straight into bytes: with thousands of records (every alarm
    /// beyond the budget is listed in `deferred`) building a JSONValue tree first cost more than all of planning.
    public var fileContent: Data {
        let out = ByteBuffer(capacity: 512 + (pending.count + deferred.count) * 560)
        var sink = out
        out.append(text: "{\n  \"generatedAt\": \"")
        RFC3339.append(generatedAt, to: &sink)
        out.append(text: "\"")
        out.append(text: ",\n  \"timeZone\": ")
        JSONValue.appendQuoted(timeZone, to: &sink)
        out.append(text: ",\n  \"budget\": {\n    \"pending\": ")
        Self.appendNumber(budget.pending, to: &sink)
        out.append(text: ",\n    \"limit\": ")
        Self.appendNumber(budget.limit, to: &sink)
        out.append(text: ",\n    \"status\": ")
        JSONValue.appendQuoted(budget.level.rawValue, to: &sink)
        out.append(text: ",\n    \"message\": ")
        JSONValue.appendQuoted(budget.message, to: &sink)
        out.append(text: "\n  },\n  \"pending\": ")
        var records = RecordWriter(out: out)
        records.write(pending, reason: nil)
        out.append(text: ",\n  \"deferred\": ")
        records.write(deferred, reason: "budget")
        out.append(text: ",\n  \"nextWakeAt\": ")
        if let nextWakeAt {
            out.append(text: "\"")
            RFC3339.append(nextWakeAt, to: &sink)
            out.append(text: "\"")
        } else {
            out.append(text: "null")
        }
        out.append(text: "\n}\n")
        return out.data()
    }

    /// The decimal text of any `Int`, as JSON writes a number.
    private static func appendNumber(_ value: Int, to bytes: inout some ByteSink) {
        if value >= 0 {
            ASCIIDigits.append(value, width: 1, to: &bytes)
        } else {
            var text = String(value)
            text.withUTF8 { bytes.append(bytes: $0) }
        }
    }
}

/// Writes arrays of records in the pretty format of `JSONValue.prettyText` (two-space indent, `"key": value`),
/// at the depth a plan's records have: array elements indented by four spaces, their members by six.
///
/// A record is mostly fixed text: each key with its line break and indent is one literal, copied in one piece.
/// The members from `priority` to the start of `deepLink` depend only on the kind and its settings, the same for
/// thousands of alarms in a row, so their text is kept from the previous record and copied when it fits.
private struct RecordWriter {
    let out: ByteBuffer
    /// The text from `priority` to `nudge://<family>/`, and what it was written from.
    private var settled: (key: SettledMembers, text: [UInt8])?
    /// The previous instant's day ("YYYY-MM-DDT"), for instants written as whole seconds.
    private var day: (number: Int, text: [UInt8])?

    init(out: ByteBuffer) {
        self.out = out
    }

    /// The members of a record that repeat from one occurrence of a source to the next.
    private struct SettledMembers: Equatable {
        var kind: NotificationKind
        var priority: Priority
        var category: String
        var actions: [String]
        var sound: Bool
        var badge: Bool

        init(_ record: Notification) {
            kind = record.kind
            priority = record.priority
            category = record.category
            actions = record.actions
            sound = record.sound
            badge = record.badge
        }
    }

    mutating func write(_ records: [Notification], reason: StaticString?) {
        guard !records.isEmpty else {
            out.append(text: "[]")
            return
        }
        out.append(text: "[\n    {\n      \"id\": ")
        for index in records.indices {
            if index > 0 { out.append(text: ",\n    {\n      \"id\": ") }
            write(records[index], reason: reason)
        }
        out.append(text: "\n  ]")
    }

    /// One record, from the value of `id` to its closing brace, in the field order of `Notification.json`.
    private mutating func write(_ record: Notification, reason: StaticString?) {
        var sink = out
        JSONValue.appendQuoted(record.id, to: &sink)
        out.append(text: ",\n      \"kind\": ")
        JSONValue.appendQuoted(record.kind.rawValue, to: &sink)
        out.append(text: ",\n      \"source\": ")
        JSONValue.appendQuoted(record.source, to: &sink)
        out.append(text: ",\n      \"fireAt\": \"")
        instant(record.fireAt)
        out.append(text: "\",\n      \"expiresAt\": \"")
        instant(record.expiresAt)
        out.append(text: "\",\n      \"title\": ")
        JSONValue.appendQuoted(record.title, to: &sink)
        out.append(text: ",\n      \"body\": ")
        JSONValue.appendQuoted(record.body, to: &sink)
        let key = SettledMembers(record)
        if settled?.key != key {
            settled = (key, Self.settledText(key))
        }
        settled?.text.withUnsafeBufferPointer { out.append(bytes: $0) }
        // `record.deepLink` goes on from there: the source, without building the link first.
        JSONValue.appendEscaped(record.source, to: &sink)
        out.append(UInt8(ascii: "\""))
        if let reason {
            out.append(text: ",\n      \"reason\": \"")
            out.append(text: reason)
            out.append(UInt8(ascii: "\""))
        }
        out.append(text: "\n    }")
    }

    /// `,` and the members `priority` through `badge`, then `deepLink` up to its source.
    private static func settledText(_ key: SettledMembers) -> [UInt8] {
        var text: [UInt8] = []
        text.append(text: ",\n      \"priority\": ")
        JSONValue.appendQuoted(key.priority.rawValue, to: &text)
        text.append(text: ",\n      \"category\": ")
        JSONValue.appendQuoted(key.category, to: &text)
        text.append(text: ",\n      \"actions\": [")
        for (index, action) in key.actions.enumerated() {
            text.append(text: index == 0 ? "\n        " : ",\n        ")
            JSONValue.appendQuoted(action, to: &text)
        }
        text.append(text: key.actions.isEmpty ? "]" : "\n      ]")
        text.append(text: ",\n      \"sound\": ")
        text.append(text: key.sound ? "true" : "false")
        text.append(text: ",\n      \"badge\": ")
        text.append(text: key.badge ? "true" : "false")
        text.append(text: ",\n      \"deepLink\": \"nudge://")
        JSONValue.appendEscaped(key.kind.family, to: &text)
        text.append(UInt8(ascii: "/"))
        return text
    }

    /// `RFC3339.append`, with the date part of whole-second instants kept from the previous instant: the records
    /// of a plan fall on a handful of days.
    private mutating func instant(_ date: Date) {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        // Whole seconds from 1970 to the end of 9999; fractions and other years are rare enough to go the slow way.
        guard whole == seconds, whole >= 0, whole < 253_402_300_800,
              date.timeIntervalSinceReferenceDate.rounded(.down) == date.timeIntervalSinceReferenceDate else {
            var sink = out
            RFC3339.append(date, to: &sink)
            return
        }
        let total = Int(whole)
        let dayNumber = total / 86_400
        if day?.number != dayNumber {
            var text: [UInt8] = []
            RFC3339.append(Date(timeIntervalSince1970: Double(dayNumber * 86_400)), to: &text)
            // "YYYY-MM-DDT00:00:00Z": anything else (a year beyond 9999) is written the slow way.
            guard text.count == 20 else {
                var sink = out
                RFC3339.append(date, to: &sink)
                return
            }
            day = (dayNumber, Array(text[..<11]))
        }
        day?.text.withUnsafeBufferPointer { out.append(bytes: $0) }
        let secondOfDay = total - dayNumber * 86_400
        twoDigits(secondOfDay / 3_600)
        out.append(UInt8(ascii: ":"))
        twoDigits(secondOfDay / 60 % 60)
        out.append(UInt8(ascii: ":"))
        twoDigits(secondOfDay % 60)
        out.append(UInt8(ascii: "Z"))
    }

    private func twoDigits(_ value: Int) {
        out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }
}
