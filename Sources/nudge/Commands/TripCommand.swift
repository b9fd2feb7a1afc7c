import FoundationEssentials
import NudgeCore

/// `nudge trip depart|arrive TRIP [--at T]`, `nudge trip log TRIP MINUTES [--departed T]` (docs/files.md): records
/// journeys under the lock, atomically, then re-plans. "Leaving now" and "I'm here" call the same functions.
enum TripCommand {
    static let usage = "nudge trip depart|arrive TRIP [--at T] | log TRIP MINUTES [--departed T] [--now T] [--data DIR]"

    static let command = Command(
        name: "trip",
        usage: usage,
        summary: "record leaving for TRIP, arriving (the journey becomes an observation in trips.json), or a "
            + "journey of MINUTES afterwards",
        options: [
            at, departed,
            .now, .data, .help,
        ],
        positionals: 2...3,
        forms: [
            [.word(["depart"]), .household(.trips)], [.word(["arrive"]), .household(.trips)],
            [.word(["log"]), .household(.trips), .any],
        ],
        run: run)

    static let at = OptionSpec.time("--at", "T", "when you left or arrived (default: now): " + OptionSpec.timeForms)
    static let departed = OptionSpec.time(
        "--departed", "T", "with log: when the journey began (default: now − MINUTES), a time like --at's")

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let words = arguments.positionals
        let now = arguments.now
        let at = arguments.instant(Self.at) ?? now
        func wrong(_ problem: String) -> CLIError { CLIError.usage("nudge trip: \(problem); usage: \(usage)") }
        var minutes: Int?
        switch (words[0], words.count) {
        case ("depart", 2), ("arrive", 2):
            if arguments.text(Self.departed) != nil { throw wrong("--departed goes with log") }
        case ("log", 3):
            guard let number = Int(words[2]) else { throw wrong("\"\(words[2])\" is not a whole number of minutes") }
            if arguments.text(Self.at) != nil { throw wrong("log takes --departed, not --at") }
            minutes = number
        case ("depart", _), ("arrive", _):
            throw wrong("\(words[0]) takes only a trip")
        case ("log", _):
            throw wrong("log needs a trip and its minutes")
        default:
            throw wrong("unknown action \"\(words[0])\" (expected depart, arrive or log)")
        }
        let directory = try arguments.directory().preparedForWriting(wait: DirectoryLock.editingWait, console: console)
        let lock = try directory.lock(wait: DirectoryLock.editingWait)
        defer { withExtendedLifetime(lock) {} }
        let snapshot = try DataSnapshot.load(directory)
        var state = snapshot.state ?? RunState()
        let clock = WallClock(zone: snapshot.zone)
        let tripID = words[1]
        let message: String
        switch words[0] {
        case "depart":
            message = try depart(tripID, at: at, state: &state, directory: directory, clock: clock)
        case "arrive":
            message = try arrive(tripID, at: at, state: &state, directory: directory, now: now, clock: clock)
        default:
            let minutes = minutes ?? 0
            let departed = arguments.instant(Self.departed)
                ?? now.addingTimeInterval(-TimeInterval(minutes) * 60)
            message = try record(TravelObservation(departedAt: departed, minutes: minutes), tripID: tripID,
                                 directory: directory, now: now, clock: clock)
        }
        try Commit(state: state).write(to: directory)
        console.out(message)
        try Pass.replanAfterEdit(directory, console: console, now: now)
        return .success
    }

    /// The trips of trips.json as it is now; an invalid file refuses the edit (exit 65).
    private static func currentTrips(_ directory: DataDirectory) throws -> [Trip] {
        guard let data = try directory.readUserFile(.trips) else { return [] }
        let (trips, report) = UserFileDecoder.trips(data)
        guard let trips, report.isValid else { throw badData(report.problems.map(\.description).joined(separator: "\n"), directory) }
        return trips
    }

    /// Records a departure in `state` (the caller writes it) and returns the line that says what it did.
    static func depart(_ tripID: String, at: Date, state: inout RunState, directory: DataDirectory,
                       clock: WallClock) throws -> String {
        let trips = try currentTrips(directory)
        switch TripRecorder.depart(tripID, at: at, trips: trips, settings: directory.settings(), state: &state,
                                   clock: clock) {
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
                                                   settings: directory.settings(), clock: clock)
                text += ". \"\(check.title)\" at \(TextFormat.localStamp(check.fireAt, clock)); "
                    + "or `nudge trip arrive \(tripID)` when you get there."
            }
            return text
        case .failure(let failure):
            throw badData(failure.description, directory)
        }
    }

    /// Closes the open departure of `tripID` with an arrival at `at`: the observation goes into trips.json, the
    /// departure leaves `state` (the caller writes it).
    static func arrive(_ tripID: String, at: Date, state: inout RunState, directory: DataDirectory, now: Date,
                       clock: WallClock) throws -> String {
        let trips = try currentTrips(directory)
        switch TripRecorder.arrival(tripID, at: at, trips: trips, state: state) {
        case .success(let (departure, minutes)):
            let text = try record(TravelObservation(departedAt: departure.at, minutes: minutes), tripID: tripID,
                                  directory: directory, now: now, clock: clock)
            state.departures.removeAll { $0.trip == tripID }
            return text
        case .failure(let failure):
            throw badData(failure.description, directory)
        }
    }

    /// Appends the observation to trips.json and returns the line with the new prediction.
    static func record(_ observation: TravelObservation, tripID: String, directory: DataDirectory, now: Date,
                       clock: WallClock) throws -> String {
        let current = try directory.readUserFile(.trips)
        switch TripEditor.appendObservation(observation, toTrip: tripID, in: current) {
        case .success(let content):
            try directory.writeUserFile(.trips, content)
            let trip = UserFileDecoder.trips(content).0?.first { $0.id == tripID }
            var text = "\(trip?.destination ?? tripID): recorded \(observation.minutes) min, departed "
                + "\(TextFormat.localDateTime(observation.departedAt, clock))."
            if let trip {
                text += " Predicted travel time now: "
                    + TripRecorder.prediction(for: trip, now: max(now, observation.departedAt), clock: clock)
                    .description + "."
            }
            return text
        case .failure(let failure):
            throw badData(failure.description, directory)
        }
    }

    /// Problems of a file named by its path in the data directory; others as nudge trip's own.
    private static func badData(_ description: String, _ directory: DataDirectory) -> CLIError {
        CLIError.badData(description.split(separator: "\n").map { line in
            line.hasPrefix("trips.json") ? "\(directory.path)/\(line)" : "nudge trip: \(line)"
        })
    }
}
