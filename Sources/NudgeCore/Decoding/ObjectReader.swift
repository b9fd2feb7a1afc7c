import Foundation

/// Typed access to the members of one JSON object, reporting problems to its `DocumentReader`.
///
/// Optional members that are absent or `null` take their default; a present member of the wrong type is
/// always a problem, never silently defaulted.
struct ObjectReader {
    let path: KeyPath
    let value: JSONValue
    let document: DocumentReader

    init?(_ value: JSONValue, at path: KeyPath, in document: DocumentReader) {
        guard case .object = value else {
            document.report(path, "expected an object, found \(value.typeDescription)")
            return nil
        }
        self.path = path
        self.value = value
        self.document = document
    }

    /// Records members not in `known` as unknown keys. An array, not a Set: a handful of short keys compare
    /// faster than they hash, and this runs for every object of every file.
    func checkKeys(_ known: [String]) {
        for member in value.objectValue ?? [] where !known.contains(member.key) {
            document.noteUnknown(path.appending(member.key))
        }
    }

    func report(_ key: String, _ message: String) {
        document.report(path.appending(key), message)
    }

    /// The member, or nil when absent or `null`.
    func member(_ key: String) -> JSONValue? {
        guard let member = value[key], !member.isNull else { return nil }
        return member
    }

    func requireMember(_ key: String) -> JSONValue? {
        guard let member = member(key) else {
            document.report(path, "missing required key \"\(key)\"")
            return nil
        }
        return member
    }

    func string(_ key: String) -> String? {
        guard let member = requireMember(key) else { return nil }
        return stringValue(member, key)
    }

    func optionalString(_ key: String) -> String? {
        guard let member = member(key) else { return nil }
        return stringValue(member, key)
    }

    private func stringValue(_ member: JSONValue, _ key: String) -> String? {
        guard let string = member.stringValue else {
            report(key, "expected a string, found \(member.typeDescription)")
            return nil
        }
        return string
    }

    func bool(_ key: String, default fallback: Bool) -> Bool {
        guard let member = member(key) else { return fallback }
        guard let bool = member.boolValue else {
            report(key, "expected true or false, found \(member.typeDescription)")
            return fallback
        }
        return bool
    }

    /// A whole number within `range`; `fallback` when absent (nil fallback makes the key required).
    func int(_ key: String, default fallback: Int?, in range: ClosedRange<Int>) -> Int? {
        guard let member = member(key) else {
            if fallback == nil { document.report(path, "missing required key \"\(key)\"") }
            return fallback
        }
        // Built only for a message: interpolating it for every valid number cost more than the decoding.
        func expected() -> String { "expected a whole number from \(range.lowerBound) to \(range.upperBound)" }
        guard case .number = member else {
            report(key, "\(expected()), found \(member.typeDescription)")
            return nil
        }
        guard let number = member.intValue, range.contains(number) else {
            report(key, "\(DocumentReader.quote(member)) is out of range (\(expected()))")
            return nil
        }
        return number
    }

    /// An `"HH:MM"` wall-clock time; `fallback` when absent (nil fallback makes the key required).
    func wallTime(_ key: String, default fallback: WallTime?) -> WallTime? {
        guard let member = member(key) else {
            if fallback == nil { document.report(path, "missing required key \"\(key)\"") }
            return fallback
        }
        guard let text = stringValue(member, key) else { return nil }
        guard let time = WallTime(parsing: text) else {
            report(key, "\(DocumentReader.quote(member)) is not a time (HH:MM)")
            return nil
        }
        return time
    }

    /// An RFC 3339 instant between the years 2000 and 2200; nil when absent unless `required`.
    func instant(_ key: String, required: Bool) -> Date? {
        guard let member = required ? requireMember(key) : member(key) else { return nil }
        guard let text = stringValue(member, key) else { return nil }
        guard let date = RFC3339.parse(text) else {
            report(key, "\(DocumentReader.quote(member)) is not an RFC 3339 instant (like \"2026-11-21T08:00:00Z\")")
            return nil
        }
        guard InstantBounds.range.contains(date) else {
            report(key, "\(DocumentReader.quote(member)) is outside the years 2000 to 2200")
            return nil
        }
        return date
    }

    /// A list of weekdays (`"mon"`…`"sun"`); every day when absent; an empty list is a problem.
    func weekdays(_ key: String) -> Set<Weekday>? {
        guard let member = member(key) else { return Weekday.everyDay }
        guard let elements = array(member, key) else { return nil }
        guard !elements.isEmpty else {
            report(key, "must list at least one weekday (mon, tue, wed, thu, fri, sat, sun)")
            return nil
        }
        var days = Set<Weekday>()
        var valid = true
        for (index, element) in elements.enumerated() {
            if let text = element.stringValue, let day = Weekday(rawValue: text) {
                days.insert(day)
            } else {
                valid = false
                document.report(path.appending(key).appending(index: index),
                                "\(DocumentReader.quote(element)) is not a weekday (expected one of mon, tue, wed, thu, fri, sat, sun)")
            }
        }
        return valid ? days : nil
    }

    /// A nested object, or nil when absent (or wrong, which is reported).
    func object(_ key: String) -> ObjectReader? {
        guard let member = member(key) else { return nil }
        return ObjectReader(member, at: path.appending(key), in: document)
    }

    /// The elements of an array member with their key paths; empty when absent.
    func elements(_ key: String) -> [(value: JSONValue, path: KeyPath)] {
        guard let member = member(key), let elements = array(member, key) else { return [] }
        let base = path.appending(key)
        return elements.enumerated().map { ($0.element, base.appending(index: $0.offset)) }
    }

    /// Reads every object of the array member `key` with `read`, and reports ids used twice (SPEC: unique ids).
    /// Elements that are invalid are left out (their problems are reported).
    func list<Element>(_ key: String, _ read: (ObjectReader) -> Element?) -> [Element] {
        let elements = elements(key)
        let values = elements.compactMap { element in
            ObjectReader(element.value, at: element.path, in: document).flatMap(read)
        }
        document.checkUnique(elements.compactMap { element in
            element.value["id"]?.stringValue.map { ($0, element.path.appending("id")) }
        })
        return values
    }

    private func array(_ member: JSONValue, _ key: String) -> [JSONValue]? {
        guard let elements = member.arrayValue else {
            report(key, "expected an array, found \(member.typeDescription)")
            return nil
        }
        return elements
    }
}

extension ObjectReader {
    /// An id a person chose (`"snowy"`, `"fajr"`): non-empty, at most 100 characters, letters, digits, `.`, `_`, `-`.
    ///
    /// Ids become part of occurrence ids and deep links (`nudge://laundry/snowy`), so spaces, slashes and colons
    /// are kept out.
    func identifier(_ key: String) -> String? {
        guard let text = string(key) else { return nil }
        let allowed = !text.isEmpty && text.utf8.count <= 400 && text.count <= 100 && text.unicodeScalars.allSatisfy {
            Self.isIdentifierScalar($0)
        }
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

    /// True when `text` has a character other than white space (a title of spaces is empty to a reader).
    static func hasVisibleText(_ text: String) -> Bool {
        text.unicodeScalars.contains { !$0.properties.isWhitespace }
    }
}

extension DocumentReader {
    /// Reports every id that appeared before in the same list, naming the first place it was used.
    func checkUnique(_ ids: [(id: String, path: KeyPath)]) {
        var firstPlace: [String: KeyPath] = [:]
        for (id, path) in ids {
            if let first = firstPlace[id] {
                report(path, "duplicate id \"\(id)\" (already used at \(first))")
            } else {
                firstPlace[id] = path
            }
        }
    }
}
