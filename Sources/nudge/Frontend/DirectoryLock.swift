import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The exclusive lock on `DIR/.lock` that lets one run at a time touch a data directory (docs/design.md, "The lock").
/// The kernel releases it when the process dies, so a killed run never leaves a stale lock.
final class DirectoryLock {
    /// Editing commands wait this long for a run to finish before giving up with exit 75.
    static let editingWait: Double = 10

    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock, waiting up to `wait` seconds on the monotonic clock (0: fail at once with exit 75).
    static func acquire(in directory: String, wait: Double, canWaitLonger: Bool = false) throws -> DirectoryLock {
        let path = directory + "/.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CLIError.cannotWrite("nudge: cannot open lock file \(path): \(String(cString: strerror(errno)))")
        }
        let deadline = Deadline(after: wait)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, !deadline.hasPassed else {
                close(descriptor)
                let waited = wait > 0 ? " after waiting \(Int(wait)) s" : ""
                let advice = canWaitLonger ? "try again later or pass --wait SECONDS" : "try again later"
                throw CLIError.locked("nudge: another nudge is working on \(directory)\(waited); \(advice)")
            }
            usleep(50_000)
        }
        return DirectoryLock(descriptor: descriptor)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
