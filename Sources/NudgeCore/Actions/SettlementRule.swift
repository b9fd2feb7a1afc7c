import FoundationEssentials

/// Why a delivered notification is done with: what is on screen is the truth (docs/desktop.md, "Handled
/// notifications close"), so its waiter closes it, and a snooze of it changes nothing.
public enum Settlement: Equatable, Sendable {
    /// An action was applied to it (a button, `nudge act`, `nudge snooze`), or an action that settles was
    /// applied to one of its snoozes or to the notification it snoozes.
    case action(NotificationAction, at: Date)
    /// What its main button is about moved on without it (`laundry fold`, `trip depart`, `play`, a hand edit):
    /// the button would answer "Nothing to do", for this reason.
    case movedOn(String)
}

/// Decides, from the files as they are now, whether a delivered notification is settled. The answer is taken
/// from the truth each time, never from a message a command sends: a command killed after it wrote the files
/// has settled what it settled, one killed before has settled nothing.
public enum SettlementRule {
    /// How `notification` was settled, or nil while every button of it would still do something.
    ///
    /// `forSnoozing` asks the narrower question of a snooze (docs/promises.md, one snooze per notification):
    /// only the settling actions count (`SnoozeRule.settlingActions`), on it or its snoozes, or what they are
    /// about having happened by another route; a notification snoozed already may be snoozed again (the one
    /// snooze moves), and one whose prayer timer runs may still be snoozed.
    public static func settlement(of notification: Notification, household: Household, state: RunState,
                                  now: Date, clock: WallClock, forSnoozing: Bool = false) -> Settlement? {
        if !forSnoozing, let applied = state.userActions.applied[notification.id],
           let (name, at) = applied.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }),
           let action = NotificationAction(rawValue: name) {
            return .action(action, at: at)
        }
        if let (action, at) = SnoozeRule.settlement(of: notification.id, state: state) {
            return .action(action, at: at)
        }
        if forSnoozing, let main = mainAction(of: notification.kind), !SnoozeRule.settlingActions.contains(main) {
            return nil
        }
        return movedOn(notification, household: household, state: state, now: now, clock: clock).map(Settlement.movedOn)
    }

    /// The main action of a notification: the button that does what it announces.
    static func mainAction(of kind: NotificationKind) -> NotificationAction? {
        switch kind {
        case .washComplete, .dryComplete, .foldReminder: return .complete
        case .leave: return .leavingNow
        case .arrival: return .arrived
        case .streakReminder: return .markPlayed
        case .prayer: return .startTimer
        default: return nil
        }
    }

    /// Why the notification's main button would change nothing now ("Snowy's cycle c-1 is in the dryer
    /// already"), or nil while it would still do something.
    static func movedOn(_ notification: Notification, household: Household, state: RunState, now: Date,
                        clock: WallClock) -> String? {
        guard let main = mainAction(of: notification.kind), notification.actions.contains(main.rawValue) else {
            return nil
        }
        let event = OccurrenceID(notification.id)?.event ?? ""
        switch main {
        case .complete:
            return laundryMovedOn(notification, cycleID: event, pets: household.pets)
        case .leavingNow:
            return departure(for: notification, date: event, household: household, state: state, clock: clock)
                .map { "you left for \($0.destination) at \(TextFormat.localDateTime($0.at, clock)) already" }
        case .arrived:
            guard !state.departures.contains(where: { $0.trip == notification.source && $0.stamp == event }) else {
                return nil
            }
            return "the departure \(notification.id) asks about is no longer open (arrived or replaced already)"
        case .markPlayed:
            let date = LocalDate.parse(event) ?? clock.localDate(of: now)
            guard StreakRule.gamesAtRisk(on: date, data: household.streaks, clock: clock).isEmpty else { return nil }
            return "every game of the reminder has a play on \(date) already"
        case .startTimer:
            guard let alarm = household.alarms.first(where: { $0.id == notification.source }) else { return nil }
            let timer = PrayerTimerRule.timer(for: alarm, date: event, now: now, settings: household.settings)
            guard state.memory.isHandled(timer.id)
                    || state.userActions.timers.contains(where: { $0.id == timer.id }) else {
                return nil
            }
            return "the timer of \(notification.id) was started already"
        default:
            return nil
        }
    }

    /// A laundry stage is settled once its cycle is no longer the pet's, or has left the stage it announced:
    /// a late click must not fold a new load.
    static func laundryMovedOn(_ notification: Notification, cycleID: String, pets: [Pet]) -> String? {
        guard let pet = pets.first(where: { $0.id == notification.source }) else {
            return "laundry.json has no pet \"\(notification.source)\" any more"
        }
        let wanted: LaundryCycle.Stage = notification.kind == .washComplete ? .wash : .dry
        guard let cycle = pet.cycle, cycle.id == cycleID else {
            return "\(pet.name)'s cycle \(cycleID) is no longer under way"
        }
        guard cycle.stage == wanted else {
            return "\(pet.name)'s cycle \(cycleID) is in the \(cycle.stage == .dry ? "dryer" : "washer") already"
        }
        return nil
    }

    /// The departure (open, or already recorded as a journey in trips.json) that belongs to the instance a
    /// leave-time reminder announced: the person left, by a click or by `nudge trip depart`.
    static func departure(for leave: Notification, date: String, household: Household, state: RunState,
                          clock: WallClock) -> (destination: String, at: Date)? {
        guard let trip = household.trips.first(where: { $0.id == leave.source }) else { return nil }
        let departures = state.departures.filter { $0.trip == trip.id }.map(\.at)
            + trip.observations.map(\.departedAt)
        let left = departures.filter { TripRecorder.instance(of: trip, departedAt: $0, clock: clock)?.date.description == date }
        return left.max().map { (trip.destination, $0) }
    }
}
