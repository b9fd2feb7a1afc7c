/// The kinds of notification nudge plans (SPEC §5); the raw value is the `kind` field.
public enum NotificationKind: String, CaseIterable, Sendable {
    case washComplete = "laundry.washComplete"
    case dryComplete = "laundry.dryComplete"
    case foldReminder = "laundry.foldReminder"
    case almostDone = "laundry.almostDone"
    case laundryHealth = "laundry.health"
    case leave = "commute.leave"
    case personalized = "daily.personalized"
    case prayer = "alarm.prayer"
    case streakReminder = "streak.reminder"
    case achievement = "streak.achievement"
    case imported = "streak.imported"
    case test

    /// The part before the dot, used in deep links: `nudge://laundry/snowy`.
    public var family: String {
        rawValue.split(separator: ".").first.map(String.init) ?? rawValue
    }
}
