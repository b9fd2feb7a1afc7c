import FoundationEssentials

/// The share texts of the games nudge recognises (docs/files.md, "streaks.json"), as the games print them: Wordle,
/// Connections, The Mini and Strands. Only the recognised lines count, so a text may carry chat around it,
/// emoji rows, a link and CRLF line ends.
enum ShareText {
    /// A game nudge can read the share text of.
    enum KnownGame: String, CaseIterable, Sendable {
        case wordle, connections, mini, strands

        /// How the game is printed: "Wordle", "The Mini".
        var displayName: String {
            switch self {
            case .wordle: return "Wordle"
            case .connections: return "Connections"
            case .mini: return "The Mini"
            case .strands: return "Strands"
            }
        }

        /// The ids or names, lower case, that a game of streaks.json may have to be this one.
        var aliases: [String] {
            switch self {
            case .mini: return ["mini", "the mini", "mini crossword", "the mini crossword", "nyt mini"]
            default: return [rawValue]
            }
        }
    }

    /// What a share text says.
    struct Result: Equatable, Sendable {
        var game: KnownGame
        /// The puzzle's number, digits only; nil when the text has none (The Mini).
        var puzzle: String?
        /// What `streak.imported` shows after the game's name: "3/6", "solved, 1 mistake", "0:48", "1 hint".
        var summary: String
    }

    /// The result a share text reports, or nil when no game's lines are in it.
    static func recognise(_ text: String) -> Result? {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { String($0).trimmingWhitespace }
        return wordle(lines) ?? connections(lines) ?? mini(lines) ?? strands(lines)
    }

    /// `Wordle 1,234 3/6`, `Wordle 1.234 X/6*` (hard mode): the number may carry thousands separators.
    static func wordle(_ lines: [String]) -> Result? {
        for line in lines {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\u{00A0}" || $0 == "\u{202F}" })
            guard let start = words.firstIndex(where: { $0 == "Wordle" }), words.count >= start + 3 else { continue }
            let number = words[start + 1]
            var score = words[start + 2]
            let hard = score.hasSuffix("*")
            if hard { score = score.dropLast() }
            guard let digits = puzzleNumber(number.filter { $0 != "," && $0 != "." }),
                  score.count == 3, score.hasSuffix("/6"), let guess = score.first,
                  guess == "X" || ("1"..."6").contains(guess) else { continue }
            return Result(game: .wordle, puzzle: digits, summary: "\(guess)/6" + (hard ? "*" : ""))
        }
        return nil
    }

    /// `Connections` / `Puzzle #512`, then rows of four coloured squares: a row of one colour is a group found,
    /// any other row a mistake; four groups found is solved.
    static func connections(_ lines: [String]) -> Result? {
        guard let header = lines.firstIndex(where: { $0.lowercased() == "connections" }) else { return nil }
        var index = header + 1
        while index < lines.count, lines[index].isEmpty { index += 1 }
        guard index < lines.count, lines[index].hasPrefix("Puzzle #"),
              let number = puzzleNumber(lines[index].dropFirst("Puzzle #".count)) else { return nil }
        let squares: Set<Unicode.Scalar> = ["\u{1F7E8}", "\u{1F7E9}", "\u{1F7E6}", "\u{1F7EA}"]
        var groups = 0
        var mistakes = 0
        for line in lines[(index + 1)...] {
            let colours = line.compactMap { $0.unicodeScalars.first }
            guard colours.count == 4, colours.allSatisfy(squares.contains) else {
                if groups + mistakes > 0 { break } else { continue }
            }
            if Set(colours).count == 1 { groups += 1 } else { mistakes += 1 }
        }
        guard groups + mistakes > 0 else { return nil }
        let mistakeText = mistakes == 0 ? "no mistakes" : mistakes == 1 ? "1 mistake" : "\(mistakes) mistakes"
        return Result(game: .connections, puzzle: number,
                      summary: (groups == 4 ? "solved, " : "not solved, ") + mistakeText)
    }

    /// `I solved the Thursday 11/20/2026 New York Times Mini Crossword in 0:48!`: the time is the summary.
    static func mini(_ lines: [String]) -> Result? {
        for line in lines {
            guard let start = line[...].firstByteRange(of: "I solved the "),
                  let marker = line[start.upperBound...].firstByteRange(of: "Mini Crossword in ") else { continue }
            let time = line[marker.upperBound...].prefix { $0.isASCII && ($0.isNumber || $0 == ":") }
            let parts = time.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 }),
                  parts.dropFirst().allSatisfy({ $0.count == 2 }) else { continue }
            return Result(game: .mini, puzzle: nil, summary: String(time))
        }
        return nil
    }

    /// `Strands #256`, its theme in quotes, then rows of 🔵 (theme words), 🟡 (the spangram) and 💡 (a hint used).
    static func strands(_ lines: [String]) -> Result? {
        guard let header = lines.firstIndex(where: { $0.hasPrefix("Strands #") }),
              let number = puzzleNumber(lines[header].dropFirst("Strands #".count)) else { return nil }
        let marks: Set<Unicode.Scalar> = ["\u{1F535}", "\u{1F7E1}", "\u{1F4A1}"]
        var hints = 0
        var rows = 0
        for line in lines[(header + 1)...] {
            let scalars = line.compactMap { $0.unicodeScalars.first }
            guard !scalars.isEmpty, scalars.allSatisfy(marks.contains) else {
                if rows > 0 { break } else { continue }
            }
            rows += 1
            hints += scalars.filter { $0 == "\u{1F4A1}" }.count
        }
        guard rows > 0 else { return nil }
        return Result(game: .strands, puzzle: number,
                      summary: hints == 0 ? "no hints" : hints == 1 ? "1 hint" : "\(hints) hints")
    }

    /// 1 to 9 ASCII digits, leading zeros dropped; nil for anything else.
    static func puzzleNumber<Text: StringProtocol>(_ text: Text) -> String? {
        guard (1...9).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(text) else { return nil }
        return String(value)
    }
}
