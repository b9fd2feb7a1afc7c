import FoundationEssentials

/// A game result imported from elsewhere (docs/files.md, "streaks.json"); confirmed once, at `importedAt`.
public struct ResultImport: Equatable, Sendable {
    public var id: String
    /// The id of a game in the same file.
    var game: String
    public var importedAt: Date
    /// The result as the game shows it, e.g. "3/6"; the body reads "Wordle: 3/6".
    public var summary: String

    init(id: String, game: String, importedAt: Date, summary: String) {
        self.id = id
        self.game = game
        self.importedAt = importedAt
        self.summary = summary
    }
}
