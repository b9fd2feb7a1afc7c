import FoundationEssentials
import NudgeCore

/// `nudge laundry start PET wash|dry`, `nudge laundry fold PET`, `nudge laundry stop PET`: edits laundry.json
/// under the lock, atomically.
enum LaundryCommand {
    static let usage = "nudge laundry start PET wash|dry | fold PET | stop PET [--now T] [--data DIR]"

    static let command = Command(
        name: "laundry",
        usage: usage,
        summary: "start a wash or dry, fold, or stop PET's laundry cycle in laundry.json",
        options: [.now, .data, .help],
        positionals: 2...3,
        forms: [
            [.word(["start"]), .household(.pets), .word(LaundryCycle.Stage.allCases.map(\.rawValue))],
            [.word(["fold"]), .household(.pets)],
            [.word(["stop"]), .household(.pets)],
        ],
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let action = try parseAction(arguments.positionals)
        let petID = arguments.positionals[1]
        let now = arguments.now
        let directory = try arguments.directory().preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        let lock = try directory.lock(wait: DirectoryLock.editingWait)
        defer { withExtendedLifetime(lock) {} }
        let current = try directory.readUserFile(.laundry)
        let used = try usedCycleIDs(ofPet: petID, state: try DataSnapshot.load(directory).state, directory: directory)
        switch LaundryEditor.apply(action, toPet: petID, in: current, now: now, usedCycleIDs: used) {
        case .success(let content):
            let changed = content != current
            if changed {
                try directory.writeUserFile(.laundry, content)
            }
            let settings = directory.settings()
            let clock = WallClock(zone: SystemZone.resolve(settingsZone: settings.timeZone))
            let pet = UserFileDecoder.pets(content).0?.first { $0.id == petID }
            console.out(confirmation(action, pet: pet, petID: petID, changed: changed, now: now, clock: clock))
            if let line = replaced(by: action, petID: petID, in: current, now: now) { console.out(line) }
            try Pass.replanAfterEdit(directory, console: console, now: now)
            return .success
        case .failure(let failure):
            throw CLIError.badData(failure.description.split(separator: "\n").map { "\(directory.path)/\($0)" })
        }
    }

    /// The ids `petID`'s cycles had in the occurrences nudge remembers: the ledger, the deliveries and the seen
    /// one-offs of `state` (read with what a run that died before saving it had written to the outbox:
    /// `DataSnapshot.load`), and the outbox. A clock set back to the second an earlier cycle started would otherwise
    /// name a new cycle like it, and its stages would count as already delivered or seen.
    static func usedCycleIDs(ofPet petID: String, state: RunState?, directory: DataDirectory) throws -> Set<String> {
        let remembered = state?.memory.rememberedIDs ?? []
        let delivered = try DeliveredRecord.outboxDeliveries(directory).map(\.notification.id)
        return LaundryEditor.cycleIDs(ofPet: petID, in: remembered + delivered)
    }

    /// The line that says what `action` replaced or cleared of pet `petID` in laundry.json's content before the
    /// edit (`LaundryEditor.replaced`); nil when nothing.
    static func replaced(by action: LaundryEditor.Action, petID: String, in content: [UInt8]?, now: Date) -> String? {
        guard let pet = content.flatMap({ UserFileDecoder.pets($0).0 })?.first(where: { $0.id == petID }) else {
            return nil
        }
        return LaundryEditor.replaced(by: action, pet: pet, now: now)
    }

    /// ACTION PET [STAGE] as an action; every other combination is a usage error (exit 64).
    static func parseAction(_ positionals: [String]) throws -> LaundryEditor.Action {
        func wrong(_ problem: String) -> CLIError {
            CLIError.usage("nudge laundry: \(problem); usage: \(usage)")
        }
        switch (positionals[0], positionals.count) {
        case ("start", 3):
            guard let stage = LaundryCycle.Stage(rawValue: positionals[2]) else {
                throw wrong("\"\(positionals[2])\" is not a stage (expected wash or dry)")
            }
            return .start(stage)
        case ("start", _):
            throw wrong("start needs a pet and a stage (wash or dry)")
        case ("fold", 2):
            return .fold
        case ("stop", 2):
            return .stop
        case ("fold", _), ("stop", _):
            throw wrong("\(positionals[0]) takes only a pet")
        default:
            throw wrong("unknown action \"\(positionals[0])\" (expected start, fold or stop)")
        }
    }

    /// The one line printed on success, with local times in the user's zone:
    /// "Snowy: wash started at 2026-11-21 08:30 (done at 09:15)."
    static func confirmation(_ action: LaundryEditor.Action, pet: Pet?, petID: String, changed: Bool, now: Date,
                             clock: WallClock) -> String {
        let name = pet?.name ?? petID
        let at = TextFormat.localDateTime(now, clock)
        switch action {
        case .start(let stage):
            guard let pet else { return "\(name): \(stage.rawValue) started at \(at)." }
            let minutes = stage == .wash ? pet.washMinutes : pet.dryMinutes
            let doneAt = now.addingTimeInterval(TimeInterval(minutes) * 60)
            var done = TextFormat.localDateTime(doneAt, clock)
            if clock.localDate(of: doneAt) == clock.localDate(of: now) {
                done = String(done.suffix(5))
            }
            let cycle = pet.cycle.map { ", cycle \($0.id)" } ?? ""
            return "\(name): \(stage.rawValue) started at \(at) (done at \(done)\(cycle))."
        case .fold:
            return "\(name): laundry folded at \(at); no cycle under way."
        case .stop:
            return changed
                ? "\(name): cycle stopped at \(at); its notifications will not be delivered."
                : "\(name): no cycle under way; nothing to stop."
        }
    }
}
