import FoundationEssentials
import NudgeCore

/// `nudge snooze ID [--minutes N]`: notify a delivered notification again N minutes from now.
enum SnoozeCommand {
    static let command = Command(
        name: "snooze",
        usage: "nudge snooze [ID] [--minutes N] [--now T] [--data DIR]",
        summary: "re-notify a delivered notification (ID, a unique prefix, or the last) N minutes from now",
        options: [
            minutes,
            .now, .data, .help,
        ],
        positionals: 0...1,
        forms: [[.household(.deliveries, suggesting: ["last"])]],
        run: run)

    static let minutes = OptionSpec.whole("--minutes", "N", 1...1440, "minutes from now, 1 to 1440")

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let now = arguments.now
        let directory = try arguments.directory().preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        try directory.edit(now: now, console: console) { edit in
            let snapshot = try edit.snapshot()
            let state = try edit.state()
            let original = try DeliveredRecord.find(arguments.positionals.first, state: state, directory: directory,
                                                    command: "snooze", zone: snapshot.zone, now: now)
            let settings = snapshot.loaded.household.settings
            let minutes = arguments.whole(Self.minutes)
                ?? SnoozeRule.defaultMinutes(for: original.kind, settings: settings)
            let clock = edit.clock
            if let settled = SettlementRule.settlement(of: original, household: snapshot.loaded.household,
                                                       state: state, now: now, clock: clock, forSnoozing: true) {
                edit.lines = [SnoozeRule.text(of: .settled(settled), original, clock: clock)]
                edit.replans = false
                return
            }
            let existing = try DeliveredRecord.snoozesMade(state: state, directory: directory)
            let outcome = try edit.changeState { state in
                let outcome = SnoozeRule.apply(to: original, minutes: minutes, now: now, state: &state,
                                               existing: existing)
                // Recorded as the button's action: the notification on screen is handled, and its waiter closes it.
                state.recordAction(original.actions.contains(NotificationAction.snoozeAction.rawValue)
                                   ? .snoozeAction : .snooze, on: original.id, now: now)
                return outcome
            }
            edit.lines = [SnoozeRule.text(of: outcome, original, clock: clock)]
        }
        return .success
    }
}
