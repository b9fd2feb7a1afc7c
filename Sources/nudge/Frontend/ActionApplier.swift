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
        let lock = try held ?? directory.lock(wait: DirectoryLock.editingWait)
        defer { withExtendedLifetime(lock) {} }
        let snapshot = try DataSnapshot.load(directory)
        var state = snapshot.state ?? RunState()
        let notification = try DeliveredRecord.find(idText, state: state, directory: directory, command: "act",
                                                    zone: snapshot.zone, now: now)
        let household = snapshot.loaded.household
        let clock = WallClock(zone: snapshot.zone)
        let resolution: ActionResolver.Resolution
        do {
            resolution = try ActionResolver.resolve(action, on: notification, household: household, state: state,
                                                    now: now, clock: clock)
        } catch let problem as ActionProblem {
            throw CLIError.badData(["nudge act: \(problem)"])
        }
        guard case .apply(let effect) = resolution else {
            if case .nothing(let reason) = resolution { console.out("Nothing to do: \(reason).") }
            return .success
        }
        let message = try perform(effect, on: notification, state: &state, household: household,
                                  directory: directory, now: now, clock: clock)
        state.recordAction(action, on: notification.id, now: now)
        try Commit(state: state).write(to: directory)
        console.out(message)
        try Pass.replanAfterEdit(directory, console: console, now: now)
        return .success
    }

    /// Writes what the effect changes and returns the line that says so.
    private static func perform(_ effect: ActionEffect, on notification: NudgeCore.Notification,
                                state: inout RunState, household: Household, directory: DataDirectory,
                                now: Date, clock: WallClock) throws -> String {
        switch effect {
        case .snooze(let minutes):
            let outcome = SnoozeRule.apply(to: notification, minutes: minutes, now: now, state: &state,
                                           existing: try DeliveredRecord.snoozesMade(state: state, directory: directory))
            return SnoozeRule.text(of: outcome, notification, clock: clock)
        case let .laundry(edit, petID):
            return try editLaundry(edit, petID: petID, state: state, directory: directory, now: now, clock: clock)
        case .startTimer(let timer):
            state.userActions.start(timer: timer, madeAt: now)
            return "Timer started: \"\(timer.title)\" at \(TextFormat.localStamp(timer.fireAt, clock)) (\(timer.id))."
        case .recordPlays(let games):
            return try recordPlays(of: games, household: household, directory: directory, now: now, clock: clock)
        case .remindTomorrow:
            let today = ActionResolver.todaysStreakReminder(household: household, state: state, now: now, clock: clock)
            state.remindTomorrow(today: today, now: now)
            return "No more streak reminders today; the next one comes tomorrow."
        case .depart(let trip):
            return try TripCommand.depart(trip, at: now, state: &state, directory: directory, clock: clock)
        case .arrive(let trip):
            return try TripCommand.arrive(trip, at: now, state: &state, directory: directory, now: now, clock: clock)
        case .open(let url):
            return try openInBrowser(url)
        }
    }

    /// "Start Dryer" or "Mark Folded": edits laundry.json as `nudge laundry` would.
    private static func editLaundry(_ edit: LaundryEditor.Action, petID: String, state: RunState, directory: DataDirectory,
                                    now: Date, clock: WallClock) throws -> String {
        let current = try directory.readUserFile(.laundry)
        let used = try LaundryCommand.usedCycleIDs(ofPet: petID, state: state, directory: directory)
        switch LaundryEditor.apply(edit, toPet: petID, in: current, now: now, usedCycleIDs: used) {
        case .success(let content):
            try directory.writeUserFile(.laundry, content)
            let pet = UserFileDecoder.pets(content).0?.first { $0.id == petID }
            let line = LaundryCommand.confirmation(edit, pet: pet, petID: petID, changed: true, now: now, clock: clock)
            let replaced = LaundryCommand.replaced(by: edit, petID: petID, in: current, now: now)
            return [line, replaced].compactMap { $0 }.joined(separator: "\n")
        case .failure(let failure):
            throw CLIError.badData(failure.description.split(separator: "\n").map { "\(directory.path)/\($0)" })
        }
    }

    /// "Mark Played": a play of each game now, in streaks.json as `nudge play` would write it.
    private static func recordPlays(of games: [String], household: Household, directory: DataDirectory, now: Date,
                                    clock: WallClock) throws -> String {
        var content = try directory.readUserFile(.streaks)
        for game in games {
            switch StreakEditor.recordPlay(in: content, game: game, at: now, addGame: false) {
            case .success(let edited): content = edited
            case .failure(let failure):
                throw CLIError.badData(failure.description.split(separator: "\n").map { "\(directory.path)/\($0)" })
            }
        }
        if let content { try directory.writeUserFile(.streaks, content) }
        let names = games.map { id in household.streaks.games.first { $0.id == id }?.name ?? id }
        return "Recorded a play of \(names.joined(separator: ", ")) at \(TextFormat.localDateTime(now, clock))."
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
