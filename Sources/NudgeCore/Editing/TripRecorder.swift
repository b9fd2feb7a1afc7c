import FoundationEssentials

/// `nudge trip depart|arrive`, "Leaving now" and "I'm here" (docs/files.md): the open departures kept in state and
/// what a departure does to the trip's leave-time reminder. Writing the observation is `TripEditor`'s.
public enum TripRecorder {
    /// An arrival's journey, in whole minutes, must lie in this range to teach the prediction.
    static let minutesRange = 1...600

    /// What went wrong, for a message and exit 65.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unknownTrip(String, known: [String])
        case noOpenDeparture(trip: String)
        case minutesOutOfRange(trip: String, minutes: Int)

        public var description: String {
            switch self {
            case let .unknownTrip(trip, known):
                let list = known.isEmpty ? "none" : known.joined(separator: ", ")
                return "trips.json: unknown trip \"\(trip)\" (known: \(list))"
            case .noOpenDeparture(let trip):
                return "no open departure for \(trip) (none recorded with `nudge trip depart \(trip)` in the "
                    + "12 hours before); to record a journey afterwards use `nudge trip log \(trip) MINUTES "
                    + "[--departed T]`"
            case let .minutesOutOfRange(trip, minutes):
                return "a journey of \(minutes) min to \(trip) is not recorded (expected "
                    + "\(minutesRange.lowerBound) to \(minutesRange.upperBound) minutes)"
            }
        }
    }

    /// What a departure changed besides being recorded.
    public struct DepartureOutcome: Equatable, Sendable {
        /// The leave-time reminder that will now not be delivered (the person left before it fired).
        public var silencedReminder: Notification?
        /// How many pending snoozes of the instance's reminder were cancelled.
        public var cancelledSnoozes: Int
        /// The open departure of the same trip that this one replaced.
        public var replaced: Departure?
    }

    /// Records that the person left for `tripID` at `at`: the trip's open departure becomes this one, and the
    /// instance the departure belongs to — the first arriving after it, within `Departure.openFor` — has its
    /// leave-time reminder recorded as handled when it has not happened yet, and its snoozes cancelled.
    public static func depart(_ tripID: String, at: Date, trips: [Trip], settings: Settings, state: inout RunState,
                              clock: WallClock) -> Result<DepartureOutcome, Failure> {
        guard let trip = trips.first(where: { $0.id == tripID }) else {
            return .failure(.unknownTrip(tripID, known: trips.map(\.id)))
        }
        let replaced = state.departures.first { $0.trip == tripID }
        state.departures.removeAll { $0.trip == tripID }
        state.departures.append(Departure(trip: tripID, at: at))
        var outcome = DepartureOutcome(silencedReminder: nil, cancelledSnoozes: 0, replaced: replaced)
        guard let instance = instance(of: trip, departedAt: at, clock: clock) else { return .success(outcome) }
        let reminder = CommuteRule.instance(of: trip, arrival: instance.arrival, arrivalDate: instance.date,
                                            settings: settings, clock: clock)
        if state.memory.recordUnlessHandled(reminder, .departed, at: at) {
            outcome.silencedReminder = reminder
        }
        let before = state.userActions.snoozes.count
        state.userActions.snoozes.removeAll { $0.id.hasPrefix(reminder.id + ":snooze-") }
        outcome.cancelledSnoozes = before - state.userActions.snoozes.count
        return .success(outcome)
    }

    /// The instance of `trip` a departure at `at` belongs to: the first arriving after it, within
    /// `Departure.openFor`.
    static func instance(of trip: Trip, departedAt at: Date,
                         clock: WallClock) -> (date: LocalDate, arrival: Date)? {
        let day = clock.localDate(of: at)
        return CommuteRule.arrivals(of: trip, from: day.adding(days: -1), through: day.adding(days: 1), clock: clock)
            .first(where: { $0.arrival > at && $0.arrival.timeIntervalSince(at) <= Departure.openFor })
    }

    /// The open departure of `tripID` that an arrival at `at` closes, and the journey's whole minutes (rounded);
    /// state is not changed (the caller removes the departure once the observation is written).
    public static func arrival(_ tripID: String, at: Date, trips: [Trip],
                               state: RunState) -> Result<(departure: Departure, minutes: Int), Failure> {
        guard trips.contains(where: { $0.id == tripID }) else {
            return .failure(.unknownTrip(tripID, known: trips.map(\.id)))
        }
        guard let departure = state.departures.last(where: { $0.trip == tripID }), departure.at <= at else {
            return .failure(.noOpenDeparture(trip: tripID))
        }
        let minutes = roundedMinutes(at.timeIntervalSince(departure.at))
        guard departure.isOpen(at: at) else {
            return .failure(minutes > minutesRange.upperBound
                ? .minutesOutOfRange(trip: tripID, minutes: minutes) : .noOpenDeparture(trip: tripID))
        }
        guard minutesRange.contains(minutes) else {
            return .failure(.minutesOutOfRange(trip: tripID, minutes: minutes))
        }
        return .success((departure, minutes))
    }

    /// What the prediction for the trip's next instance (arriving after `now`; a one-off trip's only one) rests
    /// on at `now`: the line `trip arrive`, `trip log` and `status` print.
    public static func prediction(for trip: Trip, now: Date, clock: WallClock) -> TravelPrediction.Basis {
        let today = clock.localDate(of: now)
        let arrivals = CommuteRule.arrivals(of: trip, from: today, through: today.adding(days: 8), clock: clock)
        let arrival = arrivals.first { $0.arrival > now }?.arrival ?? arrivals.last?.arrival ?? now
        return TravelPrediction.basis(for: trip, arrival: arrival, clock: clock)
    }

    /// Whole minutes, half a minute rounded up.
    static func roundedMinutes(_ seconds: TimeInterval) -> Int {
        Int((seconds / 60).rounded(.toNearestOrAwayFromZero))
    }
}
