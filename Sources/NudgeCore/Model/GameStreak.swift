import FoundationEssentials

/// A game's streak on a local date as nudge uses it (docs/files.md): the `streak` given in `streaks.json`, or the
/// one derived from the plays when the file has none. `nudge status` shows both and which it is.
public struct GameStreak: Equatable, Sendable {
    var game: Game
    /// Days in a row; 0 means there is no streak to lose.
    var value: Int
    /// True when derived from the plays, false when given in the file.
    var isDerived: Bool

    init(game: Game, value: Int, isDerived: Bool) {
        self.game = game
        self.value = value
        self.isDerived = isDerived
    }
}
