import Foundation
import NudgeCore

/// Finds a delivered notification from what a person types (SPEC §11.20): its full occurrence id, `last` (the
/// most recent delivery), or a unique prefix of an id. The record is read back from `outbox.jsonl`, or from the
/// snoozes and timers kept in state.
enum DeliveredRecord {
    /// The delivered record `text` names; nil `text` means the most recent delivery.
    ///
    /// - Throws: `CLIError.badData` (exit 65) when nothing delivered matches, or a prefix matches several.
    static func find(_ text: String?, state: RunState, directory: DataDirectory, command: String) throws
        -> NudgeCore.Notification {
        let records = try outboxRecords(directory)
        let delivered = { (id: String) in state.ledger[id]?.outcome == .delivered }
        let wanted = text ?? "last"
        let id: String
        if wanted == "last" {
            guard let last = records.last(where: { delivered($0.id) }) else {
                throw CLIError.badData(["nudge \(command): nothing was delivered yet"])
            }
            id = last.id
        } else if delivered(wanted) {
            id = wanted
        } else {
            let matches = Set(state.ledger.keys.filter { $0.hasPrefix(wanted) && delivered($0) }).sorted()
            guard let only = matches.first else {
                throw CLIError.badData(["nudge \(command): \(wanted) matches no delivered notification "
                    + "(`nudge status` lists the last deliveries; `last` names the most recent)"])
            }
            guard matches.count == 1 else {
                throw CLIError.badData(["nudge \(command): \(wanted) matches \(matches.count) delivered "
                    + "notifications: \(matches.prefix(5).joined(separator: ", "))\(matches.count > 5 ? ", …" : ""); "
                    + "type more of the id"])
            }
            id = only
        }
        if let record = records.last(where: { $0.id == id }) { return record }
        if let kept = (state.snoozes + state.timers).first(where: { $0.id == id }) { return kept }
        throw CLIError.badData(["nudge \(command): \(id) was delivered, but its record is no longer in outbox.jsonl"])
    }

    /// Every record in the outbox, oldest first.
    static func outboxRecords(_ directory: DataDirectory) throws -> [NudgeCore.Notification] {
        guard let outbox = try directory.read("outbox.jsonl") else { return [] }
        return outbox.split(separator: UInt8(ascii: "\n")).compactMap { line in
            (try? JSONParser.parse(Data(line))).flatMap(Delivery.init(record:))?.notification
        }
    }
}
