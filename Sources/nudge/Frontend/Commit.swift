import FoundationEssentials
import NudgeCore

/// Everything one step of a command decided to write, and the one place that writes nudge's own files
/// (docs/design.md, "Writing files"): plan.json, the last good copies, the outbox and state.json. A pass commits
/// its plan; the channels, an edit, a test notification and the click waiter commit the state they changed.
struct Commit {
    /// The new plan.json; nil when the step did not plan.
    var plan: Plan?
    /// The state that makes the rest final, its outbox lines and last good copies accounted for; nil when only
    /// the plan changed.
    var state: RunState?
    /// User files whose bytes become their last good copy.
    var lastGood: [DataSnapshot.LastGoodUpdate] = []
    /// The outbox length made only of complete lines, when a torn last line must be cut off first.
    var outboxRepairLength: Int?
    /// Whole lines to append to the outbox.
    var outboxLines = ""

    /// A pass's plan and state, the last good copies and outbox repair its snapshot found, and its deliveries.
    init(_ result: PlanResult, snapshot: DataSnapshot) {
        self.init(plan: result.plan, state: result.state, lastGood: snapshot.lastGoodUpdates,
                  outboxRepairLength: snapshot.outboxRepairLength, outboxLines: result.outboxLines)
    }

    init(plan: Plan? = nil, state: RunState? = nil, lastGood: [DataSnapshot.LastGoodUpdate] = [],
         outboxRepairLength: Int? = nil, outboxLines: String = "") {
        self.plan = plan
        self.state = state
        self.lastGood = lastGood
        self.outboxRepairLength = outboxRepairLength
        self.outboxLines = outboxLines
    }

    /// Writes in the order that keeps every promise through a crash at any instant: plan, last good copies, the
    /// outbox (flushed), then state.json, which makes the deliveries final. A run that dies before the state is
    /// saved is finished by the next one from the outbox.
    ///
    /// The state of a pass that delivered nothing skips the directory flush: after a power loss the previous
    /// complete version may come back, which is what the next run would have found had this pass not happened,
    /// and it finishes any delivery from the flushed outbox. Every other state (an edit, the channels' outcome, a
    /// click) is flushed. plan.json, which nothing reads back, is not flushed at all.
    func write(to directory: DataDirectory) throws {
        if let plan {
            try directory.write(.plan, plan.fileContent, durability: .derived)
        }
        for update in lastGood {
            try directory.saveLastGood(update.file, update.data)
        }
        let outbox = OutboxFile(path: directory.path(of: .outbox))
        if let outboxRepairLength {
            try outbox.truncate(to: outboxRepairLength)
        }
        if !outboxLines.isEmpty {
            try outbox.append(outboxLines)
        }
        if let state {
            let quietPass = plan != nil && outboxLines.isEmpty
            try directory.write(.state, state.fileContent, durability: quietPass ? .oldOrNew : .durable)
        }
    }
}
