import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The user files' identities, taken before a pass reads them: whether one was written since.
struct UserFileIdentities {
    let directory: DataDirectory
    private var seen: [FileIdentity?]

    init(_ directory: DataDirectory) {
        self.directory = directory
        seen = Self.read(directory)
    }

    /// Whether a user file changed since the last look (the first: when this was made); looks again.
    mutating func changed() -> Bool {
        let now = Self.read(directory)
        defer { seen = now }
        return now != seen
    }

    private static func read(_ directory: DataDirectory) -> [FileIdentity?] {
        UserFile.allCases.map { FileIdentity(path: directory.path(of: $0)) }
    }
}
