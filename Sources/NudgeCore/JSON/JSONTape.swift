import FoundationEssentials
import Glibc

/// A parsed JSON document as one flat list of nodes in document order, pointing into the file's bytes.
///
/// Why not a tree of `JSONValue`s: for a 27 MB `trips.json` the tree allocated an array per object and a string
/// per value, took five times the file's size, and building and freeing it was most of the decoding time. A tape
/// is one array of 8-byte nodes; strings and numbers become Swift values only when a decoder asks for them.
///
/// Layout: an array or object node is followed by its children (an object's are key, value, key, value, …), and
/// records the index just past its last descendant, so a reader can skip a whole subtree in one step.
///
/// The tape borrows the bytes it was parsed from (`JSONParser.withTape`): it must not outlive them.
struct JSONTape {
    enum Kind: UInt8 {
        case null, `false`, `true`, number
        /// A string without escapes: its text is the bytes between the quotes.
        case string
        /// A string with escapes: its unescaped text is in `unescaped`.
        case escapedString
        case array, object
    }

    /// Files up to this size can be parsed: offsets share 32 bits with the kind of node. Far above any file a
    /// person keeps reminders in, and it keeps a node at 8 bytes (the tape of a large file is as big as the file).
    static let maximumSize = 1 << 29

    struct Node {
        /// The kind in the top three bits, `start` in the others.
        private var kindAndStart: UInt32
        /// Scalars: where the text ends. Arrays and objects: the index of the first node after the container.
        var end: UInt32

        init(kind: Kind, start: UInt32, end: UInt32) {
            kindAndStart = UInt32(kind.rawValue) << 29 | start & 0x1FFF_FFFF
            self.end = end
        }

        /// Every 3-bit value is a kind, so the bits are the kind as they are (no checked conversion).
        @inline(__always)
        var kind: Kind { unsafeBitCast(UInt8(truncatingIfNeeded: kindAndStart >> 29), to: Kind.self) }

        /// Scalars: the length of the text in bytes.
        @inline(__always)
        var textCount: Int { Int(end) &- Int(start) }

        /// Scalars: where the text starts (in `bytes`, or in `unescaped` for escaped strings).
        /// Arrays and objects: the offset of the opening bracket.
        @inline(__always)
        var start: UInt32 { kindAndStart & 0x1FFF_FFFF }
    }

    /// The document's bytes, borrowed.
    let bytes: UnsafeBufferPointer<UInt8>
    var nodes: [Node] = []
    /// The unescaped text of every string that has escapes, one after another.
    var unescaped: [UInt8] = []
    /// The keys of every object with more than `keyTableThreshold` members, sorted by the object's node once
    /// parsing is done. An array rather than a dictionary: a run pays for each generic type with a protocol
    /// requirement the first time it is used, a search through the program's conformances.
    var keyTables: [ObjectKeys] = []

    struct ObjectKeys {
        let object: Int
        let table: JSONKeyTable
    }

    /// The key table of object `node`, if it has one.
    func keyTable(of node: Int) -> JSONKeyTable? {
        var low = 0
        var high = keyTables.count
        while low < high {
            let middle = (low + high) / 2
            if keyTables[middle].object < node { low = middle + 1 } else { high = middle }
        }
        return low < keyTables.count && keyTables[low].object == node ? keyTables[low].table : nil
    }

    /// Objects with this many members or more are looked up through a `JSONKeyTable` rather than scanned.
    static let keyTableThreshold = 16

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The first node: the document's value.
    static let root = 0

    @inline(__always)
    func kind(_ node: Int) -> Kind {
        nodes[node].kind
    }

    /// The index just past `node` and everything inside it.
    @inline(__always)
    func after(_ node: Int) -> Int {
        switch nodes[node].kind {
        case .array, .object: return Int(nodes[node].end)
        default: return node + 1
        }
    }

    /// Calls `body` with the text of a string (unescaped) or number (its literal) node.
    @inline(__always)
    func withText<Result>(_ node: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let item = nodes[node]
        let range = Int(item.start)..<Int(item.end)
        if item.kind == .escapedString {
            return unescaped.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
        }
        return body(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// The length in bytes of the text of a string (unescaped) or number node.
    @inline(__always)
    func textCount(_ node: Int) -> Int {
        nodes[node].textCount
    }

    /// The text of a string or number node as a Swift string (the parser has checked that it is UTF-8).
    func text(_ node: Int) -> String {
        withText(node) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the string node `node` reads `key`.
    @inline(__always)
    func textEquals(_ node: Int, _ key: String) -> Bool {
        withText(node) { text in
            let utf8 = key.utf8
            guard utf8.count == text.count else { return false }
            return utf8.withContiguousStorageIfAvailable { Self.sameBytes($0, text) } ?? utf8.elementsEqual(text)
        }
    }

    /// Whether the string node `node` reads `key`.
    @inline(__always)
    func textEquals(_ node: Int, _ key: StaticString) -> Bool {
        withText(node) { text in key.withUTF8Buffer { Self.sameBytes($0, text) } }
    }

    /// Whether the string node `node` reads `key`; texts of another length are told apart without reading them.
    @inline(__always)
    func textEquals(_ node: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        nodes[node].textCount == key.count && withText(node) { Self.sameBytes($0, key) }
    }

    /// Whether two string nodes have the same text.
    @inline(__always)
    func textEquals(_ node: Int, _ other: Int) -> Bool {
        nodes[node].textCount == nodes[other].textCount
            && withText(node) { text in withText(other) { Self.sameBytes($0, text) } }
    }

    /// Byte-wise equality, for every key lookup (cheaper than the generic `elementsEqual`). Keys are short,
    /// and most that differ in length or first byte, so those are checked before calling `memcmp`.
    @inline(__always)
    static func sameBytes(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        guard first.count == second.count else { return false }
        guard first.count > 0, let left = first.baseAddress, let right = second.baseAddress else { return true }
        return left[0] == right[0] && memcmp(left, right, first.count) == 0
    }

    /// The members of object `node` as (key node, value node), in document order.
    func members(of node: Int) -> Members {
        Members(tape: self, child: node + 1, end: Int(nodes[node].end))
    }

    /// The members of an object, read off the tape as they are iterated, without building an array of tuples.
    struct Members: Sequence, IteratorProtocol {
        let tape: JSONTape
        fileprivate var child: Int
        fileprivate let end: Int

        mutating func next() -> (key: Int, value: Int)? {
            guard child < end else { return nil }
            defer { child = tape.after(child + 1) }
            return (child, child + 1)
        }
    }

    /// The value node of member `key` of object `node`, or nil when it has none.
    func member(_ key: String, of node: Int) -> Int? {
        var key = key
        return key.withUTF8 { member($0, of: node) }
    }

    /// The value node of the member of object `node` whose key reads `key`, or nil when it has none.
    /// The first members are compared in turn; past `keyTableThreshold` of them the parser's key table answers.
    func member(_ key: UnsafeBufferPointer<UInt8>, of node: Int) -> Int? {
        var child = node + 1
        let end = Int(nodes[node].end)
        var scanned = 0
        while child < end {
            if scanned == Self.keyTableThreshold, let table = keyTable(of: node) {
                return table.find(key, in: self).map { $0 + 1 }
            }
            if textEquals(child, key) { return child + 1 }
            child = after(child + 1)
            scanned += 1
        }
        return nil
    }

    /// The element nodes of array `node`, in order.
    func elements(of node: Int) -> [Int] {
        var result: [Int] = []
        var child = node + 1
        let end = Int(nodes[node].end)
        while child < end {
            result.append(child)
            child = after(child)
        }
        return result
    }

    /// A whole number node that fits in `Int`: a plain integer literal (no fraction or exponent); nil otherwise.
    /// The same rule as `JSONValue.intValue`.
    func intValue(_ node: Int) -> Int? {
        guard nodes[node].kind == .number else { return nil }
        return withText(node) { text -> Int? in
            var digits = text[...]
            let negative = digits.first == UInt8(ascii: "-")
            if negative { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.count <= 18 else {
                return Int(String(decoding: text, as: UTF8.self))  // long: let the standard library check the range
            }
            var value = 0
            for byte in digits {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return negative ? -value : value
        }
    }

    /// `"a string"`, `"a number"`, … as `JSONValue.typeDescription` says it.
    func typeDescription(_ node: Int) -> String {
        switch nodes[node].kind {
        case .null: return "null"
        case .false, .true: return "a boolean"
        case .number: return "a number"
        case .string, .escapedString: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The node and everything in it as a `JSONValue`, for code that edits or rewrites a document.
    /// Recursive, which is safe: the parser already refused nesting deeper than `JSONParser.maximumDepth`.
    func value(_ node: Int) -> JSONValue {
        switch nodes[node].kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(text(node))
        case .string, .escapedString: return .string(text(node))
        case .array: return .array(elements(of: node).map(value))
        case .object: return .object(members(of: node).map { JSONMember(text($0.key), value($0.value)) })
        }
    }
}
