/// The end of a wait, on a clock that a step of the wall clock does not move (Swift's `ContinuousClock`, which
/// counts a suspend too): how long a waiter may still wait for the lock or for a file to be fixed.
struct MonotonicDeadline {
    private let instant: ContinuousClock.Instant

    init(secondsFromNow seconds: Double) {
        instant = .now + .milliseconds(Int64(max(0, seconds) * 1000))
    }

    /// What is left, in seconds; 0 once it has passed.
    var secondsLeft: Double {
        let left = (instant - .now).components
        return max(0, Double(left.seconds) + Double(left.attoseconds) * 1e-18)
    }

    var hasPassed: Bool { ContinuousClock.now >= instant }
}
