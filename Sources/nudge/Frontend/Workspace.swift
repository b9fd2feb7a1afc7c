import Foundation
import NudgeCore

/// Everything a run reads from a data directory, loaded and checked, ready for `Planner.plan`.
struct Workspace {
    let directory: DataDirectory
    /// The previous state with any deliveries of a crashed run recovered from the outbox; nil before the
    /// first run.
    var state: RunState?
    /// The outbox length made only of complete lines, when a torn line must be cut off.
    var outboxRepairLength: Int?
    let files: [UserFile: Data]
    let loaded: HouseholdLoader.Loaded
    let zone: TimeZone

    /// Reads state, outbox tail and user files. Never writes.
    static func load(_ directory: DataDirectory) throws -> Workspace {
        try directory.requireExists()
        var state = try directory.loadState()
        var repairLength: Int?
        let outbox = OutboxFile(url: directory.fileURL("outbox.jsonl"))
        var recovering = state ?? RunState()
        let size = outbox.size()
        if recovering.outboxBytes > size {
            // Rotated or truncated by hand: read it all again; ids already in the ledger are not counted twice.
            recovering.outboxBytes = 0
        }
        let tail = recovering.outboxBytes < size ? try outbox.tail(from: recovering.outboxBytes) : Data()
        if !tail.isEmpty {
            let outcome = OutboxRecovery.recover(tail: tail, into: &recovering)
            if outcome.completeLength < size { repairLength = outcome.completeLength }
            state = recovering
        } else if state != nil {
            state = recovering
        }

        let (files, unreadable) = directory.userFiles()
        let changed = files.compactMap { file, data in
            state?.lastGood[file] != nil && state?.lastGood[file] != ContentHash.of(data) ? file : nil
        } + Array(unreadable.keys)
        let loaded = HouseholdLoader.load(current: files, lastGood: directory.lastGoodCopies(changed),
                                          unreadable: unreadable)
        let zone = SystemZone.resolve(settingsZone: loaded.household.settings.timeZone)
        return Workspace(directory: directory, state: state, outboxRepairLength: repairLength, files: files,
                         loaded: loaded, zone: zone)
    }

    /// One stderr line per problem, naming the file by its path, and what nudge does about it.
    var problemLines: [String] {
        var lines = loaded.problems.map { "\(directory.path)/\($0)" }
        for report in loaded.reports where !report.isValid {
            if loaded.fallbacks.contains(report.file) {
                lines.append("nudge: using the last good version of \(report.file.fileName) until it is fixed")
            } else {
                lines.append("nudge: \(report.file.fileName) has no earlier valid version: "
                    + "nothing from it is planned until it is fixed")
            }
        }
        return lines
    }

    func plan(now: Date) -> PlanResult {
        Planner.plan(loaded.household, previous: state, now: now, zone: zone)
    }
}
