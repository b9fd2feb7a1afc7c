/// How much a notification matters (docs/design.md, "What a run plans"): the budget keeps higher ones first; quiet
/// hours never move `critical` or `high`.
public enum Priority: String, CaseIterable, Sendable, Comparable {
    /// A timer the user started completes, or the user's own alarm.
    case critical
    /// Advance warnings and leave-times.
    case high
    /// Health warnings, fold reminders, the streak reminder.
    case medium
    /// Informational: the personalized message, achievements, imports.
    case low

    /// Orders by importance: `critical < high` means critical comes first.
    public static func < (lhs: Priority, rhs: Priority) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .critical: return 0
        case .high: return 1
        case .medium: return 2
        case .low: return 3
        }
    }
}
