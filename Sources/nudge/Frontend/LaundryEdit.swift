import FoundationEssentials
import NudgeCore

/// A laundry edit, by `nudge laundry` or by "Start Dryer" and "Mark Folded" (`ActionApplier`): laundry.json
/// changed through a `DataEdit`, and the lines that say what it did.
enum LaundryEdit {
    /// Applies `action` to pet `petID` at the edit's `now`; `writesUnchanged`: a click writes the file even when
    /// nothing changed, as it always has. Returns the lines that say what it did.
    static func apply(_ action: LaundryEditor.Action, toPet petID: String, _ edit: inout DataEdit,
                      writesUnchanged: Bool = false) throws -> [String] {
        let current = try edit.read(.laundry)
        let used = try usedCycleIDs(ofPet: petID, state: edit.snapshot().state, directory: edit.directory)
        switch LaundryEditor.apply(action, toPet: petID, in: current, now: edit.now, usedCycleIDs: used) {
        case .success(let content):
            let changed = content != current
            if changed || writesUnchanged { try edit.write(.laundry, content) }
            let pet = UserFileDecoder.pets(content).0?.first { $0.id == petID }
            return [confirmation(action, pet: pet, petID: petID, changed: changed || writesUnchanged, now: edit.now,
                                 clock: edit.clock),
                    replaced(by: action, petID: petID, in: current, now: edit.now)].compactMap { $0 }
        case .failure(let failure):
            throw edit.badData(failure.description)
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
