/// One positional word of a command, or the value of an option, as far as completion can tell what it may be.
/// A command declares its forms with these (`laundry start PET wash|dry`); the completion scripts of every shell
/// are generated from them, so the fixed words are written once.
enum Positional: Equatable {
    /// Exactly one of these words (`start`, `wash`, a shell, an action name).
    case word([String])
    /// A directory.
    case directory
    /// A value only the data directory knows (a pet, a game, a notification id) or a time or number; `suggesting`
    /// holds the words that are always valid there, such as `last` for an id.
    case value(suggesting: [String])

    /// A value with nothing to suggest.
    static let any = Positional.value(suggesting: [])

    /// The words completion offers here.
    var words: [String] {
        switch self {
        case .word(let words), .value(let words): return words
        case .directory: return []
        }
    }

    /// The only words that can stand here, or nil when any word can.
    var fixedWords: [String]? {
        if case .word(let words) = self { return words }
        return nil
    }
}
