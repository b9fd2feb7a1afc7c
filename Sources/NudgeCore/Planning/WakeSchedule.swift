import FoundationEssentials

/// The earliest instant after `now` among the causes a run is told of: `nextWakeAt` of plan.json
/// (docs/promises.md, "Woken only when something is due"). Instants at or before `now` are no cause: this run
/// has done what they asked.
struct WakeSchedule {
    let now: Date
    private(set) var earliest: Date?

    init(now: Date) {
        self.now = now
    }

    /// Notes a cause at `instant`; nil or not after `now` changes nothing.
    mutating func wake(at instant: Date?) {
        guard let instant, instant > now else { return }
        if let current = earliest, current <= instant { return }
        earliest = instant
    }
}

extension Plan {
    /// How long after a failed attempt the desktop or the command is tried again: as often as cron runs nudge.
    static let retryInterval: TimeInterval = 60

    /// After the channels ran at `now`: a delivery still in `queue` is retried `retryInterval` later (until it
    /// expires), so the next wake comes no later than that. True when `nextWakeAt` changed.
    public mutating func wakeToRetry(_ queue: [QueuedDelivery], now: Date) -> Bool {
        guard queue.contains(where: { $0.delivery.notification.expiresAt > now }) else { return false }
        var schedule = WakeSchedule(now: now)
        schedule.wake(at: nextWakeAt)
        schedule.wake(at: now.addingTimeInterval(Self.retryInterval))
        guard schedule.earliest != nextWakeAt else { return false }
        nextWakeAt = schedule.earliest
        return true
    }
}
