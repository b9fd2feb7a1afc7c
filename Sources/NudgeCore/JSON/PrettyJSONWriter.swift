import FoundationEssentials

/// Writes JSON in the layout of `JSONValue.prettyText` as it goes: two-space indentation, each member and
/// element on its own line, `"key": value`, empty containers as `[]` and `{}`. The caller opens and closes the
/// containers and announces each member (`key`) or element (`element`) before its value.
struct PrettyJSONWriter {
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// One bit per open container (depth 1 is bit 0): set once it has a member or element.
    private var nonEmpty: UInt64 = 0
    /// The last instant written and its text: records in time order share their times in runs (10,000 alarms
    /// ring about seven to the minute).
    private var lastInstant: Date?
    private var lastInstantText: [UInt8] = []

    /// A writer with room for about `capacity` bytes.
    init(capacity: Int = 4_096) {
        bytes.reserveCapacity(capacity)
    }

    /// `{` or `[`, a container one level deeper.
    mutating func open(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        depth += 1
        nonEmpty &= ~(1 << UInt64(depth - 1))
    }

    /// `}` or `]`, on a line of its own unless the container is empty.
    mutating func close(_ bracket: Unicode.Scalar) {
        if nonEmpty & (1 << UInt64(depth - 1)) != 0 { newline(indent: depth - 1) }
        depth -= 1
        bytes.append(UInt8(ascii: bracket))
    }

    /// Before an array element: the comma after the previous one and the element's line.
    mutating func element() {
        if nonEmpty & (1 << UInt64(depth - 1)) != 0 { bytes.append(UInt8(ascii: ",")) }
        nonEmpty |= 1 << UInt64(depth - 1)
        newline(indent: depth)
    }

    /// Before a member's value: the comma after the previous member, the member's line and `"key": `.
    mutating func key(_ key: String) {
        element()
        JSONValue.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
    }

    /// `key` for a key written in the program, which needs no escape.
    mutating func member(_ key: StaticString) {
        element()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(text: key)
        bytes.append(text: "\": ")
    }

    mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func string(_ value: String?) {
        guard let value else { return null() }
        JSONValue.appendQuoted(value, to: &bytes)
    }

    mutating func instant(_ date: Date?) {
        guard let date else { return null() }
        if date != lastInstant {
            lastInstant = date
            lastInstantText.removeAll(keepingCapacity: true)
            lastInstantText.append(UInt8(ascii: "\""))
            RFC3339.append(date, to: &lastInstantText)
            lastInstantText.append(UInt8(ascii: "\""))
        }
        bytes.append(contentsOf: lastInstantText)
    }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func null() {
        bytes.append(contentsOf: "null".utf8)
    }

    /// A whole value, indented to sit at the current depth.
    mutating func value(_ value: JSONValue) {
        value.write(to: &bytes, indent: depth)
    }

    /// Text that needs no escape, as it is.
    mutating func raw(_ text: StaticString) {
        bytes.append(text: text)
    }

    /// A string with nothing to escape, quoted (an enum's raw value).
    mutating func plain(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The inside of a string, escaped, without its quotes.
    mutating func escaped(_ text: String) {
        JSONValue.appendEscaped(text, to: &bytes)
    }

    /// A notification's id as a string; a dated id (`Notification.Identity`) is written from its parts.
    mutating func id(_ identity: Notification.Identity) {
        switch identity.stored {
        case .text(let text):
            JSONValue.appendQuoted(text, to: &bytes)
        case .dated(let date):
            bytes.append(UInt8(ascii: "\""))
            JSONValue.appendEscaped(identity.kind.rawValue, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONValue.appendEscaped(identity.source, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONValue.appendEscaped(date.description, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// The text written, with a final newline.
    mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private mutating func newline(indent: Int) {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<indent {
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: " "))
        }
    }
}
