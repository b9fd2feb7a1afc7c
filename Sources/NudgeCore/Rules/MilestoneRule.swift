import FoundationEssentials

/// Streak milestones (docs/files.md, "streaks.json"): when a game's streak, given or derived, first reaches one of
/// `settings.streaks.milestones`, nudge unlocks the achievement itself, "Achievement unlocked: 30-day streak",
/// once per game and milestone.
///
/// Reached milestones are kept in state.json, never in streaks.json, which stays the user's. A streak that jumps
/// past several at once (a given streak typed in, or the first run) announces only the highest; the others are
/// kept as reached, silently, so they never come later.
enum MilestoneRule {
    static func title(days: Int) -> String { "Achievement unlocked: \(days)-day streak" }
    static func body(days: Int, gameName: String) -> String { "\(days) days of \(gameName) in a row" }

    /// `kept` with the milestones newly reached by `streaks` (each game's streak as of the run's local date),
    /// unlocked at `now`. On the first run ever (`announcing` false) they are kept without being announced: like
    /// every occurrence older than the first run (docs/design.md, "When a notification is due"), a streak reached
    /// before nudge ran is not news.
    static func update(_ kept: [Milestone], streaks: [GameStreak], settings: Settings, now: Date,
                       announcing: Bool = true) -> [Milestone] {
        let milestones = settings.streaks.milestones
        guard settings.streaks.enabled, let lowest = milestones.first else { return kept }
        var result = kept
        for streak in streaks where streak.value >= lowest {
            let game = streak.game.id
            // The milestones reached are few: a search of the list costs less than a set of them.
            let highestKept = kept.lazy.filter { $0.game == game }.map(\.days).max() ?? 0
            guard let highest = milestones.last(where: { $0 <= streak.value }), highest > highestKept
                    || !kept.contains(where: { $0.game == game && $0.days == highest }) else { continue }
            for days in milestones where days <= streak.value
                && !kept.contains(where: { $0.game == game && $0.days == days }) {
                let announce = announcing && days == highest && highest > highestKept
                result.append(Milestone(game: game, days: days, announcedAt: announce ? now : nil))
            }
        }
        return result
    }

    /// The achievement of a milestone announced at `unlockedAt`; `gameName` is the name of its game.
    static func achievement(_ milestone: Milestone, unlockedAt: Date, gameName: String,
                            settings: Settings) -> Notification {
        Notification(id: "\(NotificationKind.achievement.rawValue):\(milestone.achievementID)", kind: .achievement,
                     source: milestone.achievementID, fireAt: unlockedAt,
                     expiresAt: unlockedAt.addingTimeInterval(StreakRule.announcementExpiry),
                     title: title(days: milestone.days), body: body(days: milestone.days, gameName: gameName),
                     priority: .low, category: StreakRule.achievementCategory, actions: StreakRule.achievementActions,
                     sound: settings.notifications.sound, badge: settings.notifications.badge, recurrence: .once)
    }
}
