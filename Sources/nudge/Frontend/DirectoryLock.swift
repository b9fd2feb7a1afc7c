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

    /// Takes the lock for the click waiter (docs/desktop.md, "A click that cannot be applied at once"): waits
    /// without polling, in a blocking `flock` that an interval timer (`ITIMER_REAL`, which counts on the
    /// monotonic clock) interrupts at `deadline`. A signal whose handler was installed without `SA_RESTART`
    /// interrupts it too; `isInterrupted` then says whether to stop. nil when the lock was not had by then.
    static func wait(in directory: String, until deadline: Deadline,
                     isInterrupted: () -> Bool) -> DirectoryLock? {
        let descriptor = open(directory + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        var interrupting = sigaction()
        interrupting.__sigaction_handler.sa_handler = { _ in }   // only there to interrupt flock
        var previous = sigaction()
        sigaction(SIGALRM, &interrupting, &previous)
        defer {
            var disarmed = itimerval()
            setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &disarmed, nil)
            sigaction(SIGALRM, &previous, nil)
        }
        while !isInterrupted() {
            let left = deadline.remaining
            guard left > 0 else { break }
            // At least a microsecond: a zero timer is no timer, and flock would wait for good.
            let micros = max(1, Int(left * 1e6))
            var timer = itimerval(it_interval: timeval(), it_value: timeval(tv_sec: micros / 1_000_000,
                                                                          tv_usec: micros % 1_000_000))
            setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
            if flock(descriptor, LOCK_EX) == 0 { return DirectoryLock(descriptor: descriptor) }
            guard errno == EINTR else { break }
        }
        close(descriptor)
        return nil
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
