/// How full the plan is (docs/design.md, "What a run plans"), with the message a person reads.
struct BudgetStatus: Equatable, Sendable {
    enum Level: String, Sendable {
        case healthy, warning, critical, atLimit
    }

    var pending: Int
    var limit: Int
    var level: Level

    init(pending: Int, limit: Int) {
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

    var message: String {
        switch level {
        case .healthy: return "Notification system healthy"
        case .warning: return "Approaching notification limit. Consider completing some cycles."
        case .critical: return "Very close to notification limit. Some notifications may not be scheduled."
        case .atLimit: return "Notification limit reached. Complete cycles to free up space."
        }
    }
}
