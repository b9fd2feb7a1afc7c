import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The files of one data directory (docs/files.md). The only place that knows their names on disk.
///
/// Files are read and listed with POSIX calls rather than FileManager and `Data(contentsOf:)`: the first use
/// of those in a process costs more than reading all the example files (runtime type lookups in Foundation).
struct DataDirectory {
    /// Absolute.
    let path: String

    var lastGoodPath: String { path + "/.last-good" }

    func filePath(_ name: String) -> String { path + "/" + name }

    /// Fails with a clear message when the directory is missing, so cron mails something useful.
    func requireExists() throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CLIError.failure("nudge: no data directory at \(path) (create one with `nudge init \(path)`, "
                + "or pass --data DIR)")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw CLIError.failure("nudge: \(path) is a file, not a data directory (pass --data DIR, or "
                + "`nudge init DIR` for a new one elsewhere)")
        }
        // Unreadable, every command says so alike (exit 1), before any of them opens a file in it.
        guard access(path, R_OK | X_OK) == 0 else {
            let reason = String(cString: strerror(errno))
            throw CLIError.failure("nudge: cannot read the data directory \(path): \(reason)")
        }
    }

    /// The file's bytes, or nil when it does not exist.
    func read(_ name: String) throws -> [UInt8]? {
        let filePath = filePath(name)
        switch Self.contents(of: filePath) {
        case .success(let data): return data
        case .failure(let error) where error.code == ENOENT: return nil
        case .failure(let error): throw CLIError.failure("nudge: cannot read \(filePath): \(error.reason)")
        }
    }

    /// Why a file could not be read: errno and its text.
    struct ReadError: Error {
        let code: Int32
        var reason: String { String(cString: strerror(code)) }
    }

    /// A whole file, read with open/fstat/read (retrying short reads and interruptions).
    static func contents(of path: String) -> Result<[UInt8], ReadError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(ReadError(code: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(ReadError(code: errno)) }
        guard info.st_mode & S_IFMT != S_IFDIR else { return .failure(ReadError(code: EISDIR)) }
        // Read straight into the array that is returned: copying from a second buffer held a large file twice.
        // One byte more than the size, so a file that grew while it was read is still read to its end.
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, count))) }
            let got = bytes.withUnsafeMutableBufferPointer { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                return .failure(ReadError(code: errno))
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        return .success(bytes)
    }

    /// Every user file that exists, and those that are there but cannot be read with the reason: one unreadable
    /// file must not silence the others (docs/promises.md). A file may be a symbolic link (dotfiles) and is read
    /// through it; a link that points nowhere is not a missing file but a problem of that file (docs/files.md), so that
    /// its kind keeps its last good version and `check` and `run` name it.
    func userFiles() -> (files: UserFileMap<[UInt8]>, unreadable: UserFileMap<FileAccessProblem>) {
        var files: UserFileMap<[UInt8]> = [:]
        var unreadable: UserFileMap<FileAccessProblem> = [:]
        for file in UserFile.allCases {
            let path = filePath(file.fileName)
            var info = stat()
            guard stat(path, &info) == 0 else {
                if errno != ENOENT {
                    unreadable[file] = .unreadable(reason: String(cString: strerror(errno)))
                } else if case .success(.dangling(let target)) = SymbolicLink.resolve(path) {
                    unreadable[file] = .danglingLink(target: target)
                }
                continue
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                unreadable[file] = .unreadable(reason: info.st_mode & S_IFMT == S_IFDIR ? "it is a directory"
                                                                                      : "it is not a regular file")
                continue
            }
            switch Self.contents(of: path) {
            case .success(let data): files[file] = data
            case .failure(let error): unreadable[file] = .unreadable(reason: error.reason)
            }
        }
        return (files, unreadable)
    }

    /// A user file's bytes for an editing command, read through a symbolic link; nil when there is no file.
    ///
    /// - Throws: `CLIError.badData` (exit 65) for a link that points nowhere: editing would otherwise start
    ///   afresh and replace the link, cutting the file off from its dotfiles.
    func readUserFile(_ file: UserFile) throws -> [UInt8]? {
        let path = try editablePath(file)
        switch Self.contents(of: path) {
        case .success(let data): return data
        case .failure(let error) where error.code == ENOENT: return nil
        case .failure(let error): throw CLIError.failure("nudge: cannot read \(path): \(error.reason)")
        }
    }

    /// Writes a user file atomically. When it is a symbolic link (a chain of them too), the link's final target
    /// is replaced, by a temporary file in the target's own directory, and the link stays (docs/promises.md). The file
    /// keeps the permission bits it had (a person may share it, 0644); one nudge creates is 0600.
    func writeUserFile(_ file: UserFile, _ data: [UInt8]) throws {
        let path = try editablePath(file)
        let folder = FilePath.parent(of: path)
        if folder != self.path {
            // Outside the data directory `run` does not clean up after an edit that was killed; under the lock
            // no other nudge of this directory is writing one.
            let prefix = "." + file.fileName + ".tmp-"
            for name in Self.names(in: folder) where name.hasPrefix(prefix) { unlink(folder + "/" + name) }
        }
        var status = stat()
        let mode = stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o600
        try AtomicFile.write(data, to: path, mode: mode)
    }

    /// The path an edit of `file` reads and replaces: the file itself, or the final target of its link.
    private func editablePath(_ file: UserFile) throws -> String {
        let path = filePath(file.fileName)
        switch SymbolicLink.resolve(path) {
        case .success(.plain(let plain)): return plain
        case .success(.linked(let target)): return target
        case .success(.dangling(let target)):
            let problem = DataProblem(file: file.fileName, place: .file,
                                      message: FileAccessProblem.danglingLink(target: target).description)
            throw CLIError.badData(["\(self.path)/\(problem)"])
        case .failure(let error):
            throw CLIError.failure("nudge: cannot read \(path): \(error.reason)")
        }
    }

    /// Removes the temporary files of a run that was killed before it could rename them. Call only while
    /// holding the lock: then no other nudge can be writing one.
    func removeStaleTemporaryFiles() {
        for folder in [path, lastGoodPath] {
            for name in Self.names(in: folder) where name.hasPrefix(".") && FilePath.name(name, contains: ".tmp-") {
                unlink(folder + "/" + name)
            }
        }
    }

    /// The names of a folder's entries (with `.` and `..`); empty when it cannot be read.
    static func names(in folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            })
        }
        return names
    }

    /// The saved last good copies of the given files (those that have one).
    func lastGoodCopies(_ files: [UserFile]) -> UserFileMap<[UInt8]> {
        var copies: UserFileMap<[UInt8]> = [:]
        for file in files {
            copies[file] = try? Self.contents(of: lastGoodPath + "/" + file.fileName).get()
        }
        return copies
    }

    func saveLastGood(_ file: UserFile, _ data: [UInt8]) throws {
        guard mkdir(lastGoodPath, 0o700) == 0 || errno == EEXIST else {
            throw AtomicFile.failure("cannot create", lastGoodPath)
        }
        try AtomicFile.write(data, to: lastGoodPath + "/" + file.fileName)
    }

    /// The previous run's state; nil before the first run. A damaged state.json stops the command (exit 65):
    /// guessing could deliver something twice.
    func loadState() throws -> RunState? {
        guard let data = try read("state.json") else { return nil }
        do {
            return try RunState.decode(data)
        } catch {
            throw CLIError.badData(["\(path)/\(DataProblem(error, file: "state.json"))",
                                    "nudge: state.json is written by nudge; restore it, or move it away to start "
                                        + "afresh (past notifications are then not repeated)"])
        }
    }

    /// settings.json as it is (or its defaults when missing or broken): for zone and texts in messages.
    func userSettings() -> Settings {
        guard let data = try? read(UserFile.settings.fileName) else { return Settings() }
        return UserFileDecoder.settings(data, zoneNamed: ZoneDatabase.zone(named:)).0 ?? Settings()
    }

    func write(_ name: String, _ data: [UInt8], durability: AtomicFile.Durability = .durable) throws {
        try AtomicFile.write(data, to: filePath(name), durability: durability)
    }
}
