/// The state of one `JSONParser` run: a read position over borrowed bytes, and the tape it fills.
///
/// Arrays and objects are parsed with an explicit stack of open containers instead of
/// recursion, so nesting depth is limited only by `maximumDepth`, never by the thread's
/// stack. String, number and literal scanning live in `JSONByteParser+Scalars.swift`.
///
/// `bytes` is borrowed from the caller's `withUnsafe…` closure; a parser must not outlive it.
struct JSONByteParser {
    /// The whole input, including a byte order mark if there is one.
    var bytes: UnsafeBufferPointer<UInt8> { tape.bytes }
    /// Deepest allowed nesting of arrays and objects.
    let maximumDepth: Int
    /// Offset of the next unread byte.
    var index = 0
    /// The nodes read so far.
    var tape: JSONTape

    /// An array or object whose closing bracket has not been read yet.
    private struct OpenContainer {
        /// Its node in the tape.
        var node: Int
        /// True for `{`, false for `[`.
        var isObject: Bool
        /// Members read so far, the pending one included (objects).
        var memberCount = 0
        /// Keys of the members, built only once an object gets large enough for linear
        /// duplicate checks to matter; kept in the tape for lookups.
        var keyTable: JSONKeyTable?
    }

    /// Objects with at least this many members switch from a linear duplicate-key scan to a `JSONKeyTable`.
    static let keyTableThreshold = JSONTape.keyTableThreshold

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.tape = JSONTape(bytes: bytes)
        self.maximumDepth = maximumDepth
    }

    /// Parses the whole input: optional BOM, one value, then nothing but whitespace.
    mutating func parseDocument() throws -> JSONTape {
        guard bytes.count < JSONTape.maximumSize else {
            throw error("the file is larger than 512 MiB", at: 0)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
        }
        // Compact files run about ten bytes a value (an observation is five nodes in 52 bytes): room for one
        // node per 8 bytes avoids regrowing there, and reserved pages never written take no memory.
        tape.nodes.reserveCapacity(bytes.count / 8)
        try parseValue()
        // Objects close inner first: sorted here for `keyTable(of:)`'s binary search.
        if tape.keyTables.count > 1 { tape.keyTables.sort { $0.object < $1.object } }
        skipWhitespace()
        if index < bytes.count {
            throw error("trailing characters after the JSON value", at: index)
        }
        return tape
    }

    /// Appends a node whose text (or, for a container, bracket) starts at `start`; returns its index.
    @inline(__always)
    mutating func appendNode(_ kind: JSONTape.Kind, start: Int, end: Int) -> Int {
        tape.nodes.append(JSONTape.Node(kind: kind, start: UInt32(truncatingIfNeeded: start),
                                        end: UInt32(truncatingIfNeeded: end)))
        return tape.nodes.count - 1
    }

    /// Marks the container `node` as ending after the last node appended.
    @inline(__always)
    private mutating func close(_ node: Int) {
        tape.nodes[node].end = UInt32(truncatingIfNeeded: tape.nodes.count)
    }

    /// Parses one value, including everything nested inside it, onto the tape.
    ///
    /// The outer loop reads one value start; scalars and empty containers complete at once,
    /// non-empty containers are pushed and the loop continues with their first element.
    /// The `attach` loop then keeps closing containers for as long as their closing brackets follow.
    private mutating func parseValue() throws {
        var stack: [OpenContainer] = []
        parsing: while true {
            skipWhitespace()
            guard index < bytes.count else { throw expected("a JSON value", at: index) }
            switch bytes[index] {
            case UInt8(ascii: "["):
                try checkDepth(openContainers: stack.count)
                let node = appendNode(.array, start: index, end: 0)
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    close(node)
                } else {
                    stack.append(OpenContainer(node: node, isObject: false))
                    continue parsing
                }
            case UInt8(ascii: "{"):
                try checkDepth(openContainers: stack.count)
                let node = appendNode(.object, start: index, end: 0)
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    close(node)
                } else {
                    var container = OpenContainer(node: node, isObject: true)
                    try readMemberKey(into: &container, afterComma: false)
                    stack.append(container)
                    continue parsing
                }
            case UInt8(ascii: "\""):
                try parseString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try parseNumber()
            case UInt8(ascii: "t"):
                _ = appendNode(.true, start: index, end: index + 4)
                try expectLiteral("true")
            case UInt8(ascii: "f"):
                _ = appendNode(.false, start: index, end: index + 5)
                try expectLiteral("false")
            case UInt8(ascii: "n"):
                _ = appendNode(.null, start: index, end: index + 4)
                try expectLiteral("null")
            default:
                throw expected("a JSON value", at: index)
            }

            attach: while !stack.isEmpty {
                let top = stack.count - 1
                skipWhitespace()
                let next: UInt8? = index < bytes.count ? bytes[index] : nil
                if stack[top].isObject {
                    switch next {
                    case UInt8(ascii: ","):
                        index += 1
                        try readMemberKey(into: &stack[top], afterComma: true)
                        continue parsing
                    case UInt8(ascii: "}"):
                        index += 1
                        let container = stack.removeLast()
                        close(container.node)
                        if let table = container.keyTable {
                            tape.keyTables.append(JSONTape.ObjectKeys(object: container.node, table: table))
                        }
                    default:
                        throw expected("',' or '}' after object member", at: index)
                    }
                } else {
                    switch next {
                    case UInt8(ascii: ","):
                        index += 1
                        continue parsing
                    case UInt8(ascii: "]"):
                        index += 1
                        close(stack.removeLast().node)
                    default:
                        throw expected("',' or ']' after array element", at: index)
                    }
                }
            }
            return
        }
    }

    /// Reads `"key" :` (with surrounding whitespace) onto the tape as the container's next key.
    /// Throws at the key's opening quote if the object already has that key.
    private mutating func readMemberKey(into container: inout OpenContainer, afterComma: Bool) throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            let what = afterComma ? "a string key after ',' in object" : "a string key or '}'"
            throw expected(what, at: index)
        }
        let keyOffset = index
        let key = try parseString()
        if isDuplicate(key, in: &container) {
            throw error("duplicate key \(JSONValue.quoted(tape.text(key)))", at: keyOffset)
        }
        container.memberCount += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw expected("':' after object key", at: index)
        }
        index += 1
    }

    /// Whether the key node `key` repeats a key of `container`. Small objects are scanned linearly
    /// on the tape; large ones keep a table of keys (including `key` once checked) so parsing stays linear.
    /// The table is made when the object reaches `keyTableThreshold` members.
    private func isDuplicate(_ key: Int, in container: inout OpenContainer) -> Bool {
        if container.keyTable == nil {
            if container.memberCount < Self.keyTableThreshold {
                var child = container.node + 1
                while child < key {
                    if tape.textEquals(child, key) { return true }
                    child = tape.after(child + 1)
                }
                return false
            }
            var table = JSONKeyTable(capacity: container.memberCount * 4)
            var child = container.node + 1
            while child < key {
                _ = table.insert(child, in: tape)
                child = tape.after(child + 1)
            }
            container.keyTable = table
        }
        return container.keyTable?.insert(key, in: tape) != nil
    }

    /// Throws if opening one more container would exceed `maximumDepth`.
    private func checkDepth(openContainers: Int) throws {
        if openContainers >= maximumDepth {
            throw error("nesting deeper than \(maximumDepth)", at: index)
        }
    }

    /// Advances past JSON whitespace: space, tab, LF, CR. Compact files have none between tokens, so a byte
    /// above space returns at once; indented files skip their runs of spaces a word at a time.
    @inline(__always)
    mutating func skipWhitespace() {
        guard index < bytes.count, bytes[index] <= 0x20 else { return }
        skipWhitespaceRun()
    }

    private mutating func skipWhitespaceRun() {
        guard let base = bytes.baseAddress else { return }
        let spaces: UInt64 = 0x2020_2020_2020_2020
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
                while index &+ 8 <= bytes.count,
                      UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) == spaces {
                    index &+= 8
                }
            default:
                return
            }
        }
    }
}
