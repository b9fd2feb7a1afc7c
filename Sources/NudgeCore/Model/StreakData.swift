import FoundationEssentials

/// The whole of `streaks.json` (docs/files.md): games with their streaks, the plays, achievements and imports.
///
/// Every list keeps the file's order; the reminder names games at risk in that order.
public struct StreakData: Equatable, Sendable {
    public var games: [Game]
    var plays: [Play]
    var achievements: [Achievement]
    var imports: [ResultImport]

    init(games: [Game] = [], plays: [Play] = [], achievements: [Achievement] = [],
         imports: [ResultImport] = []) {
        self.games = games
        self.plays = plays
        self.achievements = achievements
        self.imports = imports
    }

    /// The game with `id`, if the file lists it (a valid file always does for plays and imports).
    func game(withID id: String) -> Game? {
        games.first { $0.id == id }
    }
}
