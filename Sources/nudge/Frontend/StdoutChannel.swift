import FoundationEssentials
import Glibc
import NudgeCore

/// Channel 1 (docs/promises.md): a line on stdout per delivery, before the desktop and the command
/// (`ChannelQueueRunner`).
struct StdoutChannel {
    let console: Console
    let json: Bool
    let quiet: Bool
    let clock: WallClock

    /// One line per delivery for people, or with `--json` the outbox object; nothing with `--quiet`.
    func print(_ deliveries: [Delivery]) {
        guard !quiet else { return }
        for delivery in deliveries {
            console.out(json ? delivery.json.compactText : DeliveryLine.text(delivery, clock: clock))
        }
    }
}
