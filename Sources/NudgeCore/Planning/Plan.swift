import FoundationEssentials

/// The pending plan written to `plan.json` (SPEC §4).
public struct Plan: Equatable, Sendable {
    public var generatedAt: Date
    public var timeZone: String
    public var budget: BudgetStatus
    /// Sorted by fireAt, then id.
    public var pending: [Notification]
    /// Left out by the budget, sorted like `pending`.
    public var deferred: [Notification]

    public init(generatedAt: Date, timeZone: String, budget: BudgetStatus, pending: [Notification],
                deferred: [Notification]) {
        self.generatedAt = generatedAt
        self.timeZone = timeZone
        self.budget = budget
        self.pending = pending
        self.deferred = deferred
    }

    /// The earliest fireAt in `pending`: when a timer that wants to wake exactly then should wake.
    public var nextWakeAt: Date? { pending.first?.fireAt }

    /// The plan as a JSON value (`fileContent` writes the same text directly).
    public var json: JSONValue {
        .object([
            JSONMember("generatedAt", .string(RFC3339.format(generatedAt))),
            JSONMember("timeZone", .string(timeZone)),
            JSONMember("budget", .object([
                JSONMember("pending", .number(String(budget.pending))),
                JSONMember("limit", .number(String(budget.limit))),
                JSONMember("status", .string(budget.level.rawValue)),
                JSONMember("message", .string(budget.message)),
            ])),
            JSONMember("pending", .array(pending.map(\.json))),
            JSONMember("deferred", .array(deferred.map { $0.json.setting("reason", to: .string("budget")) })),
            JSONMember("nextWakeAt", nextWakeAt.map { .string(RFC3339.format($0)) } ?? .null),
        ])
    }

}
