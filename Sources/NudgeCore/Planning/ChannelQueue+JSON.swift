import FoundationEssentials

/// The queue's members of `state.json`, under the names they had before the desktop channel joined the command:
/// `commandQueue` (each delivery with its channels, badge count, attempts and last error) and `commandFailures`.
extension ChannelQueue {
    /// The members of state.json the queue writes, in order (the manual and docs/files.md list them from here).
    public static let stateKeys = ["commandQueue", "commandFailures"]

    /// Writes the queue's members into the state's object, after the members written before them.
    func write(to out: inout PrettyJSONWriter) {
        out.key("commandQueue")
        out.open("[")
        for queued in deliveries {
            out.element()
            out.open("{")
            out.key("delivery"); out.value(queued.delivery.json)
            out.key("channels")
            out.open("[")
            for channel in queued.channels {
                out.element(); out.string(channel.rawValue)
            }
            out.close("]")
            out.key("badge"); out.number(queued.delivery.badge)
            out.key("attempts"); out.number(queued.attempts)
            out.key("lastError"); out.string(queued.lastError)
            out.close("}")
        }
        out.close("]")
        out.key("commandFailures")
        out.open("[")
        for failure in failures {
            out.element(); out.string(failure)
        }
        out.close("]")
    }

    /// Reads the queue from the state's object `root`, reporting each queued delivery it refuses.
    static func read(_ root: ObjectReader, _ document: DocumentReader) -> ChannelQueue {
        var deliveries: [QueuedDelivery] = []
        for element in root.elements("commandQueue") {
            guard let object = ObjectReader(element, in: document),
                  let record = object.member("delivery"), let delivery = Delivery(record: document.json(record)),
                  let attempts = object.int("attempts", default: 0, in: 0...Int.max) else {
                document.report(element.path, "is not a queued desktop-command delivery")
                continue
            }
            var withBadge = delivery
            withBadge.badge = object.int("badge", default: 0, in: 0...Int.max) ?? 0
            // A state written before the desktop channel existed queued for the command only.
            let channels = object.member("channels").map { _ in
                object.elements("channels").compactMap { document.string($0.node).flatMap(DeliveryChannel.init) }
            } ?? [.command]
            deliveries.append(QueuedDelivery(delivery: withBadge, channels: channels, attempts: attempts,
                                             lastError: object.optionalString("lastError")))
        }
        let failures = root.elements("commandFailures").compactMap { document.string($0.node) }
        return ChannelQueue(deliveries: deliveries, failures: failures)
    }
}
