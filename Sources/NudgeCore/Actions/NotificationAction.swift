/// The actions a delivered notification offers (docs/design.md, "Acting on a delivery"), by their identifiers in the
/// record's `actions`.
public enum NotificationAction: String, CaseIterable, Sendable {
    case snoozeAction = "SNOOZE_ACTION"
    case snooze = "SNOOZE"
    case complete = "COMPLETE_ACTION"
    case startTimer = "START_TIMER"
    case markPlayed = "MARK_PLAYED"
    case remindTomorrow = "REMIND_TOMORROW"
    case playNow = "PLAY_NOW"
    case viewAchievement = "VIEW_ACHIEVEMENT"
    case viewResults = "VIEW_RESULTS"
    case leavingNow = "LEAVING_NOW"
    case arrived = "ARRIVED"

    /// The button's label on a notification of `kind`, or nil when the action does nothing on this machine for
    /// that kind (no button, and `nudge act` refuses it).
    public func label(on kind: NotificationKind) -> String? {
        switch (self, kind) {
        case (.snoozeAction, _) where kind.family == "laundry" && kind != .laundryHealth:
            return "Remind in 10 min"
        case (.snooze, .prayer), (.snooze, .plainAlarm), (.snooze, .leave):
            return "Snooze"
        case (.complete, .washComplete):
            return "Start Dryer"
        case (.complete, .dryComplete), (.complete, .foldReminder):
            return "Mark Folded"
        case (.startTimer, .prayer):
            return "Start Timer"
        case (.markPlayed, .streakReminder):
            return "Mark as Played"
        case (.remindTomorrow, .streakReminder):
            return "Remind Tomorrow"
        case (.playNow, .streakReminder):
            return "Play Now"
        case (.leavingNow, .leave):
            return "Leaving now"
        case (.arrived, .arrival):
            return "I'm here"
        default:
            return nil
        }
    }

    /// The buttons of a notification: its actions that do something on this machine, in the record's order,
    /// with their labels. `canPlay` says whether the first game at risk has a `url` (`PLAY_NOW` opens it).
    public static func buttons(for notification: Notification, canPlay: Bool) -> [(action: Self, label: String)] {
        notification.actions.compactMap { name in
            guard let action = Self(rawValue: name), let label = action.label(on: notification.kind),
                  action != .playNow || canPlay else { return nil }
            return (action, label)
        }
    }
}
