/// A JSON document as read from a file: objects keep their members in file order.
///
/// Numbers keep the literal text exactly as written (for example `"45"` or
/// `"-1.5e3"`), so rewriting a file never changes how a number is spelled and
/// no precision is lost. Use `intValue` / `doubleValue` to interpret them.
/// Object keys are unique when the value comes from `JSONParser`, which rejects
/// duplicates; `setting(_:to:)` and `removing(_:)` keep them unique.
public enum JSONValue: Equatable, Sendable {
    /// The literal `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, stored as its literal text. It must follow the JSON number
    /// grammar; the writer copies it verbatim.
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object's members in file order.
    case object([JSONMember])
}

extension JSONValue {
    /// The value of member `key` if this is an object that has it; nil otherwise.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key {
            return member.value
        }
        return nil
    }

    /// The string if this is a string.
    var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The boolean if this is `true` or `false`.
    var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The elements if this is an array.
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members, in stored order, if this is an object.
    var objectValue: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Whether this is the literal `null`.
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whole number: a plain integer literal (no fraction, no exponent) that fits in Int;
    /// nil otherwise (e.g. "1e400", "9223372036854775808", "1.5", and also "1.0").
    var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        var digits = Substring(text)
        if digits.first == "-" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int(text)
    }

    /// The number as a Double, or nil if this is not a number or it does not fit
    /// in a finite Double (e.g. "1e400").
    var doubleValue: Double? {
        guard case .number(let text) = self, let double = Double(text), double.isFinite else {
            return nil
        }
        return double
    }

    /// Short name of the JSON type for messages: "null", "a boolean", "a number",
    /// "a string", "an array", "an object".
    var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Returns a copy with member `key` set (replaced in place if present, appended otherwise).
    /// Only meaningful on objects; on other values returns self unchanged.
    func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key, value))
        }
        return .object(members)
    }

    /// Returns a copy without member `key` (objects only; other values are returned unchanged).
    /// The remaining members keep their order.
    func removing(_ key: String) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members.removeAll { $0.key == key }
        return .object(members)
    }
}
