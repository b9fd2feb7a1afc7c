import FoundationEssentials

extension Plan {
    /// Reads a `plan.json` written by `nudge run`, for `nudge plan` to show.
    public static func decode(_ data: [UInt8]) -> Result<Plan, DataProblem> {
        let read = Result { try DocumentReader.read(data, file: "plan.json", decode) }
        return read.mapError { DataProblem($0, file: "plan.json") }
    }

    private static func decode(_ document: DocumentReader) throws -> Plan {
        guard let root = ObjectReader(JSONTape.root, at: .root, in: document),
              let generatedAt = root.instant("generatedAt", required: true),
              let timeZone = root.string("timeZone"),
              let budget = root.object("budget"),
              let pending = budget.int("pending", default: nil, in: 0...Int.max),
              let limit = budget.int("limit", default: nil, in: 1...Int.max) else {
            throw document.problems.first
                ?? DataProblem(file: "plan.json", place: .file, message: "is not a plan written by nudge")
        }
        let records = root.elements("pending").compactMap { Notification(record: document.json($0.node)) }
        let deferred = root.elements("deferred").compactMap { DeferredRecord(record: document.json($0.node)) }
        let nextWakeAt = root.instant("nextWakeAt", required: false)
        if let problem = document.problems.first { throw problem }
        return Plan(generatedAt: generatedAt, timeZone: timeZone,
                    budget: BudgetStatus(pending: pending, limit: limit), pending: records, deferred: deferred,
                    nextWakeAt: nextWakeAt)
    }
}

extension Notification {
    /// Reads a record nudge wrote (plan or outbox); nil when it is not one.
    init?(record: JSONValue) {
        guard let id = record["id"]?.stringValue,
              let kind = record["kind"]?.stringValue.flatMap(NotificationKind.init(rawValue:)),
              let source = record["source"]?.stringValue,
              let fireAt = record["fireAt"]?.stringValue.flatMap(RFC3339.parse),
              let expiresAt = record["expiresAt"]?.stringValue.flatMap(RFC3339.parse),
              let title = record["title"]?.stringValue,
              let body = record["body"]?.stringValue,
              let priority = record["priority"]?.stringValue.flatMap(Priority.init(rawValue:)) else { return nil }
        self.init(id: id, kind: kind, source: source, fireAt: fireAt, expiresAt: expiresAt, title: title, body: body,
                  priority: priority, category: record["category"]?.stringValue ?? "",
                  actions: record["actions"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                  sound: record["sound"]?.boolValue ?? false, badge: record["badge"]?.boolValue ?? false,
                  recurrence: .once)
    }
}
