import Foundation

/// Finishes the bookkeeping of a run that died after appending to `outbox.jsonl` but before saving
/// `state.json`: the outbox is written first, so every line in it counts as delivered (SPEC §8).
public enum OutboxRecovery {
    /// What recovery found in the outbox's unaccounted tail.
    public struct Outcome: Equatable, Sendable {
        /// Ids taken into the ledger as delivered.
        public var recoveredIDs: [String]
        /// The outbox length that holds only complete lines; a torn last line beyond it should be cut off.
        public var completeLength: Int
    }

    /// Reads the bytes of the outbox from `state.outboxBytes` on and records their ids in the ledger.
    public static func recover(tail: Data, into state: inout RunState) -> Outcome {
        let bytes = [UInt8](tail)
        var recovered: [String] = []
        var lineStart = 0
        var completeEnd = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            let line = Array(bytes[lineStart..<index])
            lineStart = index + 1
            completeEnd = lineStart
            guard let record = try? JSONParser.parse(line),
                  let id = record["id"]?.stringValue,
                  let kind = record["kind"]?.stringValue,
                  let fireAt = record["fireAt"]?.stringValue.flatMap(RFC3339.parse),
                  let expiresAt = record["expiresAt"]?.stringValue.flatMap(RFC3339.parse),
                  let deliveredAt = record["deliveredAt"]?.stringValue.flatMap(RFC3339.parse) else { continue }
            if state.ledger[id]?.outcome != .delivered {
                state.ledger[id] = LedgerEntry(outcome: .delivered, kind: kind, fireAt: fireAt, expiresAt: expiresAt,
                                               at: deliveredAt)
                state.deliveredTotal += 1
                recovered.append(id)
            }
        }
        state.outboxBytes += completeEnd
        return Outcome(recoveredIDs: recovered, completeLength: state.outboxBytes)
    }
}
