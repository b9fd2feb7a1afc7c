/// "Did you mean …?" for a mistyped option or key: a misspelt `deliver.comand` must not pass unnoticed.
public enum Spelling {
    /// The candidate closest to `word` when it is at most `maximumEdits` edits away (ties: the first); else the
    /// shortest candidate that begins or ends with `word` when that has three letters or more (`offset` for
    /// `offsetMinutes`, `Minutes` for `durationMinutes`), case ignored.
    public static func closest(to word: String, among candidates: [String], maximumEdits: Int = 2) -> String? {
        var best: (candidate: String, edits: Int)?
        for candidate in candidates {
            let edits = distance(word, candidate)
            if edits <= maximumEdits, edits < best?.edits ?? Int.max { best = (candidate, edits) }
        }
        if let best { return best.candidate }
        guard word.count >= 3 else { return nil }
        let lower = word.lowercased()
        return candidates.filter { candidate in
            let other = candidate.lowercased()
            return other != lower && (other.hasPrefix(lower) || other.hasSuffix(lower))
        }.min { $0.count < $1.count }
    }

    /// Up to `limit` candidates nearest to `word` (case ignored), all at the smallest distance found, when that is
    /// at most a third of the word's length: "Europe/Istanbul" for "Europe/Istambul", nothing for "Mars/Base".
    static func closestNames(to word: String, among candidates: [String], limit: Int = 3) -> [String] {
        let lower = word.lowercased()
        var best: [String] = []
        var bestEdits = max(1, word.count / 3)
        for candidate in candidates {
            let edits = distance(lower, candidate.lowercased())
            if edits < bestEdits {
                best = [candidate]
                bestEdits = edits
            } else if edits == bestEdits, !best.isEmpty || edits <= max(1, word.count / 3) {
                best.append(candidate)
            }
        }
        return Array(best.prefix(limit))
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    static func distance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
