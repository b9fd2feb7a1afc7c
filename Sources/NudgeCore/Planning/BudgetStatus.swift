/// How full the plan is (docs/design.md, "What a run plans"), with the message a person reads.
public struct BudgetStatus: Equatable, Sendable {
    public enum Level: String, Sendable {
        case healthy, warning, critical, atLimit
    }

    public var pending: Int
    public var limit: Int
    public var level: Level

    public init(pending: Int, limit: Int) {
        self.pending = pending
        self.limit = limit
        // Thresholds scale with the limit: 64 gives 50, 60 and 64; the higher status wins.
        if pending >= limit {
            level = .atLimit
        } else if pending * 64 >= limit * 60 {
            level = .critical
        } else if pending * 64 >= limit * 50 {
            level = .warning
        } else {
            level = .healthy
        }
    }

    public var message: String {
        switch level {
        case .healthy: return "Notification system healthy"
        case .warning: return "Approaching notification limit. Consider completing some cycles."
        case .critical: return "Very close to notification limit. Some notifications may not be scheduled."
        case .atLimit: return "Notification limit reached. Complete cycles to free up space."
        }
    }
}
