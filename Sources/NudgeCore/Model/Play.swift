import FoundationEssentials

/// One time a game was played (docs/files.md). Plays protect the day's streak and teach the smart reminder time.
public struct Play: Equatable, Sendable {
    /// The id of a game in the same file.
    public var game: String
    public var at: Date

    public init(game: String, at: Date) {
        self.game = game
        self.at = at
    }
}
