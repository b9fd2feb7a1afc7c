import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The click waiter's side of a button (docs/desktop.md, "A click that cannot be applied at once"): applies the
/// action as `nudge act ID ACTION` does, and when it cannot at once, keeps trying until the notification expires.
/// It sleeps meanwhile: in a blocking wait for the data directory's lock while another nudge holds it
/// (`DirectoryLock.wait`), and until a file the action reads changes when one is broken (`DirectoryChanges`).
/// The click is noted in the waiter's file (`WaiterHold`) before the first attempt, so that a run reports it
/// should the waiter be killed before it is applied.
struct ClickApplier {
    /// What the click's error says when the lock was never had before the expiry.
    static let lockedThroughout = "the data directory stayed locked by another nudge"
    /// How long a waiter sleeps between attempts where the kernel cannot report file changes (no inotify).
    static let retryWithoutInotify: Double = 5

    /// The delivered notification's id, as `nudge act` takes it.
    let id: String
    let directory: DataDirectory
    let clock: RunClock
    let hold: WaiterHold?
    /// Whether a stop signal came: the waiter gives the click up.
    let isStopped: () -> Bool

    /// Applies `action`, the button labelled `label`, until it is applied (true) or `deadline` passes or a stop
    /// comes (false; the waiter's file then holds the click and the last error).
    func apply(_ action: String, label: String, until deadline: Deadline) -> Bool {
        var click = HeldNotification.PendingClick(action: action, label: label, clickedAt: clock.now(), error: "")
        hold?.update { $0.click = click }
        let changes = DirectoryChanges(directory)
        while true {
            let error: String
            switch attempt(action, until: deadline) {
            case .applied: return true
            case .failed(let why): error = why
            case .unlocked: error = click.error.isEmpty ? Self.lockedThroughout : click.error
            }
            if error != click.error {
                click.error = error
                hold?.update { $0.click = click }
            }
            guard !deadline.hasPassed, !isStopped() else { return false }
            if let changes {
                guard changes.wait(until: deadline, isInterrupted: isStopped) else { return false }
            } else {
                var nothing = pollfd()
                _ = poll(&nothing, 0, Int32(min(deadline.remaining, Self.retryWithoutInotify) * 1000) + 1)
            }
        }
    }

    /// How one attempt went.
    private enum Attempt {
        case applied
        case failed(String)
        /// The lock was not had before the deadline or a stop.
        case unlocked
    }

    /// One attempt under the lock, waited for until `deadline`. The lock is let go when this returns, before the
    /// waiter sleeps again.
    private func attempt(_ action: String, until deadline: Deadline) -> Attempt {
        guard let lock = DirectoryLock.wait(in: directory.statePath, until: deadline, isInterrupted: isStopped) else {
            return .unlocked
        }
        do {
            _ = try ActionApplier.apply(idText: id, actionName: action, directory: directory, now: clock.now(),
                                        console: Console(), lock: lock)
            return .applied
        } catch {
            return .failed("\(error)".split(separator: "\n").joined(separator: "; "))
        }
    }
}
