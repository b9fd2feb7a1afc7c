import FoundationEssentials
import Glibc
import NudgeCore

/// Everything a command reads from a data directory at one moment, loaded and checked, ready for `Planner.plan`:
/// the previous state (with the deliveries of a died run recovered from the outbox), the user files and the zone.
struct DataSnapshot {
    let directory: DataDirectory
    /// The previous state with any deliveries of a crashed run recovered from the outbox; nil before the
    /// first run.
    var state: RunState?
    /// The outbox length made only of complete lines, when a torn line must be cut off.
    var outboxRepairLength: Int?
    /// Valid files whose bytes differ from their last good copy, for `nudge run` to save as the new one; empty
    /// unless asked for. The bytes of every other file are let go once decoded: a run of a large household
    /// would otherwise hold its whole input through planning.
    let lastGoodUpdates: [LastGoodUpdate]
    let loaded: HouseholdLoader.Loaded
    let zone: Zone
    /// Why `zone` is not exactly what `TZ` asks for (docs/promises.md, never at the wrong hour); nil when it is.
    let zoneWarning: String?
    /// The zone the previous run planned in (`state.timeZone`), nil when unknown: after travel, what the person's
    /// own clock passed between the runs falls due.
    let previousZone: Zone?

    /// A file's bytes and their hash, to become its last good copy.
    struct LastGoodUpdate {
        let file: UserFile
        let data: [UInt8]
        let hash: String
    }

    /// Reads state, outbox tail, user files and the zones they name from the tz database. Never writes.
    /// `collectingLastGoodUpdates` keeps the bytes of the files whose last good copy is out of date.
    static func load(_ directory: DataDirectory, collectingLastGoodUpdates: Bool = false) throws -> DataSnapshot {
        try directory.requireExists()
        var state = try directory.loadState()
        let (files, unreadable) = directory.userFiles()
        // Each file is hashed at most once (a pass over the bytes: 40 ms for 37 MB).
        var hashes: UserFileMap<String> = [:]
        func hash(_ file: UserFile, _ data: [UInt8]) -> String {
            if let known = hashes[file] { return known }
            let computed = ContentHash.of(data)
            hashes[file] = computed
            return computed
        }
        let changed = files.files.filter { file in
            guard let data = files[file] else { return false }
            return state?.lastGood[file].map { $0 != hash(file, data) } == true
        } + unreadable.files
        // A run names its zone twice, in settings.json's check and as the zone it plans in: read once.
        var lastZone: Zone?
        func zoneNamed(_ name: String) -> Zone? {
            if let lastZone, lastZone.identifier == name { return lastZone }
            lastZone = ZoneDatabase.zone(named: name)
            return lastZone
        }
        let loaded = HouseholdLoader.load(current: files, lastGood: directory.lastGoodCopies(changed),
                                          unreadable: unreadable, zoneNamed: zoneNamed,
                                          zoneNames: ZoneDatabase.names)
        let updates = !collectingLastGoodUpdates ? [] : loaded.valid.compactMap { file -> LastGoodUpdate? in
            guard let data = files[file] else { return nil }
            let digest = hash(file, data)
            return state?.lastGood[file] == digest ? nil : LastGoodUpdate(file: file, data: data, hash: digest)
        }
        let zone = SystemZone.choose(settingsZone: loaded.household.settings.timeZone, zoneNamed: zoneNamed)
        let previousZone = state?.timeZone.flatMap { $0 == zone.zone.identifier ? zone.zone : zoneNamed($0) }
        let repairLength = try recover(&state, directory: directory,
                                       channels: loaded.household.settings.deliveryChannels)
        return DataSnapshot(directory: directory, state: state, outboxRepairLength: repairLength,
                         lastGoodUpdates: updates, loaded: loaded, zone: zone.zone, zoneWarning: zone.warning,
                         previousZone: previousZone)
    }

    /// Finishes the bookkeeping of a run that died after writing the outbox (`OutboxRecovery`): reads the
    /// outbox past what state.json accounts for. When the file is no longer the one state.json describes —
    /// rotated, truncated or replaced, even by one that has grown as long again — it is read from its start;
    /// ids already in the ledger are not counted twice. Returns the length to cut a torn last line back to.
    private static func recover(_ state: inout RunState?, directory: DataDirectory,
                                channels: [DeliveryChannel]) throws -> Int? {
        let outbox = OutboxFile(path: directory.path(of: .outbox))
        var recovering = state ?? RunState()
        let size = outbox.size()
        // Lines that follow the one state.json accounts for were written by a run that died: queued for every
        // channel, whatever the clock said then.
        var continuing = state != nil && recovering.outboxBytes > 0
        let rotatedAway = recovering.outboxBytes > size
            || !outbox.lineEnding(at: recovering.outboxBytes, hashes: recovering.outboxLastLine)
        let (accounted, accountedLine) = (recovering.outboxBytes, recovering.outboxLastLine)
        if state != nil && (rotatedAway || recovering.outboxBytes == 0) {
            // A run that died just before a rotation left its lines at the end of the rotated copy
            // (`outbox.jsonl.1`): finished from there first. Past the line state.json accounts for they are the
            // died run's; with nothing accounted for yet, only lines from the last saved run on are.
            let rotated = OutboxFile(path: directory.path(of: .rotatedOutbox))
            if rotated.size() > recovering.outboxBytes,
               rotated.lineEnding(at: recovering.outboxBytes, hashes: recovering.outboxLastLine) {
                _ = OutboxRecovery.recover(tail: try rotated.tail(from: recovering.outboxBytes), into: &recovering,
                                           channels: channels, continuing: continuing)
            }
        }
        // From here on the figures describe outbox.jsonl itself: from its start when it was rotated.
        recovering.accountOutbox(bytes: rotatedAway ? 0 : accounted, lastLine: rotatedAway ? nil : accountedLine)
        if rotatedAway || accounted == 0 { continuing = false }
        let tail = recovering.outboxBytes < size ? try outbox.tail(from: recovering.outboxBytes) : []
        guard !tail.isEmpty else {
            if state != nil { state = recovering }
            return nil
        }
        let outcome = OutboxRecovery.recover(tail: tail, into: &recovering, channels: channels,
                                             continuing: continuing)
        state = recovering
        return outcome.completeLength < size ? outcome.completeLength : nil
    }

    /// One stderr line per problem, naming the file by its path, and what nudge does about it.
    var problemLines: [String] {
        loaded.problems.map { "\(directory.path)/\($0)" } + fileNotes.map { "nudge: \($0)" }
    }

    /// What nudge does about each broken file or entry (docs/promises.md): a broken file's last good version stands in
    /// whole, or nothing of it plans; in a file whose entries stand alone, a broken entry plans from its last
    /// good version or not at all, and the others as written.
    var fileNotes: [String] {
        loaded.reports.filter { !$0.isValid }.flatMap { report -> [String] in
            let file = report.file.fileName
            if report.isUsable {
                let settings = report.brokenSettings.map { section in
                    loaded.restoredSettings.contains(section)
                        ? "\(file): \(section.rawValue) keeps its last good value until it is fixed; the other settings apply"
                        : "\(file): \(section.rawValue) is at its default until it is fixed; the other settings apply"
                }
                let restored = loaded.restored[report.file] ?? []
                return settings + report.brokenEntries.map { entry in
                    let id = entry.id.map { $0.count <= 40 ? $0 : $0.prefix(40) + "…" }
                    let name = "\(file): \(entry.path)\(id.map { " (\"\($0)\")" } ?? "")"
                    return restored.contains(entry) ? "\(name) plans from its last good version until it is fixed"
                        : "\(name) is not planned until it is fixed (it has no earlier valid version)"
                }
            }
            return [loaded.fallbacks.contains(report.file)
                ? "using the last good version of \(file) until it is fixed"
                : "\(file) has no earlier valid version: nothing from it is planned until it is fixed"]
        }
    }

    /// The ids queued for the desktop and the command when state.json was read (with any a died run left).
    var queuedIDs: Set<String> { Set((state?.channelQueue.deliveries ?? []).map(\.delivery.notification.id)) }

    /// Plans at `now`. The new state also keeps what `status` shows of this pass (`PassRecord`): why it ran, the
    /// problems in the user files and the zone warning; and the hashes of the last good copies it saves.
    func plan(now: Date, kind: PassRecord.Kind) -> PlanResult {
        let pass = PassRecord(kind: kind, fileErrors: loaded.problems.map(\.description), fileNotes: fileNotes,
                              zoneWarning: zoneWarning)
        var result = Planner.plan(loaded.household, previous: state, now: now, zone: zone, previousZone: previousZone,
                                  pass: pass)
        for update in lastGoodUpdates { result.state.noteLastGood(update.file, hash: update.hash) }
        return result
    }
}
