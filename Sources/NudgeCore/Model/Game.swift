import FoundationEssentials

/// A game with a daily streak from `streaks.json`.
///
/// `streak` is the user's own count (or their app's) when the file has one: nudge reads it to decide what is at
/// risk and never changes it, not even when a play is recorded (docs/files.md). Without one, nudge derives the
/// streak from the plays (`StreakCalendar`).
public struct Game: Equatable, Sendable {
    public var id: String
    /// The name a person reads in the reminder: "Don't lose your 12-day Wordle streak!".
    public var name: String
    /// Days in a row as given in the file; 0 means there is no streak to lose, so the game is never at risk.
    /// nil: derived from the plays.
    var streak: Int?
    /// Where the game is played (http, https or an app's own scheme): the reminder's "Play Now" opens it.
    public var url: String?

    init(id: String, name: String, streak: Int? = nil, url: String? = nil) {
        self.id = id
        self.name = name
        self.streak = streak
        self.url = url
    }
}
