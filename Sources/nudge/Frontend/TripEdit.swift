import FoundationEssentials
import NudgeCore

/// A journey recorded by `nudge trip` or by "Leaving now" and "I'm here" (`ActionApplier`): a departure in the
/// state, an observation in trips.json, through a `DataEdit`; each returns the line that says what it did.
enum TripEdit {
    /// Records a departure of `tripID` at `at` in the edit's state.
    static func depart(_ tripID: String, at: Date, _ edit: inout DataEdit) throws -> String {
        let trips = try currentTrips(edit)
        let settings = edit.directory.settings()
        let clock = edit.clock
        let recorded = try edit.changeState { state in
            TripRecorder.depart(tripID, at: at, trips: trips, settings: settings, state: &state, clock: clock)
        }
        switch recorded {
        case .success(let outcome):
            let trip = trips.first { $0.id == tripID }
            let name = trip?.destination ?? tripID
            var text = "\(name): left at \(TextFormat.localDateTime(at, clock))"
            if let replaced = outcome.replaced {
                text += " (replacing the departure at \(TextFormat.localDateTime(replaced.at, clock)))"
            }
            if let reminder = outcome.silencedReminder {
                text += "; \"\(reminder.title)\" of \(TextFormat.localStamp(reminder.fireAt, clock)) will not come"
            }
            if outcome.cancelledSnoozes > 0 { text += "; its snooze is cancelled" }
            if let trip {
                let check = ArrivalCheckRule.check(for: Departure(trip: tripID, at: at), trip: trip,
                                                   settings: settings, clock: clock)
                text += ". \"\(check.title)\" at \(TextFormat.localStamp(check.fireAt, clock)); "
                    + "or `nudge trip arrive \(tripID)` when you get there."
            }
            return text
        case .failure(let failure):
            throw badData(failure.description, edit)
        }
    }

    /// Closes the open departure of `tripID` with an arrival at `at`: the observation goes into trips.json, the
    /// departure leaves the state.
    static func arrive(_ tripID: String, at: Date, _ edit: inout DataEdit) throws -> String {
        let trips = try currentTrips(edit)
        switch TripRecorder.arrival(tripID, at: at, trips: trips, state: try edit.state()) {
        case .success(let (departure, minutes)):
            let text = try record(TravelObservation(departedAt: departure.at, minutes: minutes), tripID: tripID,
                                  &edit)
            try edit.changeState { $0.closeDeparture(of: tripID) }
            return text
        case .failure(let failure):
            throw badData(failure.description, edit)
        }
    }

    /// Appends the observation to trips.json and returns the line with the new prediction.
    static func record(_ observation: TravelObservation, tripID: String, _ edit: inout DataEdit) throws -> String {
        let current = try edit.read(.trips)
        switch TripEditor.appendObservation(observation, toTrip: tripID, in: current) {
        case .success(let content):
            try edit.write(.trips, content)
            let clock = edit.clock
            let trip = UserFileDecoder.trips(content).0?.first { $0.id == tripID }
            var text = "\(trip?.destination ?? tripID): recorded \(observation.minutes) min, departed "
                + "\(TextFormat.localDateTime(observation.departedAt, clock))."
            if let trip {
                text += " Predicted travel time now: "
                    + TripRecorder.prediction(for: trip, now: max(edit.now, observation.departedAt), clock: clock)
                    .description + "."
            }
            return text
        case .failure(let failure):
            throw badData(failure.description, edit)
        }
    }

    /// The trips of trips.json as it is now; an invalid file refuses the edit (exit 65).
    private static func currentTrips(_ edit: DataEdit) throws -> [Trip] {
        guard let data = try edit.read(.trips) else { return [] }
        let (trips, report) = UserFileDecoder.trips(data)
        guard let trips, report.isValid else {
            throw badData(report.problems.map(\.description).joined(separator: "\n"), edit)
        }
        return trips
    }

    /// Problems of trips.json named by its path in the data directory; others as nudge trip's own.
    private static func badData(_ description: String, _ edit: DataEdit) -> CLIError {
        edit.badData(description, command: "trip", file: .trips)
    }
}
