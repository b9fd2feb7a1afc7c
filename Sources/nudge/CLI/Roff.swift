/// Text into roff source for the manual page. The manual's texts use one piece of markup, `code` in backticks,
/// set in bold; everything else is escaped here, so no text can turn into a request or an escape by accident.
enum Roff {
    /// Prose with `code` spans; option names outside them (`--now`) still get real minus signs.
    static func prose(_ markup: String) -> String {
        var result = ""
        var inCode = false
        var span = ""
        for character in markup {
            if character == "`" {
                result += inCode ? code(span) : text(span)
                span = ""
                inCode.toggle()
            } else {
                span.append(character)
            }
        }
        result += inCode ? code("`" + span) : text(span)
        return guardLines(result)
    }

    /// Code in bold, every `-` a minus sign (`\-`, an ASCII hyphen-minus when copied from the terminal, and never
    /// a place to break the line), so options read and copy exactly.
    static func code(_ code: String) -> String {
        guard !code.isEmpty else { return "" }
        return #"\fB"# + literal(code) + #"\fR"#
    }

    /// A usage line from the table: literal words in bold, placeholders (`PET`, `DIR`) in italics, brackets and
    /// bars roman.
    static func usage(_ usage: String) -> String {
        var result = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            let isPlaceholder = word.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || $0 == "…" }
            result += (isPlaceholder ? #"\fI"# : #"\fB"#) + literal(word) + #"\fR"#
            word = ""
        }
        for character in usage {
            if "[]| ".contains(character) {
                flush()
                result += String(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return guardLines(result)
    }

    /// Lines shown as they are (an example, for no-fill mode): escaped, with minus signs, indentation kept.
    static func verbatim(_ text: String) -> String {
        guardLines(text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { literal(String($0)) }
            .joined(separator: "\n"), keepingIndentation: true)
    }

    /// Plain text: `\` as `\e`, anything beyond ASCII as a named glyph `\[uXXXX]` (roff input is not UTF-8),
    /// and the dashes of a word that starts like an option as `\-`.
    static func text(_ text: String) -> String {
        var result = ""
        var word = ""
        func flush() {
            let bare = word.drop { "([\"'".contains($0) }
            let isOption = bare.hasPrefix("-") && bare.dropFirst().first.map { $0 == "-" || $0.isLetter } == true
            result += isOption ? literal(word) : escaped(word)
            word = ""
        }
        for character in text {
            if character == " " || character == "\n" {
                flush()
                result.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return result
    }

    /// Code: escaped, each `-` as `\-`.
    private static func literal(_ text: String) -> String {
        escaped(text).replacing("-", with: #"\-"#)
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += #"\e"#
            case _ where scalar.isASCII: result.unicodeScalars.append(scalar)
            default: result += glyphs[scalar] ?? (#"\[u"# + hex(scalar.value) + "]")
            }
        }
        return result
    }

    /// Characters with a named glyph that also has a fallback on an ASCII terminal (`man` in the C locale).
    private static let glyphs: [Unicode.Scalar: String] = [
        "…": "...", "—": #"\(em"#, "–": #"\(en"#, "→": #"\(->"#, "×": #"\(mu"#, "≤": #"\(<="#, "≥": #"\(>="#,
        "‘": #"\(oq"#, "’": #"\(cq"#, "“": #"\(lq"#, "”": #"\(rq"#,
    ]

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Each line as text, never a request: a leading `.` or `'` is guarded with `\&`, leading blanks (which
    /// would break a filled line) are dropped unless kept for no-fill mode, and empty lines (which would add a
    /// blank line) are left out.
    private static func guardLines(_ text: String, keepingIndentation: Bool = false) -> String {
        text.split(separator: "\n").compactMap { line -> String? in
            let trimmed = keepingIndentation ? line : line.drop { $0 == " " }
            guard !trimmed.allSatisfy({ $0 == " " }) else { return nil }
            return (trimmed.first == "." || trimmed.first == "'" ? #"\&"# : "") + trimmed
        }.joined(separator: "\n")
    }
}
