import FoundationEssentials

extension RunState {
    /// Reads `state.json`. nudge wrote it, so any problem means someone edited it: the run stops (exit 65)
    /// rather than guess, because a lost ledger could deliver something twice.
    ///
    /// - Throws: `DataProblem`, the first problem found.
    public static func decode(_ data: [UInt8]) throws -> RunState {
        try DocumentReader.read(data, file: "state.json", decode)
    }

    private static func decode(_ document: DocumentReader) throws -> RunState {
        guard let root = ObjectReader(JSONTape.root, at: .root, in: document) else {
            throw document.problems[0]
        }
        if let version = root.int("version", default: nil, in: 1...Int.max), version > formatVersion {
            root.report("version", "\(version) was written by a newer nudge (this one reads version \(formatVersion))")
        }
        var state = RunState()
        state.lastRunAt = root.instant("lastRunAt", required: false)
        state.latestRunAt = root.instant("latestRunAt", required: false)
        state.lastRunCommandAt = root.instant("lastRunCommandAt", required: false)
        state.lastSystemdRunAt = root.instant("lastSystemdRunAt", required: false)
        state.memory = DeliveryMemory.readIDsAndDates(root, document)
        readRunSummary(&state, root, document)
        state.userActions = UserActions.read(root, document)
        state.channelQueue = ChannelQueue.read(root, document)
        state.unappliedClicks = UnappliedClicks.read(root, document)
        readLearned(&state, root, document)
        state.calendar = CalendarMemory.read(root, document)
        state.memory = state.memory.readingLedger(root, document)
        if let problem = document.problems.first { throw problem }
        return state
    }

    /// What the last run left for `status`: its zone, its counts and budget, the missed list, the files' health,
    /// the outbox position and the badge.
    private static func readRunSummary(_ state: inout RunState, _ root: ObjectReader, _ document: DocumentReader) {
        state.timeZone = root.optionalString("timeZone")
        state.zoneWarning = root.optionalString("zoneWarning")
        state.lastDelivered = root.int("lastDelivered", default: 0, in: 0...Int.max) ?? 0
        state.lastMissed = root.int("lastMissed", default: 0, in: 0...Int.max) ?? 0
        if let budget = root.object("lastBudget"),
           let pending = budget.int("pending", default: nil, in: 0...Int.max),
           let limit = budget.int("limit", default: nil, in: 1...Int.max) {
            state.lastBudget = BudgetStatus(pending: pending, limit: limit)
        }
        state.deliveredTotal = root.int("deliveredTotal", default: 0, in: 0...Int.max) ?? 0
        state.missedTotal = root.int("missedTotal", default: 0, in: 0...Int.max) ?? 0
        state.recentMissed = root.elements("recentMissed").compactMap { element in
            guard let object = ObjectReader(element, in: document),
                  let id = object.string("id"), let kind = object.string("kind"), let title = object.string("title"),
                  let fireAt = object.instant("fireAt", required: true),
                  let reason = object.string("reason").flatMap(MissedRecord.Reason.init(rawValue:)),
                  let recordedAt = object.instant("recordedAt", required: true) else { return nil }
            return MissedRecord(id: id, kind: kind, title: title, fireAt: fireAt, reason: reason, recordedAt: recordedAt)
        }
        state.fileErrors = root.elements("fileErrors").compactMap { document.string($0.node) }
        state.fileNotes = root.elements("fileNotes").compactMap { document.string($0.node) }
        if let lastGood = root.object("lastGood") {
            for member in lastGood.members() {
                if let file = UserFile(rawValue: member.key), let hash = document.string(member.node) {
                    state.lastGood[file] = hash
                }
            }
        }
        state.outboxBytes = root.int("outboxBytes", default: 0, in: 0...Int.max) ?? 0
        state.outboxLastLine = root.optionalString("outboxLastLine")
        state.badge = root.int("badge", default: 0, in: 0...Int.max) ?? 0
        state.lastSuppressed = root.int("lastSuppressed", default: 0, in: 0...Int.max) ?? 0
    }

    /// What runs learned: the smart reminder time, the leave-times held, open departures, milestones reached.
    private static func readLearned(_ state: inout RunState, _ root: ObjectReader, _ document: DocumentReader) {
        if let smart = root.object("smartReminder"),
           let time = smart.wallTime("time", default: nil),
           let start = smart.int("windowStartHour", default: nil, in: 0...23),
           let coverage = smart.int("coveragePercent", default: nil, in: 0...100),
           let count = smart.int("playCount", default: nil, in: 0...Int.max),
           let computedAt = smart.instant("computedAt", required: true) {
            state.smartReminder = SmartReminder(
                result: SmartReminderTime.Result(time: time, windowStartHour: start, coveragePercent: coverage,
                                                 playCount: count),
                computedAt: computedAt)
        }
        if let times = root.object("plannedLeaveTimes") {
            for member in times.members() {
                if let date = times.instant(member.key, required: true) { state.plannedLeaveTimes[member.key] = date }
            }
        }
        for element in root.elements("departures") {
            guard let object = ObjectReader(element, in: document), let trip = object.string("trip"),
                  let at = object.instant("at", required: true) else {
                document.report(element.path, "is not a departure")
                continue
            }
            state.departures.append(Departure(trip: trip, at: at))
        }
        for element in root.elements("milestones") {
            guard let object = ObjectReader(element, in: document), let game = object.string("game"),
                  let days = object.int("days", default: nil, in: 1...Int.max) else {
                document.report(element.path, "is not a streak milestone")
                continue
            }
            state.milestones.append(Milestone(game: game, days: days,
                                              announcedAt: object.instant("announcedAt", required: false)))
        }
    }
}
