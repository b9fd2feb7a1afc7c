import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The files of one data directory (docs/files.md). The only place that knows their names on disk: the person's
/// files in `path`, nudge's own in `statePath` (docs/files.md, "Where nudge keeps its own files").
///
/// Files are read and listed with POSIX calls rather than FileManager and `Data(contentsOf:)`: the first use
/// of those in a process costs more than reading all the example files (runtime type lookups in Foundation).
struct DataDirectory {
    /// The person's files. Absolute.
    let path: String
    /// nudge's own files: plan.json, state.json, the outbox, `.last-good/`, the lock and the notes beside it.
    /// `$XDG_STATE_HOME/nudge` for the default directory once its own files moved there, else `path`.
    let statePath: String
    /// Where the default directory's own files live or are to move to; nil for a directory named by `--data` or
    /// `NUDGE_DATA` that is not the default one (everything stays in it).
    let stateHome: String?

    /// The files nudge owns, in `statePath`.
    enum OwnFile: String, CaseIterable {
        case plan = "plan.json"
        case state = "state.json"
        case outbox = "outbox.jsonl"
        case rotatedOutbox = "outbox.jsonl.1"
    }

    /// A directory whose own files stay in it: one named by `--data` or `NUDGE_DATA`, or a test's.
    init(path: String) {
        self.init(path: path, statePath: path, stateHome: nil)
    }

    init(path: String, statePath: String, stateHome: String?) {
        self.path = path
        self.statePath = statePath
        self.stateHome = stateHome
    }

    /// The data directory at `path`, its own files where they live now: for the default directory, however it is
    /// named (`--data` with the same directory too: two runs must never keep two states), `$XDG_STATE_HOME/nudge`
    /// once that exists, and `path` until the move (`preparedForWriting`).
    static func at(_ path: String, defaultPath: String?, stateHome: String?) -> DataDirectory {
        guard let defaultPath, let stateHome, FilePath.sameDirectory(path, defaultPath) else {
            return DataDirectory(path: path)
        }
        return DataDirectory(path: path, statePath: FilePath.isDirectory(stateHome) ? stateHome : path,
                             stateHome: stateHome)
    }

    /// Where the files live, for `status` and `plan`.
    var places: FilePlaces {
        FilePlaces(dataDirectory: path, stateDirectory: statePath, movingTo: ownFilesToMove ? stateHome : nil)
    }

    /// The default directory whose own files are still in it.
    var ownFilesToMove: Bool { stateHome != nil && statePath == path }

    var lastGoodPath: String { statePath + "/.last-good" }

    func path(of file: UserFile) -> String { path + "/" + file.fileName }

    func path(of file: OwnFile) -> String { statePath + "/" + file.rawValue }

    /// A folder of notes nudge keeps beside its own files (`.channel-starts`, `.waiters`).
    func notesPath(_ name: String) -> String { statePath + "/" + name }

    /// Readies the directory for a run or an edit: it must exist, and the default directory's own files move to
    /// `$XDG_STATE_HOME/nudge` first when they are still in it (`StateMove`). Returns the directory to work in; a
    /// move that fails is said on stderr, and the work goes on with the files where they are.
    func preparedForWriting(wait: Double, canWaitLonger: Bool = false, console: Console) throws -> DataDirectory {
        try requireExists()
        guard ownFilesToMove, let stateHome else { return self }
        var problem: String?
        let prepared = try StateMove.move(self, to: stateHome, wait: wait, canWaitLonger: canWaitLonger,
                                          problem: &problem)
        if let problem { console.warning("nudge: " + problem) }
        return prepared
    }

    /// Takes the lock on `statePath/.lock` (`DirectoryLock`). A default directory whose own files moved since this
    /// value was made is refused (exit 75): writing them beside the person's files would start a second state.
    /// After a move that was killed once its copies were in place, the originals left are removed first.
    func lock(wait: Double, canWaitLonger: Bool = false) throws -> DirectoryLock {
        let lock = try DirectoryLock.acquire(in: statePath, wait: wait, canWaitLonger: canWaitLonger)
        if ownFilesToMove, let stateHome, FilePath.isDirectory(stateHome) {
            throw CLIError.locked("nudge: another nudge moved the own files of \(path) to \(stateHome) meanwhile; "
                + "try again")
        }
        if stateHome != nil, statePath != path { StateMove.finish(self) }
        return lock
    }

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

    /// An own file's bytes, or nil when it does not exist.
    func read(_ file: OwnFile) throws -> [UInt8]? { try read(at: path(of: file)) }

    /// A user file's bytes as they are, or nil when it does not exist.
    func read(_ file: UserFile) throws -> [UInt8]? { try read(at: path(of: file)) }

    private func read(at filePath: String) throws -> [UInt8]? {
        switch PosixFile.contents(of: filePath) {
        case .success(let data): return data
        case .failure(let error) where error.code == ENOENT: return nil
        case .failure(let error): throw CLIError.failure("nudge: cannot read \(filePath): \(error.reason)")
        }
    }

    /// Every user file that exists, and those that are there but cannot be read with the reason: one unreadable
    /// file must not silence the others (docs/promises.md). A file may be a symbolic link (dotfiles) and is read
    /// through it; a link that points nowhere is not a missing file but a problem of that file (docs/files.md), so that
    /// its kind keeps its last good version and `check` and `run` name it.
    func userFiles() -> (files: UserFileMap<[UInt8]>, unreadable: UserFileMap<FileAccessProblem>) {
        var files: UserFileMap<[UInt8]> = [:]
        var unreadable: UserFileMap<FileAccessProblem> = [:]
        for file in UserFile.allCases {
            let path = path(of: file)
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
            switch PosixFile.contents(of: path) {
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
        switch PosixFile.contents(of: path) {
        case .success(let data): return data
        case .failure(let error) where error.code == ENOENT: return nil
        case .failure(let error): throw CLIError.failure("nudge: cannot read \(path): \(error.reason)")
        }
    }

    /// The path an edit of `file` reads and replaces: the file itself, or the final target of its link.
    func editablePath(_ file: UserFile) throws -> String {
        let path = path(of: file)
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
        for folder in Set([path, statePath, lastGoodPath]) {
            for name in PosixFile.names(in: folder) where name.hasPrefix(".") && FilePath.name(name, contains: ".tmp-") {
                unlink(folder + "/" + name)
            }
        }
    }

    /// The saved last good copies of the given files (those that have one).
    func lastGoodCopies(_ files: [UserFile]) -> UserFileMap<[UInt8]> {
        var copies: UserFileMap<[UInt8]> = [:]
        for file in files {
            copies[file] = try? PosixFile.contents(of: lastGoodPath + "/" + file.fileName).get()
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
        guard let data = try read(.state) else { return nil }
        do {
            return try RunState.decode(data)
        } catch {
            throw CLIError.badData(["\(statePath)/\(DataProblem(error, file: OwnFile.state.rawValue))",
                                    "nudge: state.json is written by nudge; restore it, or move it away to start "
                                        + "afresh (past notifications are then not repeated)"])
        }
    }

    /// The settings a run would plan with (docs/promises.md): settings.json as it is, a broken setting or file
    /// from its last good version, else the defaults. Commands read their zone and texts here, so a time typed
    /// on the command line lands in the zone the runs plan in.
    func settings() -> Settings {
        let path = path(of: .settings)
        var current: UserFileMap<[UInt8]> = [:]
        var unreadable: UserFileMap<FileAccessProblem> = [:]
        switch PosixFile.contents(of: path) {
        case .success(let data): current[.settings] = data
        case .failure(let error) where error.code != ENOENT: unreadable[.settings] = .unreadable(reason: error.reason)
        case .failure: return Settings()
        }
        return HouseholdLoader.load(current: current, lastGood: lastGoodCopies([.settings]), unreadable: unreadable,
                                    zoneNamed: ZoneDatabase.zone(named:)).household.settings
    }

    func write(_ file: OwnFile, _ data: [UInt8], durability: AtomicFile.Durability = .durable) throws {
        try AtomicFile.write(data, to: path(of: file), durability: durability)
    }
}
