import FoundationEssentials

extension UserFileDecoder {
    /// Decodes `streaks.json`: ids unique within games, achievements and imports; every play and import names
    /// a game of the same file.
    public static func streaks(_ data: [UInt8]) -> (StreakData?, FileReport) {
        decode(.streaks, data, knownKeys: ["games", "plays", "achievements", "imports"]) { root in
            let games = root.list("games", Game.init)
            // Raw ids, also of games that are invalid for another reason, so one mistake is reported once.
            let knownGames = KnownGames(root.elements("games").compactMap {
                root.document.stringMember("id", of: $0.node)
            })
            let plays = root.list("plays") { Play($0, knownGames: knownGames) }
            let achievements = root.list("achievements", Achievement.init)
            let imports = root.list("imports") { ResultImport($0, knownGames: knownGames) }
            return StreakData(games: games, plays: plays, achievements: achievements, imports: imports)
        }
    }
}

/// The game ids of the file, in file order for messages and as a set for the many plays.
private struct KnownGames {
    private let ordered: [String]
    private let set: Set<String>

    init(_ ids: [String]) {
        var seen = Set<String>()
        ordered = ids.filter { seen.insert($0).inserted }
        set = seen
    }

    func contains(_ id: String) -> Bool { set.contains(id) }

    /// "wordle, connections", or "none".
    var listing: String { ordered.isEmpty ? "none" : ordered.joined(separator: ", ") }
}


extension ObjectReader {
    /// A required string that must contain more than whitespace; `use` says where a person will read it.
    fileprivate func nonEmptyText(_ key: String, use: String) -> String? {
        guard let text = string(key) else { return nil }
        guard ObjectReader.hasVisibleText(text) else {
            report(key, "must not be empty (\(use))")
            return nil
        }
        return text
    }

    /// The id of a game listed in `games`; an unknown one is reported with the ids that exist.
    fileprivate func gameReference(_ key: String, knownGames: KnownGames) -> String? {
        guard let id = string(key) else { return nil }
        guard knownGames.contains(id) else {
            report(key, "unknown game \"\(id)\" (known: \(knownGames.listing))")
            return nil
        }
        return id
    }
}

extension Game {
    /// Reads one element of `games`; a missing or `null` `streak` is nil: derived from the plays.
    init?(_ object: borrowing ObjectReader) {
        object.checkKeys(["id", "name", "streak", "url"])
        let id = object.identifier("id")
        let name = object.nonEmptyText("name", use: "it names the game in reminders")
        let isDerived = object.member("streak") == nil
        let streak = isDerived ? nil : object.int("streak", default: nil, in: 0...1_000_000)
        let url = object.optionalString("url")
        if let url, !Self.isOpenableURL(url) {
            object.report("url", "\"\(url)\" is not a URL (expected http, https or an app's own scheme, such as "
                + "\"https://www.nytimes.com/games/wordle\")")
            return nil
        }
        guard let id, let name, isDerived || streak != nil else { return nil }
        self.init(id: id, name: name, streak: streak, url: url)
    }

    /// A URL `xdg-open` can be given safely: a scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`),
    /// a colon and more, with no spaces or control characters; never a path or an option (`-x`).
    static func isOpenableURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex,
              text.utf8.count <= 2048 else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        let schemeOK = scheme.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
        let lower = scheme.lowercased()
        guard schemeOK, lower != "file", lower != "javascript" else { return false }
        return text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7f }
    }
}

extension Play {
    /// Reads one element of `plays`.
    fileprivate init?(_ object: ObjectReader, knownGames: KnownGames) {
        object.checkKeys(["game", "at"])
        let game = object.gameReference("game", knownGames: knownGames)
        let at = object.instant("at", required: true)
        guard let game, let at else { return nil }
        self.init(game: game, at: at)
    }
}

extension Achievement {
    /// Reads one element of `achievements`; the description may be empty, the title may not.
    init?(_ object: borrowing ObjectReader) {
        object.checkKeys(["id", "title", "description", "unlockedAt"])
        let id = object.identifier("id")
        let title = object.nonEmptyText("title", use: "it becomes \"Achievement unlocked: <title>\"")
        let description = object.string("description")
        let unlockedAt = object.instant("unlockedAt", required: true)
        guard let id, let title, let description, let unlockedAt else { return nil }
        self.init(id: id, title: title, description: description, unlockedAt: unlockedAt)
    }
}

extension ResultImport {
    /// Reads one element of `imports`.
    fileprivate init?(_ object: ObjectReader, knownGames: KnownGames) {
        object.checkKeys(["id", "game", "importedAt", "summary"])
        let id = object.identifier("id")
        let game = object.gameReference("game", knownGames: knownGames)
        let importedAt = object.instant("importedAt", required: true)
        let summary = object.nonEmptyText("summary", use: "it becomes \"<game>: <summary>\"")
        guard let id, let game, let importedAt, let summary else { return nil }
        self.init(id: id, game: game, importedAt: importedAt, summary: summary)
    }
}
