/// Why a user file that is there could not be read (docs/files.md). It is reported like a broken file, and its
/// kind keeps its last good version: treating it as missing would silently stop that kind.
public enum FileAccessProblem: Equatable, Sendable, CustomStringConvertible {
    /// It exists but cannot be read: no permission, a directory, an I/O error.
    case unreadable(reason: String)
    /// A symbolic link that points nowhere, as a link into an unmounted dotfiles directory does.
    case danglingLink(target: String)

    public var description: String {
        switch self {
        case .unreadable(let reason): return "cannot be read: \(reason)"
        case .danglingLink(let target): return "a symbolic link to \(target), which does not exist"
        }
    }
}
