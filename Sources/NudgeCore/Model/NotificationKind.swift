/// The kinds of notification nudge plans (docs/design.md, "What a run plans"); the raw value is the `kind` field.
public enum NotificationKind: String, CaseIterable, Sendable {
    case washComplete = "laundry.washComplete"
    case dryComplete = "laundry.dryComplete"
    case foldReminder = "laundry.foldReminder"
    case almostDone = "laundry.almostDone"
    case laundryHealth = "laundry.health"
    case leave = "commute.leave"
    case arrival = "commute.arrival"
    case personalized = "daily.personalized"
    case prayer = "alarm.prayer"
    /// An alarm that is not a prayer ("Wake up"): its own body, no prayer (docs/files.md, "alarms.json").
    case plainAlarm = "alarm.plain"
    case timerDone = "alarm.timerDone"
    case streakReminder = "streak.reminder"
    case achievement = "streak.achievement"
    case imported = "streak.imported"
    case test
    /// "Missed while away": what a run found expired unseen (`MissedDigest`).
    case missedDigest = "digest.missed"

    /// The part before the dot, used in deep links: `nudge://laundry/snowy`.
    var family: String {
        switch self {
        case .washComplete, .dryComplete, .foldReminder, .almostDone, .laundryHealth: return "laundry"
        case .leave, .arrival: return "commute"
        case .personalized: return "daily"
        case .prayer, .plainAlarm, .timerDone: return "alarm"
        case .streakReminder, .achievement, .imported: return "streak"
        case .test: return "test"
        case .missedDigest: return "digest"
        }
    }
}
