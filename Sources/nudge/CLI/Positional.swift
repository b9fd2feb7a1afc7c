/// One positional word of a command, or the value of an option, as far as completion can tell what it may be.
/// A command declares its forms with these (`laundry start PET wash|dry`); the completion scripts of every shell
/// are generated from them, so the fixed words are written once.
enum Positional: Equatable {
    /// Exactly one of these words (`start`, `wash`, a shell, an action name).
    case word([String])
    /// A directory.
    case directory
    /// An id only the data directory knows (a pet, a game, a trip, a delivered notification): the scripts ask
    /// `nudge complete-values` for them as a person types. `suggesting` holds the words that are always valid
    /// there, such as `last` for a delivery.
    case household(HouseholdIDs, suggesting: [String] = [])
    /// Any other value (a time, a number, a text); `suggesting` holds words that are always valid there.
    case value(suggesting: [String])

    /// A value with nothing to suggest.
    static let any = Positional.value(suggesting: [])

    /// The fixed words completion offers here.
    var words: [String] {
        switch self {
        case .word(let words), .value(let words), .household(_, let words): return words
        case .directory: return []
        }
    }

    /// The ids of the data directory completion offers here, if any.
    var ids: HouseholdIDs? {
        if case .household(let ids, _) = self { return ids }
        return nil
    }

    /// The only words that can stand here, or nil when any word can.
    var fixedWords: [String]? {
        if case .word(let words) = self { return words }
        return nil
    }
}
