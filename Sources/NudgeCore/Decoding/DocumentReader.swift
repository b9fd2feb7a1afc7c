import FoundationEssentials

/// Reads typed values out of one parsed JSON document, recording every problem with its key path
/// instead of stopping at the first, so `nudge check` can list them all.
///
/// A reader exists only inside `DocumentReader.read`: its tape borrows the bytes of the file being read.
final class DocumentReader {
    let file: String
    let tape: JSONTape
    private(set) var problems: [DataProblem] = []
    /// How many of `problems`, from the first, belong to entries already set aside, and which of the later ones
    /// do (an inner list sets its own broken entries aside inside an outer entry): `isClaimed`.
    private var claimed: [Bool] = []
    /// The entries of lists that were left out for their problems (`ObjectReader.list`): each takes down only
    /// itself (docs/promises.md).
    private(set) var brokenEntries: [BrokenEntry] = []
    /// Key paths of members nudge does not know; reported as warnings by `nudge check` only.
    private(set) var unknownKeys: [KeyPath] = []
    /// Unknown key path (as text) → the known key of the same object it is probably a misspelling of.
    private(set) var suggestions: [String: String] = [:]

    private init(file: String, tape: JSONTape) {
        self.file = file
        self.tape = tape
    }

    /// Parses a file's bytes and hands the document to `read`, which must not keep the reader.
    ///
    /// Throws rather than returning a `Result`: every generic `Result` type a run touches is built by the
    /// runtime on first use, a search through all conformances of the program (about 40 µs each).
    ///
    /// - Throws: a `DataProblem` for a syntax error, with its line and column; otherwise what `read` throws
    ///   (the decoders throw `DataProblem`s).
    static func read<Value>(_ data: [UInt8], file: String,
                            _ read: (DocumentReader) throws -> Value) throws -> Value {
        do {
            return try JSONParser.withTape(data) { try read(DocumentReader(file: file, tape: $0)) }
        } catch let error as JSONSyntaxError {
            throw DataProblem(file: file, place: .position(line: error.line, column: error.column),
                              message: error.message)
        }
    }

    func report(_ path: KeyPath, _ message: String) {
        problems.append(DataProblem(file: file, place: .keyPath(path), message: message))
        claimed.append(false)
    }

    /// Whether a problem reported since the `start`th one belongs to no entry set aside: it is the reader's own.
    func hasOwnProblems(since start: Int) -> Bool {
        claimed[start...].contains(false)
    }

    /// Whether every problem so far belongs to an entry that was set aside: the rest of the document stands.
    var standsWithoutBrokenEntries: Bool { !hasOwnProblems(since: 0) }

    /// Sets an entry aside: the problems since the `start`th one are its own, and it is left out.
    func setAside(_ entry: BrokenEntry, problemsSince start: Int) {
        for index in start..<claimed.count { claimed[index] = true }
        brokenEntries.append(entry)
    }

    func noteUnknown(_ path: KeyPath, suggestion: String?) {
        unknownKeys.append(path)
        if let suggestion { suggestions[path.description] = suggestion }
    }

    /// The top-level object of a user file; `"version": 1` is accepted there, and `null` as no version, as for
    /// any optional key (docs/files.md).
    func root(knownKeys: [StaticString]) -> ObjectReader? {
        guard let root = ObjectReader(JSONTape.root, at: .root, in: self) else { return nil }
        root.checkKeys(knownKeys + ["version"])
        if let version = root.member("version"), tape.intValue(version) != 1 {
            report(KeyPath.root.appending("version"), "\(quote(version)) is not a supported version (expected 1)")
        }
        return root
    }

    /// A near miss of a known key that the object lacks (`"dekstop"` where `"desktop"` belongs, `"offset"` for
    /// `"offsetMinutes"`): a mistake, not a note of the person's, so an error of the entry or setting it is in
    /// (docs/promises.md), which then falls back as any invalid one does. At the top level it is reported once the
    /// file is read (`reportRootNearMisses`), where the file's lists are known.
    func reportNearMiss(_ path: KeyPath, meant: String, atRoot: Bool) {
        noteUnknown(path, suggestion: meant)
        if !atRoot {
            report(path, "unknown key where \"\(meant)\" belongs (did you mean \(meant)?); a key this close to a known "
                + "one is read as a mistake, not as a note of yours")
        }
    }

    /// Reports each unknown top-level key that is a near miss of an absent known key. One where a list belongs
    /// (`"alarm"` for `"alarms"`) says why the file is broken rather than empty: read without its list, it would
    /// plan nothing at all, so its last good version stands in (docs/promises.md).
    func reportRootNearMisses(lists: [StaticString]) {
        for path in unknownKeys {
            guard path.topLevelKey != nil, let meant = suggestions[path.description],
                  tape.member(meant, of: JSONTape.root) == nil else { continue }
            if lists.contains(where: { $0.description == meant }) {
                report(path, "unknown key where \"\(meant)\" belongs (did you mean \(meant)?); without \"\(meant)\" "
                    + "nothing of \(file) would be planned, so the file is read as broken, not as empty")
            } else {
                report(path, "unknown key where \"\(meant)\" belongs (did you mean \(meant)?); a key this close to "
                    + "a known one is read as a mistake, not as a note of yours")
            }
        }
    }

    /// The text of a string node; nil for any other kind.
    func string(_ node: Int) -> String? {
        switch tape.kind(node) {
        case .string, .escapedString: return tape.text(node)
        default: return nil
        }
    }

    /// The string member `key` of the object `node`; nil when `node` is no object or the member no string.
    func stringMember(_ key: String, of node: Int) -> String? {
        guard tape.kind(node) == .object, let member = tape.member(key, of: node) else { return nil }
        return string(member)
    }

    /// The node as a `JSONValue`, for records read as a whole (`Notification(record:)`).
    func json(_ node: Int) -> JSONValue {
        tape.value(node)
    }

    /// `quote` of a node; arrays and objects are named, never built.
    func quote(_ node: Int) -> String {
        switch tape.kind(node) {
        case .array: return "an array"
        case .object: return "an object"
        default: return Self.quote(tape.value(node))
        }
    }

    /// A short rendering of an offending value for messages: strings quoted, long values cut.
    static func quote(_ value: JSONValue) -> String {
        let text: String
        switch value {
        case .string(let string): text = value.compactText.count <= 60 ? value.compactText : "\"\(string.prefix(40))…\""
        case .number(let literal): text = literal.count <= 40 ? literal : String(literal.prefix(40)) + "…"
        case .bool, .null: text = value.compactText
        case .array: text = "an array"
        case .object: text = "an object"
        }
        return text
    }
}
