import FoundationEssentials

/// A streak milestone a game has reached (docs/files.md), kept in state.json so it is announced once per game and
/// milestone; streaks.json stays the user's.
struct Milestone: Equatable, Sendable {
    var game: String
    /// The streak length in days.
    var days: Int
    /// The run's `now` when the streak reached it and it was announced; nil for a milestone kept silently (passed
    /// in the same jump as a higher one, or before nudge first ran). Only then is it written with an instant.
    var announcedAt: Date?

    init(game: String, days: Int, announcedAt: Date?) {
        self.game = game
        self.days = days
        self.announcedAt = announcedAt
    }

    /// `wordle-streak-30`: the achievement's id, the event of its occurrence id.
    var achievementID: String { "\(game)-streak-\(days)" }
}
