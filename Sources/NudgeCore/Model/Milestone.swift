import FoundationEssentials

/// A streak milestone a game has reached (SPEC §5.6.2), kept in state.json so it is announced once per game and
/// milestone; streaks.json stays the user's.
public struct Milestone: Equatable, Sendable {
    public var game: String
    /// The streak length in days.
    public var days: Int
    /// The run's `now` when the streak first reached it.
    public var unlockedAt: Date
    /// False for a milestone passed in the same jump as a higher one: only the highest is announced.
    public var announced: Bool

    public init(game: String, days: Int, unlockedAt: Date, announced: Bool) {
        self.game = game
        self.days = days
        self.unlockedAt = unlockedAt
        self.announced = announced
    }

    /// `wordle-streak-30`: the achievement's id, the event of its occurrence id.
    public var achievementID: String { "\(game)-streak-\(days)" }
}
