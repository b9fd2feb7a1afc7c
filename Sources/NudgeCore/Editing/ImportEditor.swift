import FoundationEssentials

/// `nudge import`: a game's result from its share text into `streaks.json` (docs/files.md): an `imports` entry and a
/// play at the same instant, keeping every other byte of the user's file (`JSONSplice`); the same puzzle is
/// recorded once.
public enum ImportEditor {
    /// A longer text is no share text (docs/files.md, "streaks.json").
    public static let maximumBytes = 64 * 1024
    /// A `--game` summary (the text's first line) is cut to this many characters.
    static let summaryLimit = 200

    /// What went wrong, for a message and exit 65.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case tooLong(bytes: Int)
        case notText
        case empty
        case unrecognised
        case unknownGame(String, known: [String])
        case invalidFile([DataProblem])

        public var description: String {
            switch self {
            case .tooLong(let bytes):
                return "the text is \(bytes) bytes long; a share text is at most \(maximumBytes) bytes (64 KiB)"
            case .notText:
                return "the input is not UTF-8 text (or holds control characters): nothing imported"
            case .empty:
                return "the text is empty: paste the game's share text (`wl-paste | nudge import`)"
            case .unrecognised:
                return "no game's result found in the text; nudge reads the share texts of "
                    + ShareText.KnownGame.allCases.map(\.displayName).joined(separator: ", ")
                    + "; for any other game name it: nudge import --game GAME"
            case let .unknownGame(game, known):
                let list = known.isEmpty ? "none" : known.joined(separator: ", ")
                return "streaks.json: unknown game \"\(game)\" (known: \(list)); add it with `nudge play \(game) --add`"
            case .invalidFile(let problems):
                return problems.map(\.description).joined(separator: "\n")
            }
        }
    }

    /// What the import did.
    public enum Outcome: Equatable, Sendable {
        /// streaks.json's new content, the entry recorded and its game's name.
        case imported(content: [UInt8], ResultImport, gameName: String)
        /// The puzzle was imported before: nothing to write.
        case alreadyImported(ResultImport, gameName: String)
    }

    /// Imports the share text `text` at `now` into streaks.json's `data` (nil: no such file). `game` is
    /// `--game`: it names the game, and a text no rule recognises then gives its first line as the summary.
    public static func importResult(_ text: [UInt8], game: String?, in data: [UInt8]?, now: Date,
                                    clock: WallClock) -> Result<Outcome, Failure> {
        guard text.count <= maximumBytes else { return .failure(.tooLong(bytes: text.count)) }
        guard let string = String(validating: text, as: UTF8.self),
              !string.unicodeScalars.contains(where: isForbiddenControl) else { return .failure(.notText) }
        let firstLine = string.split(whereSeparator: \.isNewline).lazy.map { String($0).trimmingWhitespace }
            .first { !$0.isEmpty }
        guard let firstLine else { return .failure(.empty) }
        let recognised = ShareText.recognise(string)
        var document = JSONValue.object([])
        var parsedFile: JSONValue?
        var streaks = StreakData()
        if let data {
            let (decoded, report) = UserFileDecoder.streaks(data)
            guard report.isValid, let decoded, let parsed = try? JSONParser.parse(data) else {
                return .failure(.invalidFile(report.problems))
            }
            document = parsed
            parsedFile = parsed
            streaks = decoded
        }
        let known = streaks.games.map(\.id)
        let target: Game
        if let game {
            guard let found = streaks.games.first(where: { matches($0, [game.lowercased()]) }) else {
                return .failure(.unknownGame(game, known: known))
            }
            target = found
        } else {
            guard let recognised else { return .failure(.unrecognised) }
            guard let found = streaks.games.first(where: { matches($0, recognised.game.aliases) }) else {
                return .failure(.unknownGame(recognised.game.rawValue, known: known))
            }
            target = found
        }
        let summary = recognised?.summary ?? String(firstLine.prefix(summaryLimit))
        let event = recognised?.puzzle ?? clock.localDate(of: now).description
        let id: String
        switch identify(base: "\(target.id)-\(event)", summary: summary, imports: streaks.imports,
                        severalADay: game != nil && recognised?.puzzle == nil) {
        case .new(let free): id = free
        case .repeated(let earlier): return .success(.alreadyImported(earlier, gameName: target.name))
        }
        let entry = ResultImport(id: id, game: target.id, importedAt: now, summary: summary)
        let stamp = JSONValue.string(RFC3339.format(now))
        let imported = JSONValue.object([
            JSONMember("id", .string(entry.id)), JSONMember("game", .string(target.id)),
            JSONMember("importedAt", stamp), JSONMember("summary", .string(summary)),
        ])
        let play = JSONValue.object([JSONMember("game", .string(target.id)), JSONMember("at", stamp)])
        document = document.setting("imports", to: .array((document["imports"]?.arrayValue ?? []) + [imported]))
        document = document.setting("plays", to: .array((document["plays"]?.arrayValue ?? []) + [play]))
        let content = JSONSplice.content(document, replacing: data, read: parsedFile)
        let (edited, report) = UserFileDecoder.streaks(content)
        guard edited != nil, report.isValid else { return .failure(.invalidFile(report.problems)) }
        return .success(.imported(content: content, entry, gameName: target.name))
    }

    /// An import's id, or the earlier import it repeats.
    private enum Identity {
        case new(String)
        case repeated(ResultImport)
    }

    /// The id `base` (`wordle-1617`, `mini-2026-11-23`) unless an import has it: that puzzle was imported. A game
    /// named with `--game` whose text has no number may have several results a day (two games of chess): there
    /// an import of that day with the same result is the one repeated, and a new result is numbered `base-2`,
    /// `base-3`…, the first that is free.
    private static func identify(base: String, summary: String, imports: [ResultImport],
                                 severalADay: Bool) -> Identity {
        guard severalADay else {
            return imports.first { $0.id == base }.map(Identity.repeated) ?? .new(base)
        }
        let numbered = base + "-"
        let sameDay = imports.filter { entry in
            entry.id == base || entry.id.hasPrefix(numbered) && Int(entry.id.dropFirst(numbered.count)) != nil
        }
        if let earlier = sameDay.first(where: { $0.summary == summary }) { return .repeated(earlier) }
        let taken = Set(sameDay.map(\.id))
        var candidate = base
        var number = 1
        while taken.contains(candidate) {
            number += 1
            candidate = numbered + String(number)
        }
        return .new(candidate)
    }

    private static func matches(_ game: Game, _ names: [String]) -> Bool {
        names.contains(game.id.lowercased()) || names.contains(game.name.lowercased())
    }

    /// Control characters other than tab and line ends: a binary file or a terminal escape, not a share text.
    private static func isForbiddenControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0x7F
    }
}
