import FoundationEssentials

extension RunState {
    /// The members of state.json the state writes first: the format's version and the previous run.
    public static let runKeys = ["version", "lastRunAt", "latestRunAt", "lastRunCommandAt", "lastSystemdRunAt",
                                 "timeZone", "zoneWarning", "lastDelivered", "lastMissed", "lastBudget"]
    /// The members written next: the totals, the files' health, the outbox position, the badge and what the last
    /// run suppressed.
    public static let bookkeepingKeys = ["deliveredTotal", "missedTotal", "recentMissed", "fileErrors", "fileNotes",
                                         "lastGood", "outboxBytes", "outboxLastLine", "badge", "lastSuppressed"]
    /// The members written after the user's actions, the channel queue and the unapplied clicks: what runs learned.
    public static let learnedKeys = ["smartReminder", "plannedLeaveTimes", "departures", "milestones"]
    /// Every member of state.json, in the order `fileContent` writes them: the state's own and its parts'. The
    /// manual and docs/files.md list them from these lists.
    static let stateKeys = runKeys + bookkeepingKeys + UserActions.stateKeys + ChannelQueue.stateKeys
        + UnappliedClicks.stateKeys + learnedKeys + CalendarMemory.stateKeys + DeliveryMemory.stateKeys

    /// `state.json`'s content: pretty JSON (the layout of `JSONValue.prettyText`) with a final newline; keys
    /// sorted where they come from dictionaries, so the file is deterministic. Each part writes its own members,
    /// in the order of `stateKeys`.
    ///
    /// Written member by member rather than built as a `JSONValue` tree and then written: every run rewrites it.
    public var fileContent: [UInt8] {
        var out = PrettyJSONWriter()
        out.open("{")
        writeRun(to: &out)
        writeBookkeeping(to: &out)
        userActions.write(to: &out)
        channelQueue.write(to: &out)
        unappliedClicks.write(to: &out)
        writeLearned(to: &out)
        calendar.write(to: &out)
        memory.write(to: &out)
        out.close("}")
        return out.finish()
    }

    /// `runKeys`: the optional clocks of the last `nudge run` only when there was one.
    private func writeRun(to out: inout PrettyJSONWriter) {
        out.key("version"); out.number(Self.formatVersion)
        out.key("lastRunAt"); out.instant(lastRunAt)
        out.key("latestRunAt"); out.instant(latestRunAt)
        if let lastRunCommandAt { out.key("lastRunCommandAt"); out.instant(lastRunCommandAt) }
        if let lastSystemdRunAt { out.key("lastSystemdRunAt"); out.instant(lastSystemdRunAt) }
        out.key("timeZone"); out.string(timeZone)
        out.key("zoneWarning"); out.string(zoneWarning)
        out.key("lastDelivered"); out.number(lastDelivered)
        out.key("lastMissed"); out.number(lastMissed)
        out.key("lastBudget")
        if let lastBudget {
            out.open("{")
            out.key("pending"); out.number(lastBudget.pending)
            out.key("limit"); out.number(lastBudget.limit)
            out.close("}")
        } else {
            out.null()
        }
    }

    /// `bookkeepingKeys`: `fileNotes` only when there are some.
    private func writeBookkeeping(to out: inout PrettyJSONWriter) {
        out.key("deliveredTotal"); out.number(deliveredTotal)
        out.key("missedTotal"); out.number(missedTotal)
        out.key("recentMissed")
        out.open("[")
        for record in recentMissed {
            out.element()
            out.open("{")
            out.key("id"); out.string(record.id)
            out.key("kind"); out.string(record.kind)
            out.key("title"); out.string(record.title)
            out.key("fireAt"); out.instant(record.fireAt)
            out.key("reason"); out.string(record.reason.rawValue)
            out.key("recordedAt"); out.instant(record.recordedAt)
            out.close("}")
        }
        out.close("]")
        out.key("fileErrors")
        out.open("[")
        for error in fileErrors {
            out.element(); out.string(error)
        }
        out.close("]")
        if !fileNotes.isEmpty {
            out.key("fileNotes")
            out.open("[")
            for note in fileNotes {
                out.element(); out.string(note)
            }
            out.close("]")
        }
        out.key("lastGood")
        out.open("{")
        for file in lastGood.files {
            if let hash = lastGood[file] { out.key(file.fileName); out.string(hash) }
        }
        out.close("}")
        out.key("outboxBytes"); out.number(outboxBytes)
        out.key("outboxLastLine"); out.string(outboxLastLine)
        out.key("badge"); out.number(badge)
        out.key("lastSuppressed"); out.number(lastSuppressed)
    }

    /// `learnedKeys`: the smart reminder time (null until computed), the leave-times held, the open departures and
    /// the milestones reached.
    private func writeLearned(to out: inout PrettyJSONWriter) {
        out.key("smartReminder")
        if let kept = smartReminder {
            out.open("{")
            out.key("time"); out.string(kept.result.time.description)
            out.key("windowStartHour"); out.number(kept.result.windowStartHour)
            out.key("coveragePercent"); out.number(kept.result.coveragePercent)
            out.key("playCount"); out.number(kept.result.playCount)
            out.key("computedAt"); out.instant(kept.computedAt)
            out.close("}")
        } else {
            out.null()
        }
        out.key("plannedLeaveTimes")
        out.open("{")
        for id in plannedLeaveTimes.keys.sorted() {
            if let leaveAt = plannedLeaveTimes[id] { out.key(id); out.instant(leaveAt) }
        }
        out.close("}")
        out.key("departures")
        out.open("[")
        for departure in departures {
            out.element()
            out.open("{")
            out.key("trip"); out.string(departure.trip)
            out.key("at"); out.instant(departure.at)
            out.close("}")
        }
        out.close("]")
        out.key("milestones")
        out.open("[")
        for milestone in milestones {
            out.element()
            out.open("{")
            out.key("game"); out.string(milestone.game)
            out.key("days"); out.number(milestone.days)
            if let announcedAt = milestone.announcedAt { out.key("announcedAt"); out.instant(announcedAt) }
            out.close("}")
        }
        out.close("]")
    }
}
