/// The state of one `JSONParser` run: a read position over borrowed bytes.
///
/// Arrays and objects are parsed with an explicit stack of open containers instead of
/// recursion, so nesting depth is limited only by `maximumDepth`, never by the thread's
/// stack. String, number and literal scanning live in `JSONByteParser+Scalars.swift`.
///
/// `bytes` is borrowed from the caller's `withUnsafe…` closure; a parser must not outlive it.
struct JSONByteParser {
    /// The whole input, including a byte order mark if there is one.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Deepest allowed nesting of arrays and objects.
    let maximumDepth: Int
    /// Offset of the next unread byte.
    var index = 0
    /// Reusable buffer for strings that contain escapes.
    var scratch: [UInt8] = []

    /// An array or object whose closing bracket has not been read yet.
    private struct OpenContainer {
        /// True for `{`, false for `[`.
        var isObject: Bool
        /// Elements read so far (arrays).
        var elements: [JSONValue] = []
        /// Members read so far (objects).
        var members: [JSONMember] = []
        /// Key of the member whose value is being read (objects).
        var pendingKey = ""
        /// Keys of `members`, built only once an object gets large enough for linear
        /// duplicate checks to matter.
        var keySet: Set<String>?
    }

    /// Objects with at least this many members switch from a linear duplicate-key scan to a set.
    private static let keySetThreshold = 16

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Parses the whole input: optional BOM, one value, then nothing but whitespace.
    mutating func parseDocument() throws -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
        }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw error("trailing characters after the JSON value", at: index)
        }
        return value
    }

    /// Parses one value, including everything nested inside it.
    ///
    /// The outer loop reads one value start; scalars and empty containers complete at once,
    /// non-empty containers are pushed and the loop continues with their first element.
    /// A completed value is then attached to the innermost open container, and the `attach`
    /// loop keeps closing containers for as long as their closing brackets follow.
    private mutating func parseValue() throws -> JSONValue {
        var stack: [OpenContainer] = []
        parsing: while true {
            skipWhitespace()
            guard index < bytes.count else { throw expected("a JSON value", at: index) }
            var value: JSONValue
            switch bytes[index] {
            case UInt8(ascii: "["):
                try checkDepth(openContainers: stack.count)
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    value = .array([])
                } else {
                    stack.append(OpenContainer(isObject: false))
                    continue parsing
                }
            case UInt8(ascii: "{"):
                try checkDepth(openContainers: stack.count)
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    value = .object([])
                } else {
                    var container = OpenContainer(isObject: true)
                    try readMemberKey(into: &container, afterComma: false)
                    stack.append(container)
                    continue parsing
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            default:
                throw expected("a JSON value", at: index)
            }

            attach: while !stack.isEmpty {
                let top = stack.count - 1
                skipWhitespace()
                let next: UInt8? = index < bytes.count ? bytes[index] : nil
                if stack[top].isObject {
                    stack[top].members.append(JSONMember(stack[top].pendingKey, value))
                    switch next {
                    case UInt8(ascii: ","):
                        index += 1
                        try readMemberKey(into: &stack[top], afterComma: true)
                        continue parsing
                    case UInt8(ascii: "}"):
                        index += 1
                        value = .object(stack.removeLast().members)
                    default:
                        throw expected("',' or '}' after object member", at: index)
                    }
                } else {
                    stack[top].elements.append(value)
                    switch next {
                    case UInt8(ascii: ","):
                        index += 1
                        continue parsing
                    case UInt8(ascii: "]"):
                        index += 1
                        value = .array(stack.removeLast().elements)
                    default:
                        throw expected("',' or ']' after array element", at: index)
                    }
                }
            }
            return value
        }
    }

    /// Reads `"key" :` (with surrounding whitespace) and makes it the container's pending key.
    /// Throws at the key's opening quote if the object already has that key.
    private mutating func readMemberKey(into container: inout OpenContainer, afterComma: Bool) throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            let what = afterComma ? "a string key after ',' in object" : "a string key or '}'"
            throw expected(what, at: index)
        }
        let keyOffset = index
        let key = try parseString()
        if Self.isDuplicate(key, in: &container) {
            throw error("duplicate key \(JSONValue.quoted(key))", at: keyOffset)
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw expected("':' after object key", at: index)
        }
        index += 1
        container.pendingKey = key
    }

    /// Whether `key` is already a member of `container`. Small objects are scanned linearly;
    /// large ones keep a set of keys (including `key` once checked) so parsing stays linear.
    private static func isDuplicate(_ key: String, in container: inout OpenContainer) -> Bool {
        if container.keySet == nil {
            if container.members.count < keySetThreshold {
                return container.members.contains { $0.key == key }
            }
            container.keySet = Set(container.members.map(\.key))
        }
        return container.keySet?.insert(key).inserted == false
    }

    /// Throws if opening one more container would exceed `maximumDepth`.
    private func checkDepth(openContainers: Int) throws {
        if openContainers >= maximumDepth {
            throw error("nesting deeper than \(maximumDepth)", at: index)
        }
    }

    /// Advances past JSON whitespace: space, tab, LF, CR.
    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            default:
                return
            }
        }
    }
}
