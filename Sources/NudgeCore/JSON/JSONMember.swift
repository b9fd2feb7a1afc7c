/// One `"key": value` pair of a JSON object.
///
/// Objects are stored as arrays of members (see `JSONValue.object`) so that the
/// order the user wrote them in survives a read-modify-write cycle.
public struct JSONMember: Equatable, Sendable {
    /// The member name, unescaped.
    var key: String
    /// The member value.
    var value: JSONValue

    /// Creates a member; unlabeled so that literals read like JSON: `JSONMember("a", .null)`.
    init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
