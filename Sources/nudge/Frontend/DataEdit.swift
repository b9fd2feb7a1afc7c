import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// One change of a data directory by a command or a click (docs/design.md, "One door"): what it reads, the user
/// files it writes and the state it changes, under the lock that `DataDirectory.edit` holds around it. Only an
/// edit writes a user file; `edit` then commits the state, prints the edit's lines and re-plans.
struct DataEdit {
    let directory: DataDirectory
    /// The edit's clock (`--now`): what it records, and what the re-plan after it plans at.
    let now: Date
    /// What the command prints once the edit is written, before anything the re-plan prints.
    var lines: [String] = []
    /// Whether the re-plan follows (a refused or empty change leaves plan.json and the channels alone).
    var replans = true
    private var loaded: DataSnapshot?
    /// The state as changed, nil while nothing changed it (then none is written).
    private(set) var changedState: RunState?

    fileprivate init(directory: DataDirectory, now: Date) {
        self.directory = directory
        self.now = now
    }

    /// Everything a run would read now (state with a died run's deliveries, the files, the zone), read once.
    mutating func snapshot() throws -> DataSnapshot {
        if let loaded { return loaded }
        let snapshot = try DataSnapshot.load(directory)
        loaded = snapshot
        return snapshot
    }

    /// state.json as a run reads it (or as this edit changed it); a fresh state before the first run.
    mutating func state() throws -> RunState {
        if let changedState { return changedState }
        return try snapshot().state ?? RunState()
    }

    /// Changes the state; `DataDirectory.edit` writes it after the edit.
    @discardableResult
    mutating func changeState<Result>(_ change: (inout RunState) throws -> Result) throws -> Result {
        var state = try state()
        let result = try change(&state)
        changedState = state
        return result
    }

    /// The wall clock of the zone the runs plan in, read from the settings a run would use.
    var clock: WallClock {
        if let loaded { return WallClock(zone: loaded.zone) }
        return WallClock(zone: SystemZone.resolve(settingsZone: directory.settings().timeZone))
    }

    /// A user file as it is now (the target of its link); nil when it does not exist.
    func read(_ file: UserFile) throws -> [UInt8]? {
        try directory.readUserFile(file)
    }

    /// Replaces a user file atomically, keeping its mode and its link (`DataDirectory.writeUserFile`).
    func write(_ file: UserFile, _ content: [UInt8]) throws {
        try directory.writeUserFile(file, content)
    }

    /// A failure of an editor, each line naming the file by its path in the data directory.
    func badData(_ description: String, command: String? = nil, file: UserFile? = nil) -> CLIError {
        CLIError.badData(description.split(separator: "\n").map { line in
            guard let command, let file, !line.hasPrefix(file.fileName) else { return "\(directory.path)/\(line)" }
            return "nudge \(command): \(line)"
        })
    }
}

extension DataDirectory {
    /// The one way to change a data directory (docs/design.md, "One door"): under the lock (taken here, or
    /// `held` by the click waiter that waited for it), `change` reads and writes through its `DataEdit`; then the
    /// state it changed is committed, its lines printed and the plan made again (`Pass.replanAfterEdit`).
    func edit(now: Date, console: Console, lock held: DirectoryLock? = nil,
              _ change: (inout DataEdit) throws -> Void) throws {
        let lock = try held ?? self.lock(wait: DirectoryLock.editingWait)
        defer { withExtendedLifetime(lock) {} }
        var edit = DataEdit(directory: self, now: now)
        try change(&edit)
        if let state = edit.changedState { try Commit(state: state).write(to: self) }
        for line in edit.lines { console.out(line) }
        if edit.replans { try Pass.replanAfterEdit(self, console: console, now: now) }
    }

    /// Writes a user file atomically. When it is a symbolic link (a chain of them too), the link's final target
    /// is replaced, by a temporary file in the target's own directory, and the link stays (docs/promises.md). The file
    /// keeps the permission bits it had (a person may share it, 0644); one nudge creates is 0600. Only an edit
    /// calls it (`DataEdit.write`).
    fileprivate func writeUserFile(_ file: UserFile, _ data: [UInt8]) throws {
        let path = try editablePath(file)
        let folder = FilePath.parent(of: path)
        if folder != self.path {
            // Outside the data directory `run` does not clean up after an edit that was killed; under the lock
            // no other nudge of this directory is writing one.
            let prefix = "." + file.fileName + ".tmp-"
            for name in PosixFile.names(in: folder) where name.hasPrefix(prefix) { unlink(folder + "/" + name) }
        }
        var status = stat()
        let mode = stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o600
        try AtomicFile.write(data, to: path, mode: mode)
    }
}
