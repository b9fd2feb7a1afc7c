/// A piece of the manual's text, written in the markup `Roff.prose` reads (`code` in backticks).
enum ManualBlock {
    /// A paragraph.
    case paragraph(String)
    /// A term and the text that explains it, indented below it (a `.TP` list item).
    case entry(String, String)
    /// A heading inside a section.
    case subsection(String)
    /// Lines shown as they are, indented: a command line, a JSON example.
    case example(String)

    /// As docs/files.md has it (FilesPageTests): a paragraph, a list item "- `term`: text", a fenced example; a
    /// heading is the page's own.
    var markdown: String {
        switch self {
        case .paragraph(let text): text
        case .entry(let term, let text): "- \(term): \(text)"
        case .subsection(let title): "### " + title
        case .example(let text): "```json\n" + text + "\n```"
        }
    }

    var roff: String {
        switch self {
        case .paragraph(let text):
            return ".PP\n" + Roff.prose(text)
        case .entry(let term, let text):
            return ".TP\n" + Roff.prose(term) + "\n" + Roff.prose(text)
        case .subsection(let title):
            return ".SS " + Roff.prose(title)
        case .example(let text):
            return ".PP\n.RS 4\n.nf\n" + Roff.verbatim(text) + "\n.fi\n.RE"
        }
    }
}
