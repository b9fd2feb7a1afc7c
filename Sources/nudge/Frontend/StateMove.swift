import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The one move of the default data directory's own files to `$XDG_STATE_HOME/nudge` (docs/files.md, "Where nudge
/// keeps its own files"), made by the first run or edit that finds them beside the person's files.
///
/// A kill at any instant leaves one whole layout: before the commit the state directory does not exist and the data
/// directory holds everything as before (the next run starts again); after it the copies are in place and the
/// originals still in the data directory are removed by the next nudge that takes the lock. Under the data
/// directory's lock, so that no nudge of the old layout writes meanwhile:
/// 1. a staging directory beside the state directory, `.nudge-moving` (one a killed move left is removed first):
///    its lock, taken; a marker naming the data directory; a flushed copy of every own file;
/// 2. the staging directory renamed to the state directory: the commit;
/// 3. the originals removed from the data directory, then the marker.
/// It waits while a click waiter lives (its file in `.waiters` locked): the waiter applies a click to the files it
/// was started with, so they stay where they are until it has ended.
enum StateMove {
    /// In the state directory from the commit until the originals are gone.
    static let markerName = ".moved-from"
    static let stagingName = ".nudge-moving"
    /// What the move takes from the data directory: files, and folders of files.
    static let entries = DataDirectory.OwnFile.allCases.map(\.rawValue)
        + [".last-good", ChannelProgram.directoryName, WaiterHold.directoryName]

    /// Moves `directory`'s own files to `stateHome` and returns the directory that uses them there; returns
    /// `directory` as it is while a click waiter lives, or when the move failed (the reason in `problem`: nothing
    /// was moved, and nudge goes on in the old place).
    static func move(_ directory: DataDirectory, to stateHome: String, wait: Double, canWaitLonger: Bool,
                     problem: inout String?) throws -> DataDirectory {
        let moved = DataDirectory(path: directory.path, statePath: stateHome, stateHome: stateHome)
        let oldLock = try DirectoryLock.acquire(in: directory.path, wait: wait, canWaitLonger: canWaitLonger)
        defer { withExtendedLifetime(oldLock) {} }
        if FilePath.isDirectory(stateHome) { return moved }   // another nudge moved them meanwhile
        if waiterLives(in: directory.notesPath(WaiterHold.directoryName)) { return directory }
        directory.removeStaleTemporaryFiles()
        var steps = Steps()
        do {
            let parent = FilePath.parent(of: stateHome)
            try FilePath.makeDirectories(parent, mode: 0o700)
            let staging = parent + "/" + stagingName
            removeTree(staging)
            guard mkdir(staging, 0o700) == 0 else { throw AtomicFile.failure("cannot create", staging) }
            steps.passed()
            let newLock = try DirectoryLock.acquire(in: staging, wait: 0)
            defer { withExtendedLifetime(newLock) {} }
            try AtomicFile.write(Array((directory.path + "\n").utf8), to: staging + "/" + markerName)
            steps.passed()
            for name in entries {
                try copy(directory.path + "/" + name, to: staging + "/" + name, steps: &steps)
            }
            AtomicFile.syncDirectory(staging)
            steps.passed()
            guard rename(staging, stateHome) == 0 else { throw AtomicFile.failure("cannot rename to", stateHome) }
            AtomicFile.syncDirectory(parent)
            steps.passed()
            finish(moved, steps: &steps)
        } catch let error as CLIError {
            let reason = error.description.hasPrefix("nudge: ") ? String(error.description.dropFirst(7))
                                                                : error.description
            problem = "cannot move nudge's own files of \(directory.path) to \(stateHome) (\(reason)); they stay "
                + "where they are for now"
            return directory
        }
        return moved
    }

    /// Removes what a committed move left in the data directory — the originals, its old lock — then the marker;
    /// nothing when there is no marker.
    static func finish(_ directory: DataDirectory) {
        var steps = Steps()
        finish(directory, steps: &steps)
    }

    private static func finish(_ directory: DataDirectory, steps: inout Steps) {
        let marker = directory.statePath + "/" + markerName
        guard access(marker, F_OK) == 0 else { return }
        for name in entries {
            removeTree(directory.path + "/" + name)
            steps.passed()
        }
        unlink(directory.path + "/.lock")
        AtomicFile.syncDirectory(directory.path)
        unlink(marker)
        AtomicFile.syncDirectory(directory.statePath)
        steps.passed()
    }

    /// A copy of `source` (a file, or a folder of them; nothing when it does not exist) at `target`, flushed, with
    /// the permission bits it had.
    private static func copy(_ source: String, to target: String, steps: inout Steps) throws {
        var info = stat()
        guard stat(source, &info) == 0 else {
            guard errno == ENOENT else { throw AtomicFile.failure("cannot read", source) }
            return
        }
        let mode = info.st_mode & 0o7777
        if info.st_mode & S_IFMT == S_IFDIR {
            guard mkdir(target, mode | 0o700) == 0 else { throw AtomicFile.failure("cannot create", target) }
            for name in PosixFile.names(in: source) where name != "." && name != ".." {
                try copy(source + "/" + name, to: target + "/" + name, steps: &steps)
            }
            AtomicFile.syncDirectory(target)
        } else {
            switch PosixFile.contents(of: source) {
            case .success(let bytes): try AtomicFile.write(bytes, to: target, mode: mode)
            case .failure(let error):
                throw CLIError.cannotWrite("nudge: cannot read \(source): \(error.reason)")
            }
        }
        steps.passed()
    }

    /// Removes a file, or a folder and what it holds.
    private static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in PosixFile.names(in: path) where name != "." && name != ".." {
                removeTree(path + "/" + name)
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// True when a file in `folder` is locked by a click waiter that lives (`WaiterHold`).
    private static func waiterLives(in folder: String) -> Bool {
        PosixFile.names(in: folder).contains { name in
            guard name != ".", name != ".." else { return false }
            let descriptor = open(folder + "/" + name, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            return flock(descriptor, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
        }
    }

    /// The steps of a move, counted for the kill sweep (StateMoveTests): with `NUDGE_TEST_KILL_MOVE_AT=N` the
    /// process kills itself with SIGKILL as its N-th step ends.
    private struct Steps {
        private var count = 0
        private let killAt = ProcessEnvironment.variable("NUDGE_TEST_KILL_MOVE_AT").flatMap { Int($0) }

        mutating func passed() {
            count += 1
            if count == killAt { kill(getpid(), SIGKILL) }
        }
    }
}
