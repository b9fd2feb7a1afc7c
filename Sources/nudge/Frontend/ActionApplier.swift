import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// Applies an action to a delivered notification (docs/design.md, "Acting on a delivery"): for `nudge act ID ACTION`
/// and for the click of a desktop button (`nudge desktop-wait`). Under the lock, at most once per notification and
/// action, then re-planning (docs/design.md, "The lock").
enum ActionApplier {
    /// Applies the action named `actionName` to the delivered notification `idText` names (full id, `last` or
    /// a unique prefix) at `now`, and re-plans; under `lock` when the caller holds it already (the click waiter,
    /// which waits for it without polling), else under the lock taken here.
    static func apply(idText: String, actionName: String, directory: DataDirectory, now: Date,
                      console: Console, lock held: DirectoryLock? = nil) throws -> ExitCode {
        guard let action = NotificationAction(rawValue: actionName) else {
            throw CLIError.usage("nudge act: unknown action \"\(actionName)\"; actions: "
                + NotificationAction.allCases.map(\.rawValue).joined(separator: ", "))
        }
        try directory.edit(now: now, console: console, lock: held) { edit in
            let snapshot = try edit.snapshot()
            let state = try edit.state()
            let notification = try DeliveredRecord.find(idText, state: state, directory: directory, command: "act",
                                                        zone: snapshot.zone, now: now)
            let household = snapshot.loaded.household
            let resolution: ActionResolver.Resolution
            do {
                resolution = try ActionResolver.resolve(action, on: notification, household: household, state: state,
                                                        now: now, clock: edit.clock)
            } catch let problem as ActionProblem {
                throw CLIError.badData(["nudge act: \(problem)"])
            }
            guard case .apply(let effect) = resolution else {
                if case .nothing(let reason) = resolution { edit.lines.append("Nothing to do: \(reason).") }
                edit.replans = false
                return
            }
            let message = try perform(effect, on: notification, household: household, &edit)
            try edit.changeState { $0.recordAction(action, on: notification.id, now: now) }
            edit.lines.append(message)
        }
        return .success
    }

    /// Writes what the effect changes and returns the line that says so.
    private static func perform(_ effect: ActionEffect, on notification: NudgeCore.Notification,
                                household: Household, _ edit: inout DataEdit) throws -> String {
        let (now, clock, directory) = (edit.now, edit.clock, edit.directory)
        switch effect {
        case .snooze(let minutes):
            let existing = try DeliveredRecord.snoozesMade(state: try edit.state(), directory: directory)
            let outcome = try edit.changeState { state in
                SnoozeRule.apply(to: notification, minutes: minutes, now: now, state: &state, existing: existing)
            }
            return SnoozeRule.text(of: outcome, notification, clock: clock)
        case let .laundry(action, petID):
            return try LaundryEdit.apply(action, toPet: petID, &edit, writesUnchanged: true).joined(separator: "\n")
        case .startTimer(let timer):
            try edit.changeState { $0.userActions.start(timer: timer, madeAt: now) }
            return "Timer started: \"\(timer.title)\" at \(TextFormat.localStamp(timer.fireAt, clock)) (\(timer.id))."
        case .recordPlays(let games):
            return try recordPlays(of: games, household: household, edit)
        case .remindTomorrow:
            let today = ActionResolver.todaysStreakReminder(household: household, state: try edit.state(), now: now,
                                                            clock: clock)
            try edit.changeState { $0.remindTomorrow(today: today, now: now) }
            return "No more streak reminders today; the next one comes tomorrow."
        case .depart(let trip):
            return try TripEdit.depart(trip, at: now, &edit)
        case .arrive(let trip):
            return try TripEdit.arrive(trip, at: now, &edit)
        case .open(let url):
            return try openInBrowser(url)
        }
    }

    /// "Mark Played": a play of each game now, in streaks.json as `nudge play` would write it.
    private static func recordPlays(of games: [String], household: Household, _ edit: DataEdit) throws -> String {
        var content = try edit.read(.streaks)
        for game in games {
            switch StreakEditor.recordPlay(in: content, game: game, at: edit.now, addGame: false) {
            case .success(let edited): content = edited
            case .failure(let failure): throw edit.badData(failure.description)
            }
        }
        if let content { try edit.write(.streaks, content) }
        let names = games.map { id in household.streaks.games.first { $0.id == id }?.name ?? id }
        return "Recorded a play of \(names.joined(separator: ", ")) at \(TextFormat.localDateTime(edit.now, edit.clock))."
    }

    /// "Play Now": the game's page in the person's browser, through xdg-open, detached.
    private static func openInBrowser(_ url: String) throws -> String {
        let own = ProcessEnvironment.all()
        let environment = (try? DesktopChannel.sessionEnvironment(own).get()) ?? own
        guard let opener = ChildProcess.find("xdg-open", path: environment["PATH"]) else {
            throw CLIError.failure("nudge act: xdg-open is not installed (Debian and Ubuntu: apt install "
                + "xdg-utils); open \(url) yourself")
        }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        // Detached: a browser started by xdg-open may run for hours; nudge does not wait for it.
        if case .failure(let error) = ChildProcess.spawn([opener, url], environment: environment, stdout: null,
                                                         stderr: null, placement: .ownSession) {
            throw CLIError.failure("nudge act: cannot start xdg-open: \(error.reason)")
        }
        return "Opening \(url)."
    }
}
