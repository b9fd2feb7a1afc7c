import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// What click waiters that are gone left in `.waiters/` (docs/desktop.md, "A waiter that is gone"), as a run finds
/// it under the data directory's lock: each file whose lock the run can take belongs to a waiter that ended. It
/// holds a notification to close, when the waiter was killed with it on screen, and a click that was not applied.
/// The run records the clicks (`UnappliedClicks`), saves them, then closes the notifications and removes the files.
final class GoneWaiters {
    /// One file left behind, locked by this run until it is removed or let go.
    struct Left {
        let path: String
        let descriptor: Int32
        /// nil for a file that does not read (a waiter killed while it wrote one).
        let held: HeldNotification?
    }

    let left: [Left]

    /// The files in `directory`'s `.waiters/` whose waiters are gone.
    init(_ directory: DataDirectory) {
        let folder = directory.notesPath(WaiterHold.directoryName)
        left = PosixFile.names(in: folder).filter { $0 != "." && $0 != ".." }.compactMap { name in
            Self.lockIfGone(folder + "/" + name)
        }
    }

    deinit {
        for file in left { close(file.descriptor) }
    }

    /// The clicks that were not applied.
    var unappliedClicks: [UnappliedClick] { left.compactMap(\.held?.unappliedClick) }

    /// Closes every notification a killed waiter left on screen, from this run's own connection, and removes the
    /// files with nothing left to do; a file whose notification cannot be closed now stays for the next run. Call
    /// once the clicks they hold are saved.
    func closeAndRemove(now: Date) {
        let closer = OrphanCloser()
        for file in left {
            if let held = file.held, !held.closed, !closer.close(held, now: now) { continue }
            unlink(file.path)
        }
    }

    /// The file at `path`, locked, when its waiter is gone: the lock is free, and the file locked is still the one
    /// at `path` (a waiter renames a new version over the last, and removes it when it ends).
    private static func lockIfGone(_ path: String) -> Left? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var locked = stat(), current = stat()
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &locked) == 0, stat(path, &current) == 0,
              locked.st_dev == current.st_dev, locked.st_ino == current.st_ino else {
            close(descriptor)
            return nil
        }
        let held = try? PosixFile.contents(of: path).get()
        return Left(path: path, descriptor: descriptor, held: held.flatMap(HeldNotification.init(fileContent:)))
    }
}
