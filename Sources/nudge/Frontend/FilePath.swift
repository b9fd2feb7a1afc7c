#if canImport(Glibc)
import Glibc
#endif

/// Paths as plain strings, the way the POSIX calls the shell makes take them. (Foundation's `URL` cost more to
/// make and to read back than reading every file of a household.)
enum FilePath {
    /// `path` made absolute against the working directory, without trailing slashes; `.` is the working
    /// directory itself.
    static func absolute(_ path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        if bytes.first == UInt8(ascii: "/") { return String(decoding: bytes, as: UTF8.self) }
        let base = workingDirectory()
        if bytes.isEmpty || bytes == [UInt8(ascii: ".")] { return base }
        return (base == "/" ? "" : base) + "/" + String(decoding: bytes, as: UTF8.self)
    }

    /// The folder that holds `path`: "" for a bare name, "/" for a name in the root; trailing slashes ignored.
    static func parent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
    }

    /// The last part of `path`: the file's own name.
    static func lastComponent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
    }

    /// True when `name` holds `part` anywhere (a byte comparison: no Unicode rules needed for file names).
    static func name(_ name: String, contains part: String) -> Bool {
        let haystack = Array(name.utf8)
        let needle = Array(part.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// True when `path` names a directory (through a symbolic link too).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// True when both paths name the same directory: the same device and inode when both exist (one may be a
    /// symbolic link to the other), else the same text.
    static func sameDirectory(_ one: String, _ other: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(one, &first) == 0, stat(other, &second) == 0 else { return absolute(one) == absolute(other) }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// `mkdir -p`: the missing parents with mode 0755, the directory itself with `mode`.
    static func makeDirectories(_ path: String, mode: mode_t) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw CLIError.cannotWrite("nudge: \(path) exists and is not a directory")
            }
            return
        }
        let parent = FilePath.parent(of: path)
        if !parent.isEmpty, parent != path { try makeDirectories(parent, mode: 0o755) }
        guard mkdir(path, mode) == 0 || errno == EEXIST else { throw AtomicFile.failure("cannot create", path) }
    }

    /// The process's working directory ("/" should it be unreadable).
    static func workingDirectory() -> String {
        guard let path = getcwd(nil, 0) else { return "/" }
        defer { free(path) }
        return String(cString: path)
    }
}
