import FoundationEssentials

/// Streak notifications (docs/files.md): one daily reminder naming the games at risk, and one notification
/// per achievement and per imported result.
public enum StreakRule {
    static let reminderSource = "streaks"
    static let reminderTitle = "Streaks at risk"
    static let reminderCategory = "STREAK_REMINDER"
    static let reminderActions = ["PLAY_NOW", "REMIND_TOMORROW", "MARK_PLAYED"]
    static let achievementCategory = "ACHIEVEMENT"
    static let achievementActions = ["VIEW_ACHIEVEMENT"]
    static let importedTitle = "Result imported"
    static let importedCategory = "RESULT_IMPORTED"
    static let importedActions = ["VIEW_RESULTS"]
    /// Achievements and imports are still worth announcing for a week (docs/design.md, "When a notification is due").
    static let announcementExpiry: TimeInterval = 7 * 86_400

    static func achievementTitle(_ achievement: Achievement) -> String { "Achievement unlocked: \(achievement.title)" }
    static func importedBody(gameName: String, summary: String) -> String { "\(gameName): \(summary)" }

    /// The reminder's body: the games at risk by name, in file order, the streak of one alone as its number.
    /// `PLAY_NOW` opens the first game at risk, so it is offered only when that game has a `url` (docs/files.md).
    static func reminderActions(_ atRisk: [GameStreak]) -> [String] {
        atRisk.first?.game.url == nil ? reminderActions.filter { $0 != "PLAY_NOW" } : reminderActions
    }

    static func reminderBody(_ atRisk: [GameStreak]) -> String {
        let names = atRisk.map(\.game.name)
        switch names.count {
        case 0:
            return ""
        case 1:
            return "Don't lose your \(atRisk[0].value)-day \(names[0]) streak!"
        case 2, 3:
            // Joined by hand: the generic `joined(separator:)` costs a runtime type lookup on a run's first
            // use (about 0.1 ms, a thirtieth of a run).
            let allButLast = names.count == 2 ? names[0] : names[0] + ", " + names[1]
            return "Keep your streaks alive: \(allButLast) and \(names[names.count - 1])."
        default:
            return "\(names.count) streaks at risk: \(names[0]), \(names[1]) and \(names.count - 2) more."
        }
    }

    /// Each game's streak on the local date `date` (today, for `nudge status`), in file order: the given
    /// `streak`, or when the file has none the consecutive local dates with a play ending on `date` if the game
    /// was played on it, else on the date before (docs/files.md, "streaks.json").
    public static func streaks(on date: LocalDate, data: StreakData, clock: WallClock) -> [GameStreak] {
        StreakCalendar(data, clock: clock).streaks(on: date)
    }

    /// The games with a streak to lose (given or derived, > 0) and no play on the local `date`, in file order.
    ///
    /// Any play on that date counts, also one after the reminder time: the streak is safe for the day.
    public static func gamesAtRisk(on date: LocalDate, data: StreakData, clock: WallClock) -> [Game] {
        StreakCalendar(data, clock: clock).atRisk(on: date).map(\.game)
    }

    /// The reminder for a local date at the reminder time (manual or learned), or nil when no game is at risk.
    /// It expires at the end of that local day (docs/design.md, "When a notification is due").
    static func reminder(on date: LocalDate, at time: WallTime, data: StreakData, settings: Settings,
                         clock: WallClock) -> Notification? {
        reminder(on: date, at: time, calendar: StreakCalendar(data, clock: clock), settings: settings)
    }

    /// The same from a calendar made once, for the planner, which asks about date after date.
    static func reminder(on date: LocalDate, at time: WallTime, calendar: StreakCalendar,
                         settings: Settings) -> Notification? {
        let atRisk = calendar.atRisk(on: date)
        guard !atRisk.isEmpty else { return nil }
        let clock = calendar.clock
        return Notification(id: Notification.occurrenceID(.streakReminder, reminderSource, date.description),
                            kind: .streakReminder, source: reminderSource, fireAt: clock.instant(on: date, at: time),
                            expiresAt: clock.endOfDay(date), title: reminderTitle, body: reminderBody(atRisk),
                            priority: .medium, category: reminderCategory, actions: reminderActions(atRisk),
                            sound: settings.notifications.sound, badge: settings.notifications.badge,
                            recurrence: .daily(date: date, time: time))
    }

    /// The one notification of an unlocked achievement, at its own instant.
    static func achievement(_ achievement: Achievement, settings: Settings) -> Notification {
        Notification(id: Notification.occurrenceID(.achievement, achievement.id, "unlocked"), kind: .achievement,
                     source: achievement.id, fireAt: achievement.unlockedAt,
                     expiresAt: achievement.unlockedAt.addingTimeInterval(announcementExpiry),
                     title: achievementTitle(achievement), body: achievement.description, priority: .low,
                     category: achievementCategory, actions: achievementActions,
                     sound: settings.notifications.sound, badge: settings.notifications.badge, recurrence: .once)
    }

    /// The one notification of an imported result, at its own instant; `gameName` is the name of `resultImport.game`.
    static func imported(_ resultImport: ResultImport, gameName: String, settings: Settings) -> Notification {
        Notification(id: Notification.occurrenceID(.imported, resultImport.id, "imported"), kind: .imported,
                     source: resultImport.id, fireAt: resultImport.importedAt,
                     expiresAt: resultImport.importedAt.addingTimeInterval(announcementExpiry),
                     title: importedTitle, body: importedBody(gameName: gameName, summary: resultImport.summary),
                     priority: .low, category: importedCategory, actions: importedActions,
                     sound: settings.notifications.sound, badge: settings.notifications.badge, recurrence: .once)
    }
}
