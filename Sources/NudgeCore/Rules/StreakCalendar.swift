import FoundationEssentials

/// The games of `streaks.json` and their plays on the local calendar of one zone: each game's streak on a local
/// date and the games at risk on it (docs/files.md, "streaks.json").
///
/// A game without a `streak` in the file has it derived from its plays, by the local dates of the current zone
/// (after travel, too: a play counts on the date it falls on here). Those dates are worked out once, when the
/// calendar is made — one zone look-up per play of such a game — so that each date asked about costs a set
/// look-up per day of the streak, not a pass over every play (the planner asks about every date it walks, and
/// plays can number 100,000). A game with a given streak needs only whether it was played on the date asked
/// about: its plays are never all placed on the calendar, and only those near that date cost a zone look-up.
struct StreakCalendar: Sendable {
    let data: StreakData
    let clock: WallClock
    /// The local dates with at least one play, for each game whose streak is derived.
    private let playedDates: [String: Set<LocalDate>]
    /// How far around a local date a play can lie and still fall on it: offsets differ by at most a day.
    private static let playMargin: TimeInterval = 2 * 86_400

    init(_ data: StreakData, clock: WallClock) {
        self.data = data
        self.clock = clock
        let derived = Set(data.games.lazy.filter { $0.streak == nil }.map(\.id))
        var playedDates: [String: Set<LocalDate>] = [:]
        if !derived.isEmpty {
            for play in data.plays where derived.contains(play.game) {
                playedDates[play.game, default: []].insert(clock.localDate(of: play.at))
            }
        }
        self.playedDates = playedDates
    }

    /// Each game's streak on the local date `date`, in file order. A derived streak counts the consecutive
    /// dates with a play that end on `date` when the game was played on it, else on the date before: a streak
    /// is not lost until a whole day passes without a play.
    func streaks(on date: LocalDate) -> [GameStreak] {
        data.games.map { game in
            guard let given = game.streak else {
                let today = run(of: game.id, endingOn: date)
                let value = today > 0 ? today : run(of: game.id, endingOn: date.adding(days: -1))
                return GameStreak(game: game, value: value, isDerived: true)
            }
            return GameStreak(game: game, value: given, isDerived: false)
        }
    }

    /// The games with a streak to lose and no play on the local date `date`, in file order, with that streak.
    /// A derived one is the run ending the date before (the game has no play on `date`); a derived 0 is never
    /// at risk, nor is a given 0.
    ///
    /// Any play on that date counts, also one after the reminder time: the streak is safe for the
    /// day.
    func atRisk(on date: LocalDate) -> [GameStreak] {
        var atRisk: [GameStreak] = []
        for game in data.games {
            if let given = game.streak {
                if given > 0 { atRisk.append(GameStreak(game: game, value: given, isDerived: false)) }
            } else if playedDates[game.id]?.contains(date) != true {
                let value = run(of: game.id, endingOn: date.adding(days: -1))
                if value > 0 { atRisk.append(GameStreak(game: game, value: value, isDerived: true)) }
            }
        }
        let given = atRisk.filter { !$0.isDerived }.map(\.game.id)
        guard !given.isEmpty else { return atRisk }
        let played = playedGames(among: Set(given), on: date)
        return atRisk.filter { $0.isDerived || !played.contains($0.game.id) }
    }

    /// Of `games`, those with a play on the local date `date`. Cheap instant bounds first, so only plays near
    /// the date cost a zone look-up.
    private func playedGames(among games: Set<String>, on date: LocalDate) -> Set<String> {
        let after = clock.startOfDay(date).addingTimeInterval(-Self.playMargin)
        let before = clock.endOfDay(date).addingTimeInterval(Self.playMargin)
        var played = Set<String>()
        for play in data.plays where play.at >= after && play.at < before && games.contains(play.game)
            && !played.contains(play.game) {
            if clock.localDate(of: play.at) == date {
                played.insert(play.game)
                if played.count == games.count { break }
            }
        }
        return played
    }

    /// The number of consecutive local dates with a play of the derived game `game`, ending on `last`.
    private func run(of game: String, endingOn last: LocalDate) -> Int {
        guard let dates = playedDates[game] else { return 0 }
        var count = 0
        var date = last
        // Bounded by the dates there are, so a date pinned at the end of the supported range cannot loop.
        while count < dates.count, dates.contains(date) {
            count += 1
            date = date.adding(days: -1)
        }
        return count
    }
}
