import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The file in `.waiters/` that a click waiter holds locked for as long as it lives (docs/desktop.md, "A waiter
/// that is gone"): what it holds (`HeldNotification`), kept up to date. The waiter removes it when it ends having
/// left nothing undone; it leaves it, unlocked, when it ends with a click it could not apply, and the kernel
/// unlocks it when the waiter is killed. A run that can lock it reads what the waiter left (`GoneWaiters`).
///
/// Each version is written to a new file, locked before its first byte and renamed over the last: a run never
/// reads half a file, and never finds the current one unlocked while the waiter lives.
final class WaiterHold {
    static let directoryName = ".waiters"

    private(set) var held: HeldNotification
    private let path: String
    private var descriptor: Int32 = -1

    private init(held: HeldNotification, path: String) {
        self.held = held
        self.path = path
    }

    /// Writes and locks the waiter's file; nil when it cannot (the waiter goes on without one: a run then cannot
    /// close its notification should it be killed).
    static func take(_ held: HeldNotification, in directory: DataDirectory) -> WaiterHold? {
        let folder = directory.notesPath(directoryName)
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { return nil }
        let name = ContentHash.of(Array("\(held.busID)\n\(held.server)\n\(held.number)".utf8))
        let hold = WaiterHold(held: held, path: folder + "/" + name)
        return hold.write() ? hold : nil
    }

    /// Changes what the file says; the old version stays should the new one not be written.
    func update(_ change: (inout HeldNotification) -> Void) {
        let before = held
        change(&held)
        if !write() { held = before }
    }

    /// The waiter ends with nothing left undone: the file goes, then the lock with the descriptor.
    func remove() {
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    /// The waiter ends leaving what the file says for the next run: the lock goes, the file stays.
    func leave() {
        close(descriptor)
        descriptor = -1
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// A new locked file with `held`, renamed over the last; the last one's lock then goes.
    private func write() -> Bool {
        let temporary = FilePath.parent(of: path) + "/." + FilePath.lastComponent(of: path) + ".tmp-\(getpid())"
        let written = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard written >= 0 else { return false }
        guard flock(written, LOCK_EX | LOCK_NB) == 0, AtomicFile.writeAll(written, held.fileContent),
              rename(temporary, path) == 0 else {
            unlink(temporary)
            close(written)
            return false
        }
        if descriptor >= 0 { close(descriptor) }
        descriptor = written
        return true
    }
}
