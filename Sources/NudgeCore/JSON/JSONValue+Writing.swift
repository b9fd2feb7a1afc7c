/// Serialization of `JSONValue` back to JSON text.
///
/// Output is deterministic: object members are written in stored order and numbers as their
/// stored literal text. Strings escape only what JSON requires (`"`, `\` and control
/// characters); `/` and non-ASCII characters are written as they are.
extension JSONValue {
    /// One line, no spaces: `{"a":1,"b":[true,null]}`. Used for outbox.jsonl lines.
    public var compactText: String {
        var output: [UInt8] = []
        write(to: &output, indent: nil)
        return String(decoding: output, as: UTF8.self)
    }

    /// Two-space indented, members in stored order, `"key": value`, each array element and
    /// member on its own line, empty array `[]`, empty object `{}`, no trailing newline.
    public var prettyText: String {
        var output: [UInt8] = []
        write(to: &output, indent: 0)
        return String(decoding: output, as: UTF8.self)
    }

    /// `string` as a quoted, escaped JSON string literal, e.g. for messages naming a key.
    static func quoted(_ string: String) -> String {
        var output: [UInt8] = []
        appendQuoted(string, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends this value as UTF-8. `indent` is nil for compact output, otherwise the
    /// current nesting level for pretty output.
    func write(to output: inout [UInt8], indent: Int?) {
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let bool):
            output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let text):
            output.append(contentsOf: text.utf8)
        case .string(let string):
            Self.appendQuoted(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                Self.appendSeparator(isFirst: position == 0, indent: indent, to: &output)
                element.write(to: &output, indent: indent.map { $0 + 1 })
            }
            Self.appendClosingLine(isEmpty: elements.isEmpty, indent: indent, to: &output)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                Self.appendSeparator(isFirst: position == 0, indent: indent, to: &output)
                Self.appendQuoted(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                if indent != nil {
                    output.append(UInt8(ascii: " "))
                }
                member.value.write(to: &output, indent: indent.map { $0 + 1 })
            }
            Self.appendClosingLine(isEmpty: members.isEmpty, indent: indent, to: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Before an element or member: a comma unless it is the first, and in pretty mode a
    /// newline plus indentation one level deeper than the container.
    private static func appendSeparator(isFirst: Bool, indent: Int?, to output: inout [UInt8]) {
        if !isFirst {
            output.append(UInt8(ascii: ","))
        }
        if let indent {
            appendNewline(indent: indent + 1, to: &output)
        }
    }

    /// Before a closing bracket in pretty mode: a newline at the container's own indentation,
    /// unless the container is empty (`[]`, `{}`).
    private static func appendClosingLine(isEmpty: Bool, indent: Int?, to output: inout [UInt8]) {
        if let indent, !isEmpty {
            appendNewline(indent: indent, to: &output)
        }
    }

    /// A line break followed by `indent` levels of two-space indentation.
    private static func appendNewline(indent: Int, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Lowercase hex digits for `\u00XX` escapes.
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `string` in double quotes, escaping `"`, `\` and U+0000–U+001F.
    static func appendQuoted(_ string: String, to output: inout some ByteSink) {
        output.append(UInt8(ascii: "\""))
        appendEscaped(string, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// The inside of a JSON string literal for `string`, without the quotes.
    ///
    /// The bytes up to the first one that needs an escape are copied in one piece (nearly every string nudge
    /// writes has none), found eight bytes at a time.
    static func appendEscaped(_ string: String, to output: inout some ByteSink) {
        let clean = string.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            let clean = firstEscape(in: bytes)
            output.append(bytes: UnsafeBufferPointer(rebasing: bytes[..<clean]))
            return clean
        }
        guard let clean else {
            for byte in string.utf8 { appendEscaped(byte, to: &output) }
            return
        }
        guard clean < string.utf8.count else { return }
        for byte in string.utf8.dropFirst(clean) { appendEscaped(byte, to: &output) }
    }

    /// The index of the first byte in `bytes` that needs an escape, or `bytes.count`. Eight bytes at a time; the
    /// last few in one word too (the final eight, or all of a shorter string padded with letters), so only the
    /// word holding an escape is gone through byte by byte.
    @inline(__always)
    static func firstEscape(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return 0 }
        let count = bytes.count
        var index = 0
        while index + 8 <= count, !anyNeedsEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        if index + 8 > count, index < count {
            var tail = UInt64(0x6161_6161_6161_6161)
            if count >= 8 {
                tail = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else {
                withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            }
            if !anyNeedsEscape(tail) { return count }
        }
        while index < count, !needsEscape(bytes[index]) {
            index += 1
        }
        return index
    }

    /// Whether any of the eight bytes in `word` needs an escape: a byte below 0x20, `"` or `\`. The usual
    /// bit tricks: `x - 0x01…01` borrows into a byte's top bit where `x` has a zero byte, and `x - 0x20…20`
    /// where it has one below 0x20, unless that top bit was already set in `x` (which `& ~x` removes).
    @inline(__always)
    private static func anyNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let below = (word &- ones &* 0x20) & ~word
        let quotes = (quote &- ones) & ~quote
        let backslashes = (backslash &- ones) & ~backslash
        return (below | quotes | backslashes) & (ones &* 0x80) != 0
    }

    /// `"`, `\` and the control characters U+0000–U+001F.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// One byte of a string literal's inside, escaped if JSON requires it.
    private static func appendEscaped(_ byte: UInt8, to output: inout some ByteSink) {
        switch byte {
        case UInt8(ascii: "\""): output.append(text: #"\""#)
        case UInt8(ascii: "\\"): output.append(text: #"\\"#)
        case 0x08: output.append(text: #"\b"#)
        case 0x0C: output.append(text: #"\f"#)
        case 0x0A: output.append(text: #"\n"#)
        case 0x0D: output.append(text: #"\r"#)
        case 0x09: output.append(text: #"\t"#)
        case 0x00..<0x20:
            output.append(text: #"\u00"#)
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0x0F)])
        default:
            output.append(byte)
        }
    }
}
