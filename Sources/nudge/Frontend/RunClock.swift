import FoundationEssentials
import Glibc

/// The clock of one `nudge run`: the system clock, or `--now T` advancing in real time from when the run
/// started, so `--linger` can be tested with a fixed start.
struct RunClock {
    private let offset: TimeInterval

    init(fixed: Date?) {
        let start = Date()
        offset = fixed.map { $0.timeIntervalSince(start) } ?? 0
    }

    /// Whole seconds: notifications are due to the second, and records read better without fractions.
    func now() -> Date { Date(timeIntervalSince1970: Date().addingTimeInterval(offset).timeIntervalSince1970.rounded(.down)) }

    /// Sleeps until the clock reads `instant`, but not past `limit`. A plain sleep: no CPU is used meanwhile.
    func sleep(until instant: Date, atMost limit: Deadline) {
        let seconds = min(instant.timeIntervalSince(Date().addingTimeInterval(offset)), limit.remaining)
        guard seconds > 0 else { return }
        var wait = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&wait, &left) != 0, errno == EINTR { wait = left }
    }
}
