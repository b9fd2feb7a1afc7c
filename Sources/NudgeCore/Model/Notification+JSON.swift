import FoundationEssentials

extension Notification {
    /// The record as written to `plan.json`, the outbox and `--json` output, fields in the order below.
    var json: JSONValue {
        .object([
            JSONMember("id", .string(id)),
            JSONMember("kind", .string(kind.rawValue)),
            JSONMember("source", .string(source)),
            JSONMember("fireAt", .string(RFC3339.format(fireAt))),
            JSONMember("expiresAt", .string(RFC3339.format(expiresAt))),
            JSONMember("title", .string(title)),
            JSONMember("body", .string(body)),
            JSONMember("priority", .string(priority.rawValue)),
            JSONMember("category", .string(category)),
            JSONMember("actions", .array(actions.map(JSONValue.string))),
            JSONMember("sound", .bool(sound)),
            JSONMember("badge", .bool(badge)),
            JSONMember("deepLink", .string(deepLink)),
        ])
    }
}
