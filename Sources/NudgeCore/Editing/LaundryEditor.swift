import FoundationEssentials

/// `nudge laundry start|fold|stop`: edits one pet in `laundry.json`, keeping every other byte of the user's file
/// as it was (unknown keys at any level, key order, layout: `JSONSplice`).
public enum LaundryEditor {
    /// What the user did with a pet's laundry.
    public enum Action: Equatable, Sendable {
        /// Put the load in the washer or the dryer: the cycle's stage becomes this, started now.
        case start(LaundryCycle.Stage)
        /// The laundry is folded: `lastCompletedAt` is now and no cycle is under way.
        case fold
        /// The cycle is abandoned: it is removed, so its notifications are never delivered.
        case stop
    }

    /// What went wrong, for a message and exit 65.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noFile(pet: String)
        case invalidFile([DataProblem])
        case unknownPet(String, known: [String])

        public var description: String {
            switch self {
            case .noFile(let pet):
                return "laundry.json: no such file, so there are no pets; add {\"pets\": [{\"id\": \"\(pet)\"}]} "
                    + "to it first"
            case .invalidFile(let problems):
                return problems.map(\.description).joined(separator: "\n")
            case let .unknownPet(pet, known):
                let list = known.isEmpty ? "none" : known.joined(separator: ", ")
                return "laundry.json: unknown pet \"\(pet)\" (known: \(list))"
            }
        }
    }

    /// The file's new content after `action` on pet `petID` at `now`. `data` nil means the file does not exist.
    /// `usedCycleIDs` are the ids the pet's cycles had in the occurrences nudge remembers (`cycleIDs(ofPet:in:)`):
    /// a new cycle is never named like one of them, or its stages would count as already settled.
    ///
    /// - `start(.wash)`: `cycle` becomes `{"id": NEW, "stage": "wash", "startedAt": now}`, replacing any cycle.
    /// - `start(.dry)`: `stage` and `startedAt` change, the cycle keeps its id (docs/files.md) and its other keys;
    ///   with no cycle under way it is a new one; restarting a cycle already in the dryer gives it a new id. A
    ///   cycle the user wrote without `"id"` stays without one (the id the decoder gives it, its start instant,
    ///   is not a valid `"id"` value), unless that name is a used one: then it gets a new id.
    /// - `fold`: `lastCompletedAt` becomes now and `cycle` is removed.
    /// - `stop`: `cycle` is removed; with no cycle under way `data` is returned as it is.
    ///
    /// The result is validated like any user file, so an edit never leaves a file `nudge run` would refuse.
    public static func apply(_ action: Action, toPet petID: String, in data: [UInt8]?, now: Date,
                             usedCycleIDs: Set<String>) -> Result<[UInt8], Failure> {
        guard let data else { return .failure(.noFile(pet: petID)) }
        let (decoded, report) = UserFileDecoder.pets(data)
        guard report.isValid, let pets = decoded, let document = try? JSONParser.parse(data) else {
            return .failure(.invalidFile(report.problems))
        }
        var elements = document["pets"]?.arrayValue ?? []
        guard let index = elements.firstIndex(where: { $0["id"]?.stringValue == petID }),
              let pet = pets.first(where: { $0.id == petID }) else {
            return .failure(.unknownPet(petID, known: pets.map(\.id)))
        }
        let stamp = JSONValue.string(RFC3339.format(now))
        let replaced = usedCycleIDs.union(pet.cycle.map { [$0.id] } ?? [])
        var element = elements[index]
        switch action {
        case .start(.wash):
            element = element.setting("cycle", to: .object([
                JSONMember("id", .string(cycleID(startedAt: now, avoiding: replaced))),
                JSONMember("stage", .string(LaundryCycle.Stage.wash.rawValue)), JSONMember("startedAt", stamp),
            ]))
        case .start(.dry):
            var cycle = element["cycle"].flatMap { $0.isNull ? nil : $0 }
                ?? .object([JSONMember("id", .string(cycleID(startedAt: now, avoiding: usedCycleIDs)))])
            // Restarting the dryer is a new event: with the old id its "Dry Complete!" would count as delivered. A
            // cycle without "id" is named by its new start, which may be a used name too.
            if pet.cycle?.stage == .dry || cycle["id"] == nil && usedCycleIDs.contains(RFC3339.format(now)) {
                cycle = cycle.setting("id", to: .string(cycleID(startedAt: now, avoiding: replaced)))
            }
            element = element.setting("cycle", to: cycle.setting("stage", to: .string(LaundryCycle.Stage.dry.rawValue))
                .setting("startedAt", to: stamp))
        case .fold:
            element = element.setting("lastCompletedAt", to: stamp).removing("cycle")
        case .stop:
            guard element["cycle"] != nil else { return .success(data) }
            element = element.removing("cycle")
        }
        elements[index] = element
        let content = JSONSplice.content(document.setting("pets", to: .array(elements)), replacing: data,
                                         read: document)
        let (edited, editedReport) = UserFileDecoder.pets(content)
        guard edited != nil, editedReport.isValid else { return .failure(.invalidFile(editedReport.problems)) }
        return .success(content)
    }

    /// The line that says what `action` ends besides what it does, for `pet` as it was before: the cycle a start
    /// replaces ("Rex's wash, started 12 min ago, replaced by a new one."), or one a fold clears while its stage
    /// is still running. Nil when it ends nothing: a wash moved to the dryer goes on, a stop says so itself.
    public static func replaced(by action: Action, pet: Pet, now: Date) -> String? {
        guard let cycle = pet.cycle else { return nil }
        let minutes = cycle.stage == .wash ? pet.washMinutes : pet.dryMinutes
        let end = cycle.startedAt.addingTimeInterval(TimeInterval(minutes) * 60)
        let what = "\(pet.name)'s \(cycle.stage.rawValue), "
        switch action {
        case .start(let stage):
            guard !(cycle.stage == .wash && stage == .dry) else { return nil }
            let since = end <= now ? "finished \(TextFormat.relative(end, from: now))" : started(cycle, now: now)
            return what + since + ", replaced by a new " + (stage == cycle.stage ? "one." : "\(stage.rawValue).")
        case .fold:
            return end > now ? what + started(cycle, now: now) + ", cleared before it finished." : nil
        case .stop:
            return nil
        }
    }

    /// "started 12 min ago", "started just now", or after a clock set back "set to start in 5 min".
    private static func started(_ cycle: LaundryCycle, now: Date) -> String {
        let when = TextFormat.relative(cycle.startedAt, from: now)
        if when == "now" { return "started just now" }
        return cycle.startedAt > now ? "set to start \(when)" : "started \(when)"
    }

    /// A new cycle's id, named after its start in UTC: `c-20261121T073000Z`; `-2`, `-3`… when that name is
    /// in `taken` (the cycle it replaces, or one a clock set back to the same second had already named), so the
    /// new cycle's notifications are new occurrences.
    static func cycleID(startedAt: Date, avoiding taken: Set<String>) -> String {
        let utc = LocalDateTime(secondsSinceEpoch: LocalDateTime.floorSeconds(of: startedAt))
        let date = utc.date
        let base = "c-" + LocalDate.zeroPadded(date.year, width: 4) + LocalDate.zeroPadded(date.month, width: 2)
            + LocalDate.zeroPadded(date.day, width: 2) + "T" + LocalDate.zeroPadded(utc.hour, width: 2)
            + LocalDate.zeroPadded(utc.minute, width: 2) + LocalDate.zeroPadded(utc.second, width: 2) + "Z"
        var candidate = base
        var suffix = 2
        while taken.contains(candidate) {
            candidate = "\(base)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// The cycle ids of pet `petID` named by the laundry stages among `occurrenceIDs`
    /// (`laundry.<stage>:<pet>:<cycle>`, snooze suffix ignored); health warnings name a date, not a cycle.
    public static func cycleIDs(ofPet petID: String, in occurrenceIDs: some Sequence<String>) -> Set<String> {
        let health = NotificationKind.laundryHealth.rawValue + ":"
        var cycles: Set<String> = []
        for text in occurrenceIDs where text.hasPrefix("laundry.") && !text.hasPrefix(health) {
            guard let id = OccurrenceID(text), id.source == petID else { continue }
            cycles.insert(id.event)
        }
        return cycles
    }
}
