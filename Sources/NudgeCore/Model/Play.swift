import FoundationEssentials

/// One time a game was played (docs/files.md). Plays protect the day's streak and teach the smart reminder time.
struct Play: Equatable, Sendable {
    /// The id of a game in the same file.
    var game: String
    var at: Date

    init(game: String, at: Date) {
        self.game = game
        self.at = at
    }
}
