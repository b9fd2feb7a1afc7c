/// Where the values of a JSON document lie in its bytes: what `JSONSplice` needs to change one value and leave
/// every other byte as the person wrote it.
///
/// The bytes must be a document `JSONParser` accepted: this reads their structure, it does not check it again. It
/// is a second, plain walk rather than a record kept by the parser, whose tape holds 8-byte nodes for the speed
/// of every run (docs/performance.md) and has no room for where each string and container ends; an edit is rare
/// and reads only the containers on its way.
struct JSONLayout {
    let bytes: [UInt8]

    /// One member of an object: where its key and its value lie.
    struct Member {
        /// The key with its quotes.
        let key: Range<Int>
        let value: Range<Int>
    }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The document's value, after any byte order mark and white space.
    var root: Range<Int> {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        start = skipWhitespace(from: start)
        return start..<end(ofValueAt: start)
    }

    /// The first index at or after `index` that is not JSON white space.
    func skipWhitespace(from index: Int) -> Int {
        var index = index
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Just past the value that starts at `start`.
    func end(ofValueAt start: Int) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return end(ofStringAt: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = end(ofStringAt: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return index
        default:
            var index = start
            while index < bytes.count, !Self.isWhitespace(bytes[index]), bytes[index] != UInt8(ascii: ","),
                  bytes[index] != UInt8(ascii: "]"), bytes[index] != UInt8(ascii: "}") {
                index += 1
            }
            return index
        }
    }

    /// Just past the closing quote of the string whose opening quote is at `start`.
    private func end(ofStringAt start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return index
    }

    /// The members of the object whose `{` is at `start`, in order.
    func members(ofObjectAt start: Int) -> [Member] {
        var members: [Member] = []
        var index = skipWhitespace(from: start + 1)
        while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let key = index..<end(ofStringAt: index)
            let colon = skipWhitespace(from: key.upperBound)
            let valueStart = skipWhitespace(from: colon + 1)
            let value = valueStart..<end(ofValueAt: valueStart)
            members.append(Member(key: key, value: value))
            index = skipWhitespace(from: value.upperBound)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = skipWhitespace(from: index + 1)
        }
        return members
    }

    /// The elements of the array whose `[` is at `start`, in order.
    func elements(ofArrayAt start: Int) -> [Range<Int>] {
        var elements: [Range<Int>] = []
        var index = skipWhitespace(from: start + 1)
        while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
            let element = index..<end(ofValueAt: index)
            elements.append(element)
            index = skipWhitespace(from: element.upperBound)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
            index = skipWhitespace(from: index + 1)
        }
        return elements
    }

    /// The white space just before `index`, back to the token before it (a comma or an opening bracket).
    func whitespace(before index: Int) -> ArraySlice<UInt8> {
        var start = index
        while start > 0, Self.isWhitespace(bytes[start - 1]) { start -= 1 }
        return bytes[start..<index]
    }

    /// Whether the token before the white space before `index` opens a container (`{` or `[`): the first member
    /// or element, which no comma precedes.
    func isFirst(_ index: Int) -> Bool {
        let start = index - whitespace(before: index).count
        return start > 0 && (bytes[start - 1] == UInt8(ascii: "{") || bytes[start - 1] == UInt8(ascii: "["))
    }

    /// The spaces and tabs that start the line holding `index`.
    func lineIndent(at index: Int) -> [UInt8] {
        var start = index
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        var end = start
        while end < index, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        return Array(bytes[start..<end])
    }
}
