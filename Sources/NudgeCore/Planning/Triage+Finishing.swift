import FoundationEssentials

/// The end of a run's triage: what is due is delivered or suppressed, what was missed recorded, the state pruned.
extension Triage {
    /// What triage leaves for the plan: the state handed back, the upcoming occurrences for the budget, and the
    /// run's outcomes.
    struct Outcome {
        var state: RunState
        /// One occurrence per source, for the budget to split; handed over rather than shared, so the budget can
        /// move the records into place.
        var upcoming: [Notification]
        /// Due now, in fireAt order.
        var deliveries: [Delivery]
        var missed: [MissedRecord]
        var suppressed: [Notification]
        /// How many of `missed` were not listed as missed before: what `missedTotal` grows by.
        var newlyMissed: Int

        /// Notes the pass in the state: when and in which zone it ran, its budget, what the shell found reading the
        /// files and, for a run (or the first pass ever), what it delivered, missed and suppressed.
        mutating func recordPass(_ pass: PassRecord, at now: Date, zone: Zone, budget: BudgetStatus,
                                 isFirstPass: Bool) {
            state.latestRunAt = max(state.latestRunAt ?? now, now)
            state.lastRunAt = now
            state.timeZone = zone.identifier
            state.missedTotal += newlyMissed
            state.recentMissed = Array((state.recentMissed + missed).suffix(RunState.recentMissedLimit))
            state.lastBudget = budget
            state.fileErrors = pass.fileErrors
            state.fileNotes = pass.fileNotes
            state.zoneWarning = pass.zoneWarning
            if case .run(let systemd) = pass.kind {
                state.lastRunCommandAt = now
                if systemd { state.lastSystemdRunAt = now }
            } else if !isFirstPass {
                return
            }
            state.lastDelivered = deliveries.count
            state.lastMissed = missed.count
            state.lastSuppressed = suppressed.count
        }
    }

    /// Of each daily repeat only the latest due occurrence is delivered (or suppressed while notifications are
    /// switched off); every outcome goes into the ledger, and what no longer matters is pruned.
    consuming func finish(household: Household) -> Outcome {
        (due, missed) = Planner.keepLatestOfEachRepeat(due, missed)
        let switchedOn = household.settings.notifications.enabled
        let suppressed = switchedOn ? [] : due.sorted(by: Planner.comesFirst)
        var deliveries = (switchedOn ? due : []).sorted(by: Planner.comesFirst).map { notification in
            state.deliver(notification, now: now, channels: household.settings.deliveryChannels)
        }
        let missedRecords = missed.sorted { Planner.comesFirst($0.0, $1.0) }.map { notification, reason in
            MissedRecord(id: notification.id, kind: notification.kind.rawValue, title: notification.title,
                         fireAt: notification.fireAt, reason: reason, recordedAt: now)
        }
        if switchedOn, let digest = MissedDigest.notification(listing: missedToTell(), now: now, clock: clock,
                                                              settings: household.settings),
           !state.memory.isHandled(digest.id) {
            deliveries.append(state.deliver(digest, now: now, channels: household.settings.deliveryChannels))
        }
        for notification in suppressed {
            state.memory.record(notification, .suppressed, at: now)
        }
        for (notification, _) in missed {
            state.memory.record(notification, .missed, at: now)
        }
        let newlyMissed = relistRecentMissed(missedRecords, deliveries: deliveries)
        state.prune(now: now)
        return Outcome(state: state, upcoming: upcoming, deliveries: deliveries, missed: missedRecords,
                       suppressed: suppressed, newlyMissed: newlyMissed)
    }

    /// What the missed digest tells, once: what expired unseen, neither listed as missed before (a clock step may
    /// miss it again) nor told by the digest of a run that died after its outbox line. That digest is in the
    /// ledger recovered from the outbox, delivered later than any saved run's clock (`latestRunAt`), but its
    /// run's missed outcomes were never saved: it told everything that had expired by then.
    private func missedToTell() -> [Notification] {
        let expired = missed.filter { $0.1 == .expired }.map(\.0)
        guard !expired.isEmpty else { return [] }
        let listed = Set(state.recentMissed.map(\.id))
        let latestSaved = state.latestRunAt ?? state.lastRunAt
        let toldUntil = state.memory.ledger.values.filter { entry in
            entry.kind == NotificationKind.missedDigest.rawValue && entry.outcome == .delivered
                && latestSaved.map { entry.at > $0 } ?? true
        }.map(\.at).max()
        return expired.filter { notification in
            !listed.contains(notification.id) && !(toldUntil.map { notification.expiresAt <= $0 } ?? false)
        }
    }

    /// A missed record whose ledger entry was forgotten: delivered after a step back, it was not missed after
    /// all (docs/promises.md, exactly once); missed again, it is counted once. Returns how many of `missed` are
    /// new to `recentMissed`.
    private mutating func relistRecentMissed(_ missed: [MissedRecord], deliveries: [Delivery]) -> Int {
        guard !state.recentMissed.isEmpty && !(deliveries.isEmpty && missed.isEmpty) else { return missed.count }
        let listed = Set(state.recentMissed.map(\.id))
        state.forgetMissed(Set(deliveries.map(\.notification.id)).intersection(listed))
        state.recentMissed.removeAll { record in missed.contains { $0.id == record.id } }
        return missed.count(where: { !listed.contains($0.id) })
    }
}
