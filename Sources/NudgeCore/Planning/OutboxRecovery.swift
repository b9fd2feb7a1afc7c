import FoundationEssentials

/// Finishes the bookkeeping of a run that died after appending to `outbox.jsonl` but before saving
/// `state.json` (killed, or the disk full when the state was written): the outbox is written first, so every
/// line in it counts as delivered, and every channel after it still owes the person that delivery
/// (docs/promises.md): it is counted for the badge and queued for the desktop and the command like any delivery.
public enum OutboxRecovery {
    /// What recovery found in the outbox's unaccounted tail.
    public struct Outcome: Equatable, Sendable {
        /// Ids taken into the ledger as delivered.
        var recoveredIDs: [String]
        /// The outbox length that holds only complete lines; a torn last line beyond it should be cut off.
        public var completeLength: Int
    }

    /// Reads the bytes of the outbox from `state.outboxBytes` on and records their ids in the ledger; each one
    /// delivered by the run that died is also counted for the badge and queued for `channels`.
    ///
    /// `continuing` says that the tail follows the very line state.json accounts for: then every line in it was
    /// written by a run that died, whatever its clock said. Otherwise (the file was rotated or replaced, or there
    /// is no state), a line delivered before the previous saved run (`deliveredAt` earlier than `lastRunAt`), or
    /// found with no state at all (state.json deleted to start afresh), is history, not a run that died: its id
    /// is recorded, nothing else. The test notification is never shown late (a test says at once whether it got
    /// through).
    public static func recover(tail: [UInt8], into state: inout RunState, channels: [DeliveryChannel] = [],
                               continuing: Bool = false) -> Outcome {
        let bytes = [UInt8](tail)
        var recovered: [String] = []
        var lineStart = 0
        var completeEnd = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            let line = bytes[lineStart...index]
            lineStart = index + 1
            completeEnd = lineStart
            guard let record = try? JSONParser.parse(Array(line.dropLast())),
                  let delivery = Delivery(record: record) else { continue }
            let notification = delivery.notification
            guard state.memory.recordDeliveryUnlessRecorded(notification, deliveredAt: delivery.deliveredAt) else {
                continue
            }
            recovered.append(notification.id)
            guard continuing || state.lastRunAt.map({ delivery.deliveredAt >= $0 }) == true else { continue }
            state.deliveredTotal += 1
            if notification.badge { state.badge += 1 }
            if !channels.isEmpty && notification.kind != .test {
                var queued = delivery
                queued.badge = state.badge
                state.channelQueue.enqueue(queued, channels: channels)
            }
        }
        if completeEnd > 0 {
            state.outboxBytes += completeEnd
            state.outboxLastLine = lastLineHash(bytes[..<completeEnd])
        }
        return Outcome(recoveredIDs: recovered, completeLength: state.outboxBytes)
    }

    /// The hash of the last line of `bytes`, which end with a newline: what `RunState.outboxLastLine` holds.
    static func lastLineHash(_ bytes: ArraySlice<UInt8>) -> String {
        let body = bytes.dropLast()
        let start = body.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? body.startIndex
        return ContentHash.of(bytes[start...])
    }
}
