import FoundationEssentials
import NudgeCore

/// Finds a delivered notification from what a person types (docs/design.md, "Acting on a delivery"): its full
/// occurrence id, `last` (the most recent delivery but a missed digest, which holds nothing to act on), a unique
/// prefix of an id, or the id of its source as written in the person's file (`fajr`: the latest delivery of that
/// alarm; a prefix of a delivery's id wins). The record is read back from
/// `outbox.jsonl`, or from the snoozes and timers kept in state.
///
/// A delivery can be acted on until two days after it expired (`DeliveryMemory.ledgerRetention`), measured from its
/// expiry by the command's clock, whether or not a run pruned its ledger entry meanwhile. After
/// that, such a delivery is named with its date as too old, never as one that was not delivered.
enum DeliveredRecord {
    /// The delivered record `text` names; nil `text` means the most recent delivery. `zone` is for the date of
    /// a delivery too old to act on.
    ///
    /// - Throws: `CLIError.badData` (exit 65) when nothing delivered matches, a prefix matches several, or the
    ///   delivery is too old.
    static func find(_ text: String?, state: RunState, directory: DataDirectory, command: String,
                     zone: Zone, now: Date) throws -> NudgeCore.Notification {
        let deliveries = try outboxDeliveries(directory)
        let wanted = text ?? "last"
        let id: String
        if wanted == "last" {
            let actable = deliveries.last { $0.notification.kind != .missedDigest }
            guard let last = actable?.notification.id ?? newestInLedger(state) else {
                throw CLIError.badData(["nudge \(command): nothing was delivered yet"])
            }
            id = last
        } else if state.memory.wasDelivered(wanted) || deliveries.contains(where: { $0.notification.id == wanted }) {
            id = wanted
        } else {
            id = try matching(prefix: wanted, state: state, deliveries: deliveries, command: command, zone: zone)
        }
        let record = deliveries.last(where: { $0.notification.id == id })?.notification
            ?? (state.userActions.snoozes + state.userActions.timers)
                .first(where: { $0.id == id && state.memory.wasDelivered(id) })
        guard let expiresAt = record?.expiresAt ?? state.memory.ledger[id]?.expiresAt else {
            throw tooOld(id, deliveries: deliveries, command: command, zone: zone)
        }
        guard now <= expiresAt.addingTimeInterval(DeliveryMemory.ledgerRetention) else {
            throw tooOld(id, deliveries: deliveries, command: command, zone: zone)
        }
        if let record { return record }
        throw CLIError.badData(["nudge \(command): \(id) was delivered, but its record is no longer in outbox.jsonl"])
    }

    /// The one delivery whose id starts with `prefix`: among those that can still be acted on, else among the
    /// older ones in the outbox, to say that they are too old.
    private static func matching(prefix: String, state: RunState, deliveries: [Delivery], command: String,
                                 zone: Zone) throws -> String {
        let ledger = state.memory.ledger
        let current = Set(ledger.keys.filter { $0.hasPrefix(prefix) && ledger[$0]?.outcome == .delivered })
        let matches = current.sorted()
        if matches.count > 1 {
            throw CLIError.badData(["nudge \(command): \(prefix) matches \(matches.count) delivered "
                + "notifications: \(matches.prefix(5).joined(separator: ", "))\(matches.count > 5 ? ", …" : ""); "
                + "type more of the id"])
        }
        if let only = matches.first { return only }
        var older: Set<String> = []
        var latest: String?
        for delivery in deliveries where delivery.notification.id.hasPrefix(prefix) {
            older.insert(delivery.notification.id)
            latest = delivery.notification.id
        }
        guard let latest else {
            // Not a prefix of any id: the id of a source as the person wrote it in a file (docs/design.md, "Acting on a delivery").
            if let bySource = newestDelivery(ofSource: prefix, state: state, deliveries: deliveries) { return bySource }
            throw CLIError.badData(["nudge \(command): \(prefix) matches no delivered notification "
                + "(`nudge status` lists the last deliveries; `last` names the most recent; the id of an alarm, pet, "
                + "trip or game names its latest)"])
        }
        if older.count > 1 {
            let when = deliveredAt(latest, deliveries: deliveries, zone: zone)
            throw CLIError.badData(["nudge \(command): \(prefix) matches only \(older.count) deliveries too long ago "
                + "\(purpose(command)) (the latest: \(latest), delivered on \(when))"])
        }
        return latest
    }

    /// The most recent delivery of `source` (`fajr`, `snowy`, `office`, `wordle`: the id in the person's file),
    /// snoozes included: the newest the ledger knows, else the last in the outbox (then named as too old).
    private static func newestDelivery(ofSource source: String, state: RunState, deliveries: [Delivery]) -> String? {
        var newest: (at: Date, id: String)?
        for (id, entry) in state.memory.ledger where entry.outcome == .delivered && OccurrenceID(id)?.source == source {
            if newest.map({ ($0.at, $0.id) < (entry.at, id) }) ?? true { newest = (entry.at, id) }
        }
        return newest?.id
            ?? deliveries.last(where: { OccurrenceID($0.notification.id)?.source == source })?.notification.id
    }

    /// The error for a delivery whose ledger entry was pruned.
    private static func tooOld(_ id: String, deliveries: [Delivery], command: String, zone: Zone) -> CLIError {
        guard deliveries.contains(where: { $0.notification.id == id }) else {
            return CLIError.badData(["nudge \(command): \(id) matches no delivered notification "
                + "(`nudge status` lists the last deliveries; `last` names the most recent)"])
        }
        return CLIError.badData(["nudge \(command): \(id) was delivered on "
            + "\(deliveredAt(id, deliveries: deliveries, zone: zone)), too long ago \(purpose(command))"])
    }

    /// "to snooze", "to act on".
    private static func purpose(_ command: String) -> String {
        command == "snooze" ? "to snooze" : "to act on"
    }

    /// When `id` was last delivered, in local time: "2026-11-18 05:30".
    private static func deliveredAt(_ id: String, deliveries: [Delivery], zone: Zone) -> String {
        guard let delivery = deliveries.last(where: { $0.notification.id == id }) else { return "an unknown date" }
        return TextFormat.localDateTime(delivery.deliveredAt, WallClock(zone: zone))
    }

    /// The most recent delivery the ledger knows, for `last` when the outbox was rotated away.
    private static func newestInLedger(_ state: RunState) -> String? {
        state.memory.ledger.filter { _, entry in
            entry.outcome == .delivered && entry.kind != NotificationKind.missedDigest.rawValue
        }.max { ($0.value.at, $0.key) < ($1.value.at, $1.key) }?.key
    }

    /// The snoozes kept in state and those the outbox shows delivered, for the number of the next one.
    static func snoozesMade(state: RunState, directory: DataDirectory) throws -> [NudgeCore.Notification] {
        state.userActions.snoozes
            + (try outboxDeliveries(directory)).map(\.notification).filter { $0.id.contains(":snooze-") }
    }

    /// Every delivery in the outbox, oldest first.
    static func outboxDeliveries(_ directory: DataDirectory) throws -> [Delivery] {
        guard let outbox = try directory.read(.outbox) else { return [] }
        return outbox.split(separator: UInt8(ascii: "\n")).compactMap { line in
            (try? JSONParser.parse(Array(line))).flatMap(Delivery.init(record:))
        }
    }
}
