import FoundationEssentials

/// `nudge play`: records a play in `streaks.json`, keeping every other byte of the user's file as it was
/// (`JSONSplice`).
public enum StreakEditor {
    /// What went wrong, for a message and exit 65.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case invalidFile([DataProblem])
        case unknownGame(String, known: [String])

        public var description: String {
            switch self {
            case .invalidFile(let problems):
                return problems.map(\.description).joined(separator: "\n")
            case let .unknownGame(game, known):
                let list = known.isEmpty ? "none" : known.joined(separator: ", ")
                return "streaks.json: unknown game \"\(game)\" (known: \(list)); pass --add to add it"
            }
        }
    }

    /// The file's new content: `{"game": GAME, "at": T}` appended to `plays`, and with `addGame` a new
    /// `{"id": GAME, "name": GAME}` in `games` when the game is not there — no `streak`, so it is derived from
    /// the plays. `data` nil means the file does not exist yet. The result is validated like any user file;
    /// `streak` is never changed.
    public static func recordPlay(in data: [UInt8]?, game: String, at: Date, addGame: Bool) -> Result<[UInt8], Failure> {
        var document = JSONValue.object([])
        var parsedFile: JSONValue?
        if let data {
            let (decoded, report) = UserFileDecoder.streaks(data)
            guard report.isValid, decoded != nil, let parsed = try? JSONParser.parse(data) else {
                return .failure(.invalidFile(report.problems))
            }
            document = parsed
            parsedFile = parsed
        }
        var games = document["games"]?.arrayValue ?? []
        if !games.contains(where: { $0["id"]?.stringValue == game }) {
            guard addGame else {
                return .failure(.unknownGame(game, known: games.compactMap { $0["id"]?.stringValue }))
            }
            games.append(.object([JSONMember("id", .string(game)), JSONMember("name", .string(game))]))
            document = document.setting("games", to: .array(games))
        }
        let play = JSONValue.object([JSONMember("game", .string(game)), JSONMember("at", .string(RFC3339.format(at)))])
        document = document.setting("plays", to: .array((document["plays"]?.arrayValue ?? []) + [play]))
        let content = JSONSplice.content(document, replacing: data, read: parsedFile)
        let (edited, report) = UserFileDecoder.streaks(content)
        guard edited != nil, report.isValid else { return .failure(.invalidFile(report.problems)) }
        return .success(content)
    }
}
