import FoundationEssentials

/// Streak milestones (SPEC §5.6.2, §11.38): when a game's streak, given or derived, first reaches one of
/// `settings.streaks.milestones`, nudge unlocks the achievement itself, "Achievement unlocked: 30-day streak",
/// once per game and milestone.
///
/// Reached milestones are kept in state.json, never in streaks.json, which stays the user's. A streak that jumps
/// past several at once (a given streak typed in, or the first run) announces only the highest; the others are
/// kept as reached, silently, so they never come later.
public enum MilestoneRule {
    static func title(days: Int) -> String { "Achievement unlocked: \(days)-day streak" }
    static func body(days: Int, gameName: String) -> String { "\(days) days of \(gameName) in a row" }

    /// `kept` with the milestones newly reached by `streaks` (each game's streak as of the run's local date),
    /// unlocked at `now`. On the first run ever (`announcing` false) they are kept without being announced: like
    /// every occurrence older than the first run (SPEC §7), a streak reached before nudge ran is not news.
    public static func update(_ kept: [Milestone], streaks: [GameStreak], settings: Settings, now: Date,
                              announcing: Bool = true) -> [Milestone] {
        guard settings.streaks.enabled, !settings.streaks.milestones.isEmpty else { return kept }
        var result = kept
        for streak in streaks where streak.value > 0 {
            let game = streak.game.id
            let reached = Set(kept.lazy.filter { $0.game == game }.map(\.days))
            let new = settings.streaks.milestones.filter { $0 <= streak.value && !reached.contains($0) }
            guard let highest = new.last else { continue }
            let announce = announcing && reached.allSatisfy { $0 < highest }
            for days in new {
                result.append(Milestone(game: game, days: days, unlockedAt: now, announced: announce && days == highest))
            }
        }
        return result
    }

    /// The achievement of a milestone, at the instant it was reached; `gameName` is the name of its game.
    public static func achievement(_ milestone: Milestone, gameName: String, settings: Settings) -> Notification {
        Notification(id: "\(NotificationKind.achievement.rawValue):\(milestone.achievementID)", kind: .achievement,
                     source: milestone.achievementID, fireAt: milestone.unlockedAt,
                     expiresAt: milestone.unlockedAt.addingTimeInterval(StreakRule.announcementExpiry),
                     title: title(days: milestone.days), body: body(days: milestone.days, gameName: gameName),
                     priority: .low, category: StreakRule.achievementCategory, actions: StreakRule.achievementActions,
                     sound: settings.notifications.sound, badge: settings.notifications.badge, recurrence: .once)
    }
}
