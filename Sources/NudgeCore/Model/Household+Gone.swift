import FoundationEssentials

/// Whether a snooze or a prayer timer kept in state.json has lost its source (docs/design.md, "What a run plans").
extension Household {
    /// True when what `record` (a snooze or a timer) was made from is no longer in the files: an alarm removed,
    /// a laundry stage its cycle has left (stopped, folded, moved to dry), a trip removed or disabled (its
    /// leave-times and arrival checks), the games a streak reminder named removed, an achievement or import
    /// removed (a milestone: its game). Such a record is dropped, neither delivered nor missed: it would remind
    /// of something that is gone. A disabled alarm or a switched-off kind is not gone: its records are held
    /// (`isSwitchedOn`).
    func isGone(_ record: Notification) -> Bool {
        let event = Self.event(of: record)
        switch record.kind {
        case .prayer, .plainAlarm, .timerDone:
            return !alarms.contains { $0.id == record.source }
        case .washComplete, .dryComplete, .foldReminder, .almostDone:
            guard let cycle = pets.first(where: { $0.id == record.source })?.cycle else { return true }
            let stage: LaundryCycle.Stage = record.kind == .washComplete ? .wash : .dry
            if record.kind == .almostDone { return event != "\(cycle.id):\(cycle.stage.rawValue)" }
            return event != cycle.id || cycle.stage != stage
        case .laundryHealth:
            guard let pet = pets.first(where: { $0.id == record.source }), pet.cycle == nil,
                  let last = pet.lastCompletedAt else { return true }
            return event != RFC3339.format(last)
        case .leave, .arrival:
            return !trips.contains { $0.id == record.source && $0.enabled }
        case .streakReminder:
            return !streaks.games.contains { record.body.contains($0.name) }
        case .achievement:
            // A milestone's source is `<game>-streak-<n>`: gone with its game.
            return !streaks.achievements.contains { $0.id == record.source }
                && !streaks.games.contains { record.source.hasPrefix($0.id + "-streak-") }
        case .imported:
            return !streaks.imports.contains { $0.id == record.source }
        case .personalized, .test, .missedDigest:
            return false
        }
    }

    /// The event part of the original occurrence's id: `<kind>:<source>:<event>`, without any `:snooze-n`.
    private static func event(of record: Notification) -> Substring {
        var id = record.id[...]
        if let snooze = id.firstByteRange(of: ":snooze-") { id = id[..<snooze.lowerBound] }
        let prefix = record.kind.rawValue + ":" + record.source + ":"
        return id.hasPrefix(prefix) ? id.dropFirst(prefix.count) : id
    }
}
