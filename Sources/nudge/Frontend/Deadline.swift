#if canImport(Glibc)
import Glibc
#endif

/// The instant a wait inside nudge ends (for the lock, a program, the bus, the end of `--linger`), measured on
/// the monotonic clock (docs/design.md, "Deadlines"): the wall clock can be stepped while nudge waits (by NTP,
/// `date -s`, a person), the monotonic clock cannot, so a step neither ends a wait early nor makes it longer.
struct Deadline: Comparable {
    /// Seconds on `CLOCK_MONOTONIC`.
    private let instant: Double

    private init(instant: Double) {
        self.instant = instant
    }

    /// `seconds` from now (0 or less: already passed).
    init(after seconds: Double) {
        self.init(instant: Self.monotonicSeconds() + seconds)
    }

    /// Seconds until the deadline, 0 once it has passed.
    var remaining: Double { max(0, instant - Self.monotonicSeconds()) }

    var hasPassed: Bool { Self.monotonicSeconds() >= instant }

    static func < (left: Deadline, right: Deadline) -> Bool { left.instant < right.instant }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
