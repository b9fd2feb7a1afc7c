import FoundationEssentials

extension Plan {
    /// The file's content: pretty JSON with a final newline, byte-identical for the same plan.
    ///
    /// The same text as `json.prettyText`, written straight into bytes: with thousands of records (every alarm
    /// beyond the budget is listed in `deferred`) building a JSONValue tree first cost more than all of planning.
    public var fileContent: [UInt8] {
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
        return out.bytes
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
/// The members that depend only on the kind and its settings (`kind`, and `priority` to the start of `deepLink`)
/// are the same for thousands of alarms in a row, so their text is kept from the previous record and copied
/// when it fits.
private struct RecordWriter {
    let out: ByteBuffer
    private var settled: SettledText?
    /// The previous instant's day, for instants written as whole seconds: its number since 1970 and its text
    /// "YYYY-MM-DDT", kept in two words ("YYYY-MM-" and "DDT") to be stored, not copied.
    private var dayNumber = -1
    private var dayText: (UInt64, UInt32) = (0, 0)
    /// The previous record's fireAt and expiresAt with their text: records in time order share them in runs
    /// (10,000 alarms ring at about seven to the minute).
    private var lastFireAt = InstantText()
    private var lastExpiresAt = InstantText()
    /// The previous dated id's date and the 12 bytes that end it (`appendIDEnd`).
    private var idDate: LocalDate?
    private var idEnd: (UInt64, UInt32) = (0, 0)

    init(out: ByteBuffer) {
        self.out = out
    }

    mutating func write(_ records: [Notification], reason: StaticString?) {
        guard !records.isEmpty else {
            out.append(text: "[]")
            return
        }
        out.append(text: "[\n    {\n      \"id\": ")
        for index in records.indices {
            if index > 0 { out.append(text: ",\n    {\n      \"id\": ") }
            write(records, at: index, reason: reason)
        }
        out.append(text: "\n  ]")
    }

    /// Record `index`, from the value of `id` to its closing brace, in the field order of `Notification.json`.
    ///
    /// Its members are read from the list one by one: a record passed whole was copied first (its strings and
    /// actions retained, then released), 65 instructions more a record. Inlined into the loop over the records.
    @inline(__always)
    private mutating func write(_ records: [Notification], at index: Int, reason: StaticString?) {
        if settled?.fits(kind: records[index].kind, priority: records[index].priority,
                         category: records[index].category, actions: records[index].actions,
                         sound: records[index].sound, badge: records[index].badge) != true {
            settled = SettledText(records[index])
        }
        // The source is written three times (in the id, as itself and in the deep link): a short one that needs no
        // escape is read once and stored from two words each time.
        let source = ShortText(records[index].source)
        if case .dated(let date) = records[index].identity.stored, (0...9999).contains(date.year), let settled {
            // `<kind>:<source>:<date>` (`Notification.id`) from its parts, without building the string.
            settled.idStart.withUnsafeBufferPointer { out.append(bytes: $0) }
            appendEscaped(source, else: records[index].source)
            appendIDEnd(date)
        } else {
            JSONValue.appendQuoted(records[index].id, to: out)
        }
        settled?.afterID.withUnsafeBufferPointer { out.append(bytes: $0) }
        out.append(UInt8(ascii: "\""))
        appendEscaped(source, else: records[index].source)
        out.append(UInt8(ascii: "\""))
        out.append(text: ",\n      \"fireAt\": \"")
        lastFireAt = instant(records[index].fireAt, last: lastFireAt)
        out.append(text: "\",\n      \"expiresAt\": \"")
        lastExpiresAt = instant(records[index].expiresAt, last: lastExpiresAt)
        out.append(text: "\",\n      \"title\": ")
        JSONValue.appendQuoted(records[index].title, to: out)
        out.append(text: ",\n      \"body\": ")
        JSONValue.appendQuoted(records[index].body, to: out)
        settled?.afterBody.withUnsafeBufferPointer { out.append(bytes: $0) }
        // `deepLink` goes on from there: the source, without building the link first.
        appendEscaped(source, else: records[index].source)
        out.append(UInt8(ascii: "\""))
        if let reason {
            out.append(text: ",\n      \"reason\": \"")
            out.append(text: reason)
            out.append(UInt8(ascii: "\""))
        }
        out.append(text: "\n    }")
    }

    /// `JSONValue.appendEscaped` of `text`, from `short` when it holds it.
    @inline(__always)
    private func appendEscaped(_ short: ShortText?, else text: String) {
        guard let short else {
            JSONValue.appendEscaped(text, to: out)
            return
        }
        out.write(upTo: 16) { target in
            UnsafeMutableRawPointer(target).storeBytes(of: short.bytes, as: (UInt64, UInt64).self)
            return short.count
        }
    }

    /// The end of a dated id, `:YYYY-MM-DD` and the closing quote, kept for the previous date (a plan's records
    /// fall on a handful of dates).
    private mutating func appendIDEnd(_ date: LocalDate) {
        if date != idDate {
            var text: [UInt8] = [UInt8(ascii: ":")]
            text.append(contentsOf: date.description.utf8)
            text.append(UInt8(ascii: "\""))
            idEnd = text.withUnsafeBytes { bytes in
                (bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            }
            idDate = date
        }
        out.write(upTo: 12) { target in
            let target = UnsafeMutableRawPointer(target)
            target.storeBytes(of: idEnd.0, as: UInt64.self)
            target.storeBytes(of: idEnd.1, toByteOffset: 8, as: UInt32.self)
            return 12
        }
    }

    /// `RFC3339.append` of a record's time, whole-second instants from text kept from before: all of it when the
    /// instant is `last`'s (records in time order share their times in runs: 10,000 alarms ring about seven to the
    /// minute), else the date part when it falls on the previous instant's day (a plan's records fall on a
    /// handful of days). Returns what to keep as `last`.
    private mutating func instant(_ date: Date, last: InstantText) -> InstantText {
        let reference = date.timeIntervalSinceReferenceDate
        guard reference != last.reference else {
            append(last.text)
            return last
        }
        // Whole seconds from 1970 to the end of 9999; fractions and other years are rare enough to go the slow way.
        guard reference.rounded(.down) == reference, reference >= -978_307_200, reference < 252_423_993_600 else {
            var sink = out
            RFC3339.append(date, to: &sink)
            return InstantText()
        }
        let seconds = Int(reference) + 978_307_200
        let day = seconds / 86_400
        if day != dayNumber {
            var text: [UInt8] = []
            RFC3339.append(Date(timeIntervalSince1970: Double(day * 86_400)), to: &text)
            dayText = text.withUnsafeBytes { bytes in
                (bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            }
            dayNumber = day
        }
        let secondOfDay = seconds - day * 86_400
        var text = InstantText.Text(head: dayText.0)
        withUnsafeMutableBytes(of: &text) { bytes in
            bytes.storeBytes(of: dayText.1, toByteOffset: 8, as: UInt32.self)
            let digit = { (value: Int) in UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10) }
            bytes[11] = digit(secondOfDay / 36_000)
            bytes[12] = digit(secondOfDay / 3_600)
            bytes[13] = UInt8(ascii: ":")
            bytes[14] = digit(secondOfDay / 600 % 6)
            bytes[15] = digit(secondOfDay / 60)
            bytes[16] = UInt8(ascii: ":")
            bytes[17] = digit(secondOfDay % 60 / 10)
            bytes[18] = digit(secondOfDay)
            bytes[19] = UInt8(ascii: "Z")
        }
        append(text)
        return InstantText(reference: reference, text: text)
    }

    /// The 20 bytes of an instant's text.
    private func append(_ text: InstantText.Text) {
        out.write(upTo: 20) { target in
            UnsafeMutableRawPointer(target).storeBytes(of: text, as: InstantText.Text.self)
            return 20
        }
    }
}

/// The bytes of a text of at most 16 that needs no JSON escape, in two words (nil for any other text).
private struct ShortText {
    let bytes: (UInt64, UInt64)
    let count: Int

    init?(_ text: String) {
        var text = text
        var bytes: (UInt64, UInt64) = (0, 0)
        guard let count = text.withUTF8({ (source: UnsafeBufferPointer<UInt8>) -> Int? in
            guard source.count <= 16, JSONValue.firstEscape(in: source) == source.count else { return nil }
            withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: UnsafeRawBufferPointer(source)) }
            return source.count
        }) else { return nil }
        self.bytes = bytes
        self.count = count
    }
}

/// An instant's 20 bytes of text (`2026-11-21T10:00:00Z`) and the instant, as seconds since 2001 (NaN for none).
private struct InstantText {
    /// The bytes, as they lie in memory. A struct, not a tuple: a tuple type is looked up at run time.
    struct Text {
        var head: UInt64 = 0
        var middle: UInt64 = 0
        var tail: UInt32 = 0
    }

    var reference = Double.nan
    var text = Text()
}

/// The text of a record's members that depend only on its kind and settings, and what it was written from.
private struct SettledText {
    let kind: NotificationKind
    let priority: Priority
    let category: String
    let actions: [String]
    let sound: Bool
    let badge: Bool
    /// A dated id up to its source: the quote, the kind and a colon.
    let idStart: [UInt8]
    /// After the id: `,` and the member `kind`, then the key of `source`.
    let afterID: [UInt8]
    /// After the body: `,` and the members `priority` through `badge`, then `deepLink` up to its source.
    let afterBody: [UInt8]

    init(_ record: Notification) {
        kind = record.kind
        priority = record.priority
        category = record.category
        actions = record.actions
        sound = record.sound
        badge = record.badge
        var text: [UInt8] = [UInt8(ascii: "\"")]
        JSONValue.appendEscaped(kind.rawValue, to: &text)
        text.append(UInt8(ascii: ":"))
        idStart = text
        text = []
        text.append(text: ",\n      \"kind\": ")
        JSONValue.appendQuoted(kind.rawValue, to: &text)
        text.append(text: ",\n      \"source\": ")
        afterID = text
        text = []
        text.append(text: ",\n      \"priority\": ")
        JSONValue.appendQuoted(priority.rawValue, to: &text)
        text.append(text: ",\n      \"category\": ")
        JSONValue.appendQuoted(category, to: &text)
        text.append(text: ",\n      \"actions\": [")
        for (index, action) in actions.enumerated() {
            text.append(text: index == 0 ? "\n        " : ",\n        ")
            JSONValue.appendQuoted(action, to: &text)
        }
        text.append(text: actions.isEmpty ? "]" : "\n      ]")
        text.append(text: ",\n      \"sound\": ")
        text.append(text: sound ? "true" : "false")
        text.append(text: ",\n      \"badge\": ")
        text.append(text: badge ? "true" : "false")
        text.append(text: ",\n      \"deepLink\": \"nudge://")
        JSONValue.appendEscaped(kind.family, to: &text)
        text.append(UInt8(ascii: "/"))
        afterBody = text
    }

    /// Whether this text is also that of a record with these members.
    func fits(kind: NotificationKind, priority: Priority, category: String, actions: [String], sound: Bool,
              badge: Bool) -> Bool {
        kind == self.kind && priority == self.priority && sound == self.sound && badge == self.badge
            && category == self.category && actions == self.actions
    }
}
