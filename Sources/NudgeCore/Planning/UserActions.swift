import FoundationEssentials

/// What the person asked for by acting on deliveries (docs/design.md, "Acting on a delivery"): the snoozes and
/// prayer timers still to come, and the actions applied to each delivery, which apply once. Kept until two days
/// after they expired (`prune`), as the ledger keeps the deliveries they act on.
public struct UserActions: Equatable, Sendable {
    /// Snoozed notifications waiting to notify again: one-off occurrences with their own ids (`SnoozeRule`).
    public internal(set) var snoozes: [Notification] = []
    /// Prayer timers started by `START_TIMER` (docs/files.md, "alarms.json"): one-off `alarm.timerDone`
    /// occurrences.
    public internal(set) var timers: [Notification] = []
    /// Delivered occurrence id → action (its raw value) → when it was applied.
    private(set) var applied: [String: [String: Date]] = [:]
    /// Snooze or timer id → when the person's action made it (or last moved it): after a clock set back to an
    /// earlier time, it keeps its outcome (docs/promises.md, exactly once).
    private(set) var madeAt: [String: Date] = [:]

    init() {}

    /// Actions holding exactly these: read from state.json (`UserActions+JSON.swift`), or a test's.
    init(snoozes: [Notification] = [], timers: [Notification] = [], applied: [String: [String: Date]] = [:],
         madeAt: [String: Date] = [:]) {
        self.snoozes = snoozes
        self.timers = timers
        self.applied = applied
        self.madeAt = madeAt
    }

    /// Keeps `snooze`, made (or moved, replacing the one with its id) by the person at `now`.
    mutating func keep(snooze: Notification, madeAt now: Date) {
        if let index = snoozes.firstIndex(where: { $0.id == snooze.id }) {
            snoozes[index] = snooze
        } else {
            snoozes.append(snooze)
        }
        madeAt[snooze.id] = now
    }

    /// Starts `timer`, made by the person at `now` (`START_TIMER`).
    public mutating func start(timer: Notification, madeAt now: Date) {
        timers.append(timer)
        madeAt[timer.id] = now
    }

    /// Whether an action was applied to the delivered notification `id` (it is settled: docs/calendar.md).
    func isActedOn(_ id: String) -> Bool { applied[id] != nil }

    /// Notes that `action` was applied to the delivered notification `id` at `now`. Applied again (a snooze moved
    /// once more), the later time replaces the earlier.
    mutating func record(_ action: NotificationAction, on id: String, now: Date) {
        applied[id, default: [:]][action.rawValue] = now
    }

    /// Forgets what no promise needs any more: snoozes and timers two days after they expired
    /// (`DeliveryMemory.ledgerRetention`, the age limit of acting on a delivery), and the actions applied to a
    /// delivery once `isRemembered` says its ledger entry is gone.
    mutating func prune(now: Date, isRemembered: (String) -> Bool) {
        let horizon = now.addingTimeInterval(-DeliveryMemory.ledgerRetention)
        snoozes = snoozes.filter { $0.expiresAt >= horizon }
        timers = timers.filter { $0.expiresAt >= horizon }
        applied = applied.filter { isRemembered($0.key) }
        if !madeAt.isEmpty {
            let kept = Set(snoozes.map(\.id) + timers.map(\.id))
            madeAt = madeAt.filter { kept.contains($0.key) }
        }
    }
}
