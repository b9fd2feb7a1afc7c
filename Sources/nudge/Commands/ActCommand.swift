import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `nudge act ID ACTION` (docs/design.md, "Acting on a delivery"): applies an action to a delivered notification, as a
/// click on its button does. Under the lock, at most once per notification and action, then re-planning
/// (docs/design.md, "The lock").
enum ActCommand {
    static let command = Command(
        name: "act",
        usage: "nudge act ID ACTION [--now T] [--data DIR]",
        summary: "apply an action (SNOOZE, COMPLETE_ACTION, START_TIMER, MARK_PLAYED, …) to a delivered notification",
        options: [.now, .data, .help],
        positionals: 2...2,
        forms: [[.household(.deliveries, suggesting: ["last"]), .word(offeredActions.map(\.rawValue))]],
        run: run)

    /// The actions that do something on some kind of notification, for completion: VIEW_ACHIEVEMENT and
    /// VIEW_RESULTS have nothing to open on this machine (docs/desktop.md), so `act` refuses them everywhere.
    static let offeredActions = NotificationAction.allCases.filter { action in
        NotificationKind.allCases.contains { action.label(on: $0) != nil }
    }

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let directory = try arguments.directory().preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        return try ActionApplier.apply(idText: arguments.positionals[0], actionName: arguments.positionals[1],
                                       directory: directory, now: arguments.now, console: console)
    }
}
