import FoundationEssentials

/// Typed access to the members of one JSON object, reporting problems to its `DocumentReader`.
///
/// Optional members that are absent or `null` take their default; a present member of the wrong type is
/// always a problem, never silently defaulted.
///
/// Members are nodes of the document's tape (`JSONTape`), read in place. The reader's key path is put together
/// only when a problem is reported: for the 500,000 observations of a large `trips.json`, building a path per
/// element cost more than reading the element.
struct ObjectReader {
    let document: DocumentReader
    /// The object's node in the document's tape.
    let node: Int
    /// The path of the object itself, or of the array holding it when `index` is set.
    private let base: KeyPath
    private let index: Int?

    /// Where the object is, for messages.
    var path: KeyPath { index.map { base.appending(index: $0) } ?? base }

    private var tape: JSONTape { document.tape }

    /// The reader of the object `node` at `path`; nil, with the problem reported, when the node is no object.
    init?(_ node: Int, at path: KeyPath, in document: DocumentReader) {
        self.init(node, base: path, index: nil, in: document)
    }

    /// The reader of an array element; nil, with the problem reported, when the element is no object.
    init?(_ element: Element, in document: DocumentReader) {
        self.init(element.node, base: element.base, index: element.index, in: document)
    }

    private init?(_ node: Int, base: KeyPath, index: Int?, in document: DocumentReader) {
        self.document = document
        self.node = node
        self.base = base
        self.index = index
        guard document.tape.kind(node) == .object else {
            document.report(path, "expected an object, found \(document.tape.typeDescription(node))")
            return nil
        }
    }

    /// One element of an array member, with what it takes to name its place.
    struct Element {
        let node: Int
        /// The path of the array.
        let base: KeyPath
        let index: Int

        var path: KeyPath { base.appending(index: index) }
    }

    /// Records members not in `known` as unknown keys. An array, not a Set: a handful of short keys compare
    /// faster than they hash, and this runs for every object of every file. Static strings, so that the
    /// literal list at each call is not built and freed for each object.
    func checkKeys(_ known: [StaticString]) {
        forEachMember(known) { _, _ in }
    }

    /// Calls `body` with the place in `known` and the value node of each member whose key is in `known`, in
    /// document order; the others are recorded as unknown keys.
    ///
    /// Inlined into its callers: a call would pass the document's tape (three arrays), retained and released for
    /// each object, or the reader itself when `body` uses it.
    @inline(__always)
    func forEachMember(_ known: [StaticString], _ body: (_ field: Int, _ value: Int) -> Void) {
        let tape = tape
        var key = node + 1
        let end = tape.after(node)
        while key < end {
            let field = tape.withText(key) { text in
                known.firstIndex { name in
                    name.utf8CodeUnitCount == text.count && name.withUTF8Buffer { JSONTape.sameBytes($0, text) }
                }
            }
            if let field {
                body(field, key + 1)
            } else {
                let name = tape.text(key)
                // Short keys get one edit: two would turn any unknown two-letter key into "did you mean id?".
                let suggestion = Spelling.closest(to: name, among: known.map { $0.description },
                                                  maximumEdits: name.count < 6 ? 1 : 2)
                if let suggestion, tape.member(suggestion, of: node) == nil {
                    document.reportNearMiss(path.appending(name), meant: suggestion, atRoot: node == JSONTape.root)
                } else {
                    document.noteUnknown(path.appending(name), suggestion: suggestion)
                }
            }
            key = tape.after(key + 1)
        }
    }

    func report(_ key: String, _ message: String) {
        document.report(path.appending(key), message)
    }

    /// The member's node, or nil when absent or `null`.
    func member(_ key: String) -> Int? {
        guard let member = tape.member(key, of: node), tape.kind(member) != .null else { return nil }
        return member
    }

    func requireMember(_ key: String) -> Int? {
        required(member(key), key)
    }

    /// `member`, or nil with the missing key reported.
    private func required(_ member: Int?, _ key: String) -> Int? {
        guard let member else {
            document.report(path, "missing required key \"\(key)\"")
            return nil
        }
        return member
    }

    /// The keys and value nodes of every member, in document order, read as iterated (no array of tuples).
    func members() -> Members { Members(members: tape.members(of: node)) }

    struct Members: Sequence, IteratorProtocol {
        fileprivate var members: JSONTape.Members

        mutating func next() -> (key: String, node: Int)? {
            members.next().map { (members.tape.text($0.key), $0.value) }
        }
    }

    // Each typed reader also takes the member's node (nil when absent or `null`) found by `members(_:)`, for
    // objects read in one pass over their members.

    func string(_ key: String) -> String? {
        string(key, at: member(key))
    }

    func string(_ key: String, at member: Int?) -> String? {
        guard let member = required(member, key) else { return nil }
        return stringValue(member, key)
    }

    func optionalString(_ key: String) -> String? {
        guard let member = member(key) else { return nil }
        return stringValue(member, key)
    }

    private func stringValue(_ member: Int, _ key: String) -> String? {
        guard isString(member, key) else { return nil }
        return tape.text(member)
    }

    /// Whether `member` is a string; reports it when not.
    private func isString(_ member: Int, _ key: String) -> Bool {
        switch tape.kind(member) {
        case .string, .escapedString:
            return true
        default:
            report(key, "expected a string, found \(tape.typeDescription(member))")
            return false
        }
    }

    func bool(_ key: String, default fallback: Bool) -> Bool {
        bool(key, at: member(key), default: fallback)
    }

    func bool(_ key: String, at member: Int?, default fallback: Bool) -> Bool {
        guard let member else { return fallback }
        switch tape.kind(member) {
        case .true: return true
        case .false: return false
        default:
            report(key, "expected true or false, found \(tape.typeDescription(member))")
            return fallback
        }
    }

    /// A whole number within `range`; `fallback` when absent (nil fallback makes the key required).
    func int(_ key: String, default fallback: Int?, in range: ClosedRange<Int>) -> Int? {
        int(key, at: member(key), default: fallback, in: range)
    }

    func int(_ key: String, at member: Int?, default fallback: Int?, in range: ClosedRange<Int>) -> Int? {
        guard let member else {
            if fallback == nil { document.report(path, "missing required key \"\(key)\"") }
            return fallback
        }
        // Built only for a message: interpolating it for every valid number cost more than the decoding.
        func expected() -> String { "expected a whole number from \(range.lowerBound) to \(range.upperBound)" }
        guard tape.kind(member) == .number else {
            report(key, "\(expected()), found \(tape.typeDescription(member))")
            return nil
        }
        guard let number = tape.intValue(member), range.contains(number) else {
            report(key, "\(document.quote(member)) is out of range (\(expected()))")
            return nil
        }
        return number
    }

    /// An `"HH:MM"` wall-clock time; `fallback` when absent (nil fallback makes the key required).
    func wallTime(_ key: String, default fallback: WallTime?) -> WallTime? {
        wallTime(key, at: member(key), default: fallback)
    }

    func wallTime(_ key: String, at member: Int?, default fallback: WallTime?) -> WallTime? {
        guard let member else {
            if fallback == nil { document.report(path, "missing required key \"\(key)\"") }
            return fallback
        }
        guard isString(member, key) else { return nil }
        guard let time = tape.withText(member, WallTime.init(parsing:)) else {
            report(key, "\(document.quote(member)) is not a time (HH:MM)")
            return nil
        }
        return time
    }

    /// An RFC 3339 instant between the years 2000 and 2200; nil when absent unless `required`.
    func instant(_ key: String, required: Bool) -> Date? {
        guard let member = required ? requireMember(key) : member(key) else { return nil }
        guard isString(member, key) else { return nil }
        guard let date = tape.withText(member, RFC3339.parse(bytes:)) else {
            report(key, "\(document.quote(member)) is not an RFC 3339 instant (like \"2026-11-21T08:00:00Z\")")
            return nil
        }
        guard InstantBounds.range.contains(date) else {
            report(key, "\(document.quote(member)) is outside the years 2000 to 2200")
            return nil
        }
        return date
    }

    /// A list of weekdays (`"mon"`…`"sun"`); every day when absent; an empty list is a problem.
    func weekdays(_ key: String) -> Weekdays? {
        weekdays(key, at: member(key))
    }

    func weekdays(_ key: String, at member: Int?) -> Weekdays? {
        guard let member else { return Weekdays.everyDay }
        guard let elements = array(member, key) else { return nil }
        guard !elements.isEmpty else {
            report(key, "must list at least one weekday (mon, tue, wed, thu, fri, sat, sun)")
            return nil
        }
        var days = Weekdays()
        var valid = true
        for (index, element) in elements.enumerated() {
            if let text = document.string(element), let day = Weekday(rawValue: text) {
                days.insert(day)
            } else {
                valid = false
                document.report(path.appending(key).appending(index: index),
                                "\(document.quote(element)) is not a weekday (expected one of mon, tue, wed, thu, fri, sat, sun)")
            }
        }
        return valid ? days : nil
    }

    /// A nested object, or nil when absent (or wrong, which is reported).
    func object(_ key: String) -> ObjectReader? {
        guard let member = member(key) else { return nil }
        return ObjectReader(member, at: path.appending(key), in: document)
    }

    /// The elements of an array member; empty when absent (or not an array, which is reported).
    func elements(_ key: String) -> [Element] {
        guard let member = member(key), let elements = array(member, key) else { return [] }
        let base = path.appending(key)
        // Mapped over the indices, a collection, so that the result is allocated once at its size.
        return elements.indices.map { Element(node: elements[$0], base: base, index: $0) }
    }

    /// Reads every object of the array member `key` with `read`. Each is an entry that stands alone (docs/promises.md):
    /// one with a problem of its own is left out and set aside (`DocumentReader.brokenEntries`) with its problems
    /// reported, and the others are read as usual. Entries that share an `id` are all set aside: which of them is
    /// the mistake cannot be told, and the id plans from its last good version.
    ///
    /// The readers passed as `read` (`Alarm.init`, `Trip.init` …) take the object `borrowing`: an initializer
    /// owns its arguments by default, which would copy each element's reader for it (its document and path
    /// retained, then released).
    func list<Value>(_ key: String, _ read: (ObjectReader) -> Value?) -> [Value] {
        let elements = elements(key)
        var values: [Value] = []
        values.reserveCapacity(elements.count)
        let shared = sharedIDs(elements)
        for index in elements.indices {
            let start = document.problems.count
            // Appended from the binding that reads it: a second binding of the value would copy each one.
            if let object = ObjectReader(elements[index], in: document), let value = read(object),
               shared[index] == nil, !document.hasOwnProblems(since: start) {
                values.append(value)
            } else {
                // The id is looked up only where it is written, not for every entry of a list of thousands.
                if let others = shared[index] {
                    let id = document.idNode(of: elements[index].node)
                    let places = others.map { elements[$0].path.appending("id").description }.joined(separator: ", ")
                    document.report(elements[index].path.appending("id"),
                                    "duplicate id \"\(tape.text(id ?? 0))\" (also used at \(places))")
                }
                let id = document.idNode(of: elements[index].node)
                document.setAside(BrokenEntry(list: elements[index].base, index: index, id: id.map(tape.text)),
                                  problemsSince: start)
            }
        }
        return values
    }

    /// For each element whose `id` another element also uses, the indices of those others; empty when all ids
    /// are unique (the usual case: one pass over the ids, hashed by their bytes in a `JSONKeyTable`).
    private func sharedIDs(_ elements: [Element]) -> [Int: [Int]] {
        var seen = JSONKeyTable(capacity: elements.count)
        // By index: `for element in` would copy each element (retaining its path) to read its node.
        let hasDuplicates = elements.indices.contains { index in
            document.idNode(of: elements[index].node).map { seen.insert($0, in: tape) != nil } ?? false
        }
        guard hasDuplicates else { return [:] }
        var byID: [String: [Int]] = [:]
        for index in elements.indices {
            if let id = document.idNode(of: elements[index].node) { byID[tape.text(id), default: []].append(index) }
        }
        var shared: [Int: [Int]] = [:]
        for indices in byID.values where indices.count > 1 {
            for index in indices { shared[index] = indices.filter { $0 != index } }
        }
        return shared
    }

    private func array(_ member: Int, _ key: String) -> [Int]? {
        guard tape.kind(member) == .array else {
            report(key, "expected an array, found \(tape.typeDescription(member))")
            return nil
        }
        return tape.elements(of: member)
    }
}

extension ObjectReader {
    /// An id a person chose (`"snowy"`, `"fajr"`): non-empty, at most 100 characters, letters, digits, `.`, `_`, `-`.
    ///
    /// Ids become part of occurrence ids and deep links (`nudge://laundry/snowy`), so spaces, slashes and colons
    /// are kept out.
    func identifier(_ key: String) -> String? {
        identifier(key, at: member(key))
    }

    func identifier(_ key: String, at member: Int?) -> String? {
        guard let member = required(member, key), isString(member, key) else { return nil }
        // Nearly every id is plain ASCII, where a byte is a character: checked on the file's bytes, without
        // counting graphemes.
        let plainASCII = tape.withText(member) { bytes in bytes.allSatisfy(Self.isIdentifierASCII) }
        if plainASCII, (1...100).contains(tape.textCount(member)) { return tape.text(member) }
        let text = tape.text(member)
        let allowed = !text.isEmpty && text.utf8.count <= 400
            && (plainASCII ? text.utf8.count <= 100 : text.count <= 100 && text.unicodeScalars.allSatisfy {
                Self.isIdentifierScalar($0)
            })
        guard allowed else {
            report(key, "\(DocumentReader.quote(.string(text))) is not a valid id (use 1 to 100 letters, digits, '.', '_' or '-')")
            return nil
        }
        return text
    }
}

extension ObjectReader {
    /// ASCII letters, digits, `-`, `_`, `.` on the fast path; any other alphabetic scalar (ids in any script).
    static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F: return true
        case 0..<0x80: return false
        default: return scalar.properties.isAlphabetic
        }
    }

    /// An ASCII letter, digit, `-`, `_` or `.`: `isIdentifierScalar` of a byte below 0x80; false for any other byte.
    @inline(__always)
    static func isIdentifierASCII(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F: return true
        default: return false
        }
    }

    /// True when `text` has a character other than white space (a title of spaces is empty to a reader).
    static func hasVisibleText(_ text: String) -> Bool {
        // A leading ASCII byte other than tab, LF, VT, FF, CR and space (the ASCII white space of Unicode) answers
        // at once; the Unicode property lookup cost more than the rest of reading a title.
        for byte in text.utf8 {
            if byte >= 0x80 { break }
            if byte != 0x20, !(0x09...0x0D).contains(byte) { return true }
        }
        return text.unicodeScalars.contains { !$0.properties.isWhitespace }
    }
}

extension DocumentReader {
    /// The `id` member of the object `node` when it is a string; nil otherwise. Ids are compared by their bytes
    /// in the file (hashed in a `JSONKeyTable`); strings are built only for a message.
    func idNode(of node: Int) -> Int? {
        guard tape.kind(node) == .object,
              let id = StaticString("id").withUTF8Buffer({ tape.member($0, of: node) }) else { return nil }
        switch tape.kind(id) {
        case .string, .escapedString: return id
        default: return nil
        }
    }
}
