/// Strings, numbers, literals and error construction for `JSONByteParser`.
extension JSONByteParser {
    /// Reads a string starting at its opening quote onto the tape; returns its node.
    ///
    /// Plain bytes are validated in place and the node points at them; only strings with
    /// escapes are copied, unescaped, to the tape's `unescaped` bytes.
    @discardableResult
    mutating func parseString() throws -> Int {
        index += 1
        let start = index
        var segmentStart = index
        var unescapedStart: Int?
        while true {
            skipPlainWords()
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { break }
                index += 1
            }
            guard index < bytes.count else {
                throw error("unexpected end of input inside string", at: index)
            }
            let byte = bytes[index]
            if byte == 0x22 {
                let end = index
                index += 1
                guard let unescapedStart else { return appendNode(.string, start: start, end: end) }
                tape.unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<end]))
                return appendNode(.escapedString, start: unescapedStart, end: tape.unescaped.count)
            } else if byte >= 0x80 {
                guard let length = utf8SequenceLength(at: index) else {
                    throw error("invalid UTF-8", at: index)
                }
                index += length
            } else if byte == 0x5C {
                if unescapedStart == nil { unescapedStart = tape.unescaped.count }
                tape.unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<index]))
                try appendEscape()
                segmentStart = index
            } else {
                throw error("unescaped control character \(describe(at: index)) in string", at: index)
            }
        }
    }

    /// Advances over plain string bytes (no quote, backslash, control or non-ASCII byte) 8 at a time, leaving
    /// `index` on the first byte needing a look, or within the last 8 bytes of the input for the byte loop.
    /// Strings are a third of the parse, and most are ids, dates and names of plain ASCII.
    @inline(__always)
    private mutating func skipPlainWords() {
        guard let base = bytes.baseAddress else { return }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while index &+ 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte is zero in `x` exactly where `(x - 1) & ~x` sets its high bit, counting from the low
            // byte up; a borrow can only spread past a byte that is itself a match, so "any match" is exact.
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                | ((word &- ones &* 0x20) & ~word) | word
            let found = special & highBits
            if found != 0 {
                // The lowest flagged byte is a true match (false ones only sit above one), so this is exact.
                index &+= found.trailingZeroBitCount &>> 3
                return
            }
            index &+= 8
        }
    }

    /// Decodes the escape sequence at `index` (a backslash) into the tape's `unescaped` bytes as UTF-8.
    private mutating func appendEscape() throws {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw error("unexpected end of input inside string", at: index) }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): tape.unescaped.append(letter)
        case UInt8(ascii: "b"): tape.unescaped.append(0x08)
        case UInt8(ascii: "f"): tape.unescaped.append(0x0C)
        case UInt8(ascii: "n"): tape.unescaped.append(0x0A)
        case UInt8(ascii: "r"): tape.unescaped.append(0x0D)
        case UInt8(ascii: "t"): tape.unescaped.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            var scalar = unit
            if (0xDC00...0xDFFF).contains(unit) {
                throw error("unpaired surrogate \(Self.escapeText(unit)) in string", at: escapeStart)
            }
            if (0xD800...0xDBFF).contains(unit) {
                let followedByEscapeU = index + 1 < bytes.count
                    && bytes[index] == 0x5C && bytes[index + 1] == UInt8(ascii: "u")
                guard followedByEscapeU else {
                    if index == bytes.count || (index + 1 == bytes.count && bytes[index] == 0x5C) {
                        throw error("unexpected end of input inside string", at: bytes.count)
                    }
                    throw error("unpaired surrogate \(Self.escapeText(unit)) in string", at: escapeStart)
                }
                index += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("unpaired surrogate \(Self.escapeText(unit)) in string", at: escapeStart)
                }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            appendUTF8(scalar)
        default:
            throw error("invalid escape sequence: expected one of \" \\ / b f n r t u after '\\', "
                + "found \(describe(at: index - 1))", at: index - 1)
        }
    }

    /// Reads the four hex digits of a `\u` escape.
    private mutating func readHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("unexpected end of input inside string", at: index) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected 4 hex digits after '\\u', found \(describe(at: index))", at: index)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Appends a Unicode scalar value (never a surrogate) to the tape's `unescaped` bytes.
    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            tape.unescaped.append(UInt8(scalar))
        case 0x80..<0x800:
            tape.unescaped.append(UInt8(0xC0 | scalar >> 6))
            tape.unescaped.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            tape.unescaped.append(UInt8(0xE0 | scalar >> 12))
            tape.unescaped.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            tape.unescaped.append(UInt8(0x80 | scalar & 0x3F))
        default:
            tape.unescaped.append(UInt8(0xF0 | scalar >> 18))
            tape.unescaped.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            tape.unescaped.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            tape.unescaped.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// `\uXXXX` as written in messages.
    private static func escapeText(_ unit: UInt32) -> String {
        "\\u" + Self.hex(unit, digits: 4)
    }

    /// Length of the well-formed UTF-8 sequence starting at `offset` (a byte >= 0x80), or nil if
    /// it is malformed: a stray continuation byte, an overlong form, a surrogate, a value above
    /// U+10FFFF, or a sequence cut off by the end of input.
    func utf8SequenceLength(at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return nil
        }
        guard offset + length <= bytes.count, secondRange.contains(bytes[offset + 1]) else { return nil }
        var next = offset + 2
        while next < offset + length {
            guard bytes[next] & 0xC0 == 0x80 else { return nil }
            next += 1
        }
        return length
    }

    /// Reads a number starting at `index` onto the tape (its literal text).
    mutating func parseNumber() throws {
        let start = index
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        guard index < bytes.count, isDigit(bytes[index]) else { throw expected("a digit after '-'", at: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("leading zeros are not allowed in numbers", at: index)
            }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw expected("a digit after '.' in number", at: index)
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw expected("a digit in exponent", at: index)
            }
            skipDigits()
        }
        _ = appendNode(.number, start: start, end: index)
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    @inline(__always)
    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
        }
    }

    /// Consumes `literal` (`true`, `false` or `null`) or throws at the first byte that differs.
    mutating func expectLiteral(_ literal: StaticString) throws {
        let text = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for expectedByte in text {
            guard index < bytes.count, bytes[index] == expectedByte else {
                throw expected("'\(literal)'", at: index)
            }
            index += 1
        }
    }

    /// A syntax error at `offset` with its line and column.
    func error(_ message: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(message, at: offset, in: bytes)
    }

    /// `expected <what>, found <x>`, or `unexpected end of input; expected <what>` at the end; or, when the
    /// mistake is one people make by hand, its likely cause at the place of the cause (`likelyCause`).
    func expected(_ what: String, at offset: Int) -> JSONSyntaxError {
        if let cause = likelyCause(what, at: offset) { return cause }
        if offset >= bytes.count {
            return error("unexpected end of input; expected \(what)", at: offset)
        }
        return error("expected \(what), found \(describe(at: offset))", at: offset)
    }

    /// The mistakes a person editing by hand makes, named at their own place rather than at the next token
    /// (docs/promises.md): a comma before a closing bracket, a `//` or `/* */` comment, a typographic quote, a comma
    /// left out between two members or elements. Nil for any other error.
    private func likelyCause(_ what: String, at offset: Int) -> JSONSyntaxError? {
        guard offset < bytes.count else { return nil }
        let found = bytes[offset]
        if found == UInt8(ascii: "/"), offset + 1 < bytes.count,
           bytes[offset + 1] == UInt8(ascii: "/") || bytes[offset + 1] == UInt8(ascii: "*") {
            let kind = bytes[offset + 1] == UInt8(ascii: "/") ? "//" : "/* */"
            return error("a comment (\(kind)) is not JSON: remove it (JSON files have no comments)", at: offset)
        }
        if found == 0xE2, offset + 2 < bytes.count, bytes[offset + 1] == 0x80,
           let quote = [0x98: "2018", 0x99: "2019", 0x9C: "201C", 0x9D: "201D"][bytes[offset + 2]] {
            return error("typographic quote U+\(quote) where JSON needs a straight double quote \" (an editor or a web page "
                + "replaced it: retype it)", at: offset)
        }
        var previous = offset - 1
        while previous >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[previous]) { previous -= 1 }
        let closer = found == UInt8(ascii: "]") ? "]" : found == UInt8(ascii: "}") ? "}" : nil
        if let closer, previous >= 0, bytes[previous] == UInt8(ascii: ",") {
            let last = closer == "]" ? "element" : "member"
            return error("trailing comma before '\(closer)': JSON allows no comma after the last \(last) (remove it)",
                         at: previous)
        }
        let startsValue = found == UInt8(ascii: "\"") || found == UInt8(ascii: "{") || found == UInt8(ascii: "[")
            || found == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(found)
            || found == UInt8(ascii: "t") || found == UInt8(ascii: "f") || found == UInt8(ascii: "n")
        if startsValue, previous >= 0, what.hasPrefix("',' or ") {
            let next = JSONSyntaxError("", at: offset, in: bytes)
            let between = what.hasSuffix("object member") ? "object members" : "array elements"
            return error("missing ',' between \(between) (the next one starts at \(next.line):\(next.column))",
                         at: previous + 1)
        }
        return nil
    }

    /// The character at `offset` for messages: `'x'` when printable, `U+0007` otherwise,
    /// `end of input` past the end, or the raw byte if it does not start valid UTF-8.
    func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte < 0x80 {
            let isPrintable = (0x20..<0x7F).contains(byte)
            return isPrintable ? "'\(Character(Unicode.Scalar(byte)))'" : "U+" + Self.hex(UInt32(byte), digits: 4)
        }
        guard let length = utf8SequenceLength(at: offset) else {
            return "invalid UTF-8 byte 0x" + Self.hex(UInt32(byte), digits: 2)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        guard let scalar = text.unicodeScalars.first else { return "invalid UTF-8" }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned,
             .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return "U+" + Self.hex(scalar.value, digits: 4)
        default:
            return "'\(text)'"
        }
    }

    /// Uppercase hex of `value`, zero-padded to at least `digits` digits.
    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
