import FoundationEssentials

/// What applying an action to a delivered notification changes (docs/design.md, "Acting on a delivery"), worked out
/// from values only; the shell writes the files and starts `xdg-open`.
public enum ActionEffect: Equatable, Sendable {
    /// The notification again `minutes` from now, as `nudge snooze`.
    case snooze(minutes: Int)
    /// An edit of the pet's laundry: `start(.dry)` for "Start Dryer", `fold` for "Mark Folded".
    case laundry(LaundryEditor.Action, pet: String)
    /// The prayer timer, a one-off kept in state.
    case startTimer(Notification)
    /// A play now for each of these games (ids).
    case recordPlays([String])
    /// No further streak reminder today.
    case remindTomorrow
    /// Opens the game's URL with `xdg-open`.
    case open(url: String)
    /// "Leaving now": as `nudge trip depart TRIP` at the click's time.
    case depart(trip: String)
    /// "I'm here": as `nudge trip arrive TRIP` at the click's time.
    case arrive(trip: String)
}

/// Why `nudge act` refuses (exit 65): the notification does not offer the action, or what it acts on is gone.
public struct ActionProblem: Error, Equatable, CustomStringConvertible {
    public var description: String
}

/// Resolves `nudge act ID ACTION` and a click on a button to its effect.
public enum ActionResolver {
    /// The result of resolving: an effect to apply, or nothing to do with the reason a person reads.
    public enum Resolution: Equatable, Sendable {
        case apply(ActionEffect)
        case nothing(String)
    }

    /// What `action` on the delivered `notification` does at `now`. An action applies at most once per
    /// notification; a click on a notification whose cycle, timer or streak has moved on changes nothing.
    ///
    /// - Throws: `ActionProblem` when the notification does not offer the action (or its `url` is missing),
    ///   or the pet or alarm it names no longer exists.
    public static func resolve(_ action: NotificationAction, on notification: Notification, household: Household,
                               state: RunState, now: Date, clock: WallClock) throws -> Resolution {
        guard notification.actions.contains(action.rawValue), action.label(on: notification.kind) != nil else {
            let offered = NotificationAction.buttons(for: notification, canPlay: true).map(\.action.rawValue)
            throw ActionProblem(description: "\(notification.id) does not offer \(action.rawValue) (offers: "
                + (offered.isEmpty ? "no action" : offered.joined(separator: ", ")) + ")")
        }
        let snoozing = action == .snooze || action == .snoozeAction
        // Snoozing again moves the one snooze (docs/promises.md); every other action applies once.
        if !snoozing, let at = state.userActions.applied[notification.id]?[action.rawValue] {
            return .nothing("\(action.rawValue) was already applied to \(notification.id) at "
                + "\(TextFormat.localDateTime(at, clock)): nothing changed")
        }
        let event = OccurrenceID(notification.id)?.event ?? ""
        switch action {
        case .snooze, .snoozeAction:
            if let settled = SettlementRule.settlement(of: notification, household: household, state: state, now: now,
                                                       clock: clock, forSnoozing: true) {
                return .nothing(SnoozeRule.settledText(notification, settled, clock: clock))
            }
            return .apply(.snooze(minutes: SnoozeRule.defaultMinutes(for: notification.kind,
                                                                    settings: household.settings)))
        case .complete:
            return try laundry(notification, cycleID: event, household: household)
        case .startTimer:
            return try prayerTimer(notification, date: event, household: household, state: state, now: now,
                                   clock: clock)
        case .markPlayed, .playNow:
            return try streaks(action, notification, date: LocalDate.parse(event) ?? clock.localDate(of: now),
                               household: household, state: state, now: now, clock: clock)
        case .remindTomorrow:
            return .apply(.remindTomorrow)
        case .leavingNow:
            return unlessMovedOn(.depart(trip: notification.source), notification, household: household,
                                 state: state, now: now, clock: clock)
        case .arrived:
            return unlessMovedOn(.arrive(trip: notification.source), notification, household: household,
                                 state: state, now: now, clock: clock)
        case .viewAchievement, .viewResults:
            throw ActionProblem(description: "\(action.rawValue) has nothing to open on this machine")
        }
    }

    /// `effect`, unless what `notification` announced has moved on (`SettlementRule.movedOn`): the timer is
    /// already running, the games were played, the person left or arrived.
    private static func unlessMovedOn(_ effect: @autoclosure () -> ActionEffect, _ notification: Notification,
                                      household: Household, state: RunState, now: Date,
                                      clock: WallClock) -> Resolution {
        if let reason = SettlementRule.movedOn(notification, household: household, state: state, now: now,
                                               clock: clock) {
            return .nothing("\(reason): nothing changed")
        }
        return .apply(effect())
    }

    /// "Start Timer" on the alarm of `notification`, for its occurrence on `date`.
    private static func prayerTimer(_ notification: Notification, date: String, household: Household,
                                    state: RunState, now: Date, clock: WallClock) throws -> Resolution {
        guard let alarm = household.alarms.first(where: { $0.id == notification.source }) else {
            throw ActionProblem(description: "alarms.json: unknown alarm \"\(notification.source)\"")
        }
        return unlessMovedOn(.startTimer(PrayerTimerRule.timer(for: alarm, date: date, now: now,
                                                               settings: household.settings)),
                             notification, household: household, state: state, now: now, clock: clock)
    }

    /// "Mark Played" records a play of every game at risk on `date`; "Play Now" opens the first one's URL.
    private static func streaks(_ action: NotificationAction, _ notification: Notification, date: LocalDate,
                                household: Household, state: RunState, now: Date,
                                clock: WallClock) throws -> Resolution {
        let atRisk = StreakRule.gamesAtRisk(on: date, data: household.streaks, clock: clock)
        if action == .markPlayed {
            return unlessMovedOn(.recordPlays(atRisk.map(\.id)), notification, household: household, state: state,
                                 now: now, clock: clock)
        }
        guard let game = atRisk.first else {
            return .nothing("no game is at risk on \(date) any more: nothing to open")
        }
        guard let url = game.url else {
            throw ActionProblem(description: "streaks.json: \(game.name) has no \"url\": PLAY_NOW has nothing "
                + "to open")
        }
        return .apply(.open(url: url))
    }

    /// "Start Dryer" moves the cycle of the notification to the dryer; "Mark Folded" folds it. Only while that
    /// cycle is still the pet's and in the stage the notification announced: a late click must not fold a new
    /// load.
    private static func laundry(_ notification: Notification, cycleID: String,
                                household: Household) throws -> Resolution {
        guard let pet = household.pets.first(where: { $0.id == notification.source }) else {
            throw ActionProblem(description: "laundry.json: unknown pet \"\(notification.source)\"")
        }
        if let reason = SettlementRule.laundryMovedOn(notification, cycleID: cycleID, pets: household.pets) {
            return .nothing("\(reason): nothing changed")
        }
        return .apply(.laundry(notification.kind == .washComplete ? .start(.dry) : .fold, pet: pet.id))
    }
}

extension ActionResolver {
    /// Today's streak reminder at the reminder time in use (manual or learned), or nil when nothing is at risk
    /// or streaks are off: what "Remind Tomorrow" keeps from coming today.
    public static func todaysStreakReminder(household: Household, state: RunState, now: Date,
                                            clock: WallClock) -> Notification? {
        guard household.settings.streaks.enabled else { return nil }
        return StreakRule.reminder(on: clock.localDate(of: now),
                                   at: SmartReminder.reminderTime(state.smartReminder, settings: household.settings),
                                   data: household.streaks, settings: household.settings, clock: clock)
    }
}
