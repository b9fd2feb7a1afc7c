import FoundationEssentials

/// The check-in after a recorded departure (docs/files.md): "Arrived at Office?" at departure + the predicted
/// travel time, with the button "I'm here" that closes the departure and teaches the prediction.
///
/// It lives only as long as the departure is open: arriving any other way removes the departure from state.json,
/// and with it this notification from the plan.
public enum ArrivalCheckRule {
    static let body = "Tap when you get there: it teaches nudge your travel time."
    static let category = "ARRIVAL_CHECK"
    static let actions = ["ARRIVED"]
    /// After this long past the departure, a check-in is no longer worth showing.
    static let expiry: TimeInterval = 3 * 3600

    static func title(destination: String) -> String { "Arrived at \(destination)?" }

    /// The check-in of `departure`, a departure of `trip`. The travel time is predicted for an arrival
    /// `travelMinutes` after the departure, from the observations before that arrival, so the check-in does not
    /// move while the person travels.
    public static func check(for departure: Departure, trip: Trip, settings: Settings,
                             clock: WallClock) -> Notification {
        let arrival = departure.at.addingTimeInterval(TimeInterval(trip.travelMinutes) * 60)
        let travel = TravelPrediction.minutes(for: trip, arrival: arrival, clock: clock)
        return Notification(id: Notification.occurrenceID(.arrival, trip.id, departure.stamp), kind: .arrival,
                            source: trip.id, fireAt: departure.at.addingTimeInterval(TimeInterval(travel) * 60),
                            expiresAt: departure.at.addingTimeInterval(expiry),
                            title: title(destination: trip.destination), body: body, priority: .medium,
                            category: category, actions: actions, sound: settings.notifications.sound,
                            badge: settings.notifications.badge, recurrence: .once)
    }
}
