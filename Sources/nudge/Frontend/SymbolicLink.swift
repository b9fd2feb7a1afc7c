import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where a user file's content really lives when the file is a symbolic link, as dotfiles managers (stow,
/// chezmoi, a plain `ln -s`) make it (docs/files.md). An edit must replace the link's target, never the link: a
/// rename over the link would turn it into a regular file and cut it off from the dotfiles.
enum SymbolicLink {
    /// What a path leads to after following every link in its last component.
    enum Resolution: Equatable {
        /// Not a link: the path itself, which may or may not exist.
        case plain(String)
        /// One link or a chain of them, ending at `target`, which exists.
        case linked(target: String)
        /// One link or a chain of them, ending at `target`, which does not exist.
        case dangling(target: String)
    }

    /// As many links as Linux follows before it gives up with ELOOP.
    static let maximumChain = 40

    /// Follows `path` through any chain of links. A relative target is relative to the directory of the link
    /// that holds it; it is joined to that directory as written (not tidied lexically: `..` after a directory
    /// that is itself a link means that link's target's parent, which the kernel resolves and the text would
    /// not).
    ///
    /// - Returns: a failure with errno for a loop or a path that cannot be examined.
    static func resolve(_ path: String) -> Result<Resolution, PosixFile.ReadError> {
        var current = path
        for hops in 0...maximumChain {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                guard errno == ENOENT || errno == ENOTDIR else { return .failure(.init(code: errno)) }
                return .success(hops == 0 ? .plain(current) : .dangling(target: displayed(current)))
            }
            guard info.st_mode & S_IFMT == S_IFLNK else {
                return .success(hops == 0 ? .plain(current) : .linked(target: current))
            }
            guard let target = readLink(current) else { return .failure(.init(code: errno)) }
            current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
        }
        return .failure(.init(code: ELOOP))
    }

    /// The contents of the link at `path`, or nil with errno set.
    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The directory part of `path` ("." for a bare name).
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "" : String(path[..<slash])
    }

    /// A missing target as a person can find it: its deepest existing ancestor with links and `..` resolved,
    /// then the rest as followed (an unmounted directory has nothing to resolve).
    private static func displayed(_ path: String) -> String {
        var head = path
        var rest = ""
        while let slash = head.lastIndex(of: "/") {
            rest = String(head[slash...]) + rest
            head = String(head[..<slash])
            guard !head.isEmpty, let resolved = realpath(head, nil) else { continue }
            defer { free(resolved) }
            let base = String(cString: resolved)
            return (base == "/" ? "" : base) + rest
        }
        return path
    }
}
