import Foundation

/// A game with a daily streak from `streaks.json` (SPEC §5.6).
///
/// `streak` is the user's own count (or their app's): nudge reads it to decide what is at risk and never
/// changes it, not even when a play is recorded (SPEC §11.17).
public struct Game: Equatable, Sendable {
    public var id: String
    /// The name a person reads in the reminder: "Don't lose your 12-day Wordle streak!".
    public var name: String
    /// Days in a row; 0 means there is no streak to lose, so the game is never at risk.
    public var streak: Int

    public init(id: String, name: String, streak: Int = 0) {
        self.id = id
        self.name = name
        self.streak = streak
    }
}
