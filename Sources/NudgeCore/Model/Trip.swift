import FoundationEssentials

/// A trip from `trips.json` (docs/files.md): somewhere to arrive by a time, with the travel times observed so far.
public struct Trip: Equatable, Sendable {
    /// When the trip has to arrive.
    enum Schedule: Equatable, Sendable {
        /// Every listed weekday at a local wall-clock time, following local time like a daily alarm.
        case recurring(arriveBy: WallTime, weekdays: Weekdays)
        /// Once, at an absolute instant.
        case once(arriveAt: Date)
    }

    public var id: String
    /// Where the trip goes, as the reminder names it: "arrive at Office".
    public var destination: String
    var schedule: Schedule
    /// Minutes between the reminder and leaving, 0–720; nil means `settings.commute.defaultBufferMinutes`.
    var bufferMinutes: Int?
    /// The user's own estimate, 0–1440: the prediction when there are no recent observations.
    var travelMinutes: Int
    var observations: [TravelObservation]
    public var enabled: Bool
    /// The IANA name of the zone the trip belongs to (home); nil: wherever the person is.
    var timeZone: String?

    init(id: String, destination: String, schedule: Schedule, bufferMinutes: Int? = nil,
         travelMinutes: Int, observations: [TravelObservation] = [], enabled: Bool = true) {
        self.id = id
        self.destination = destination
        self.schedule = schedule
        self.bufferMinutes = bufferMinutes
        self.travelMinutes = travelMinutes
        self.observations = observations
        self.enabled = enabled
    }

    /// Whether the trip waits while the person is elsewhere: it names a zone, and the data directory's is
    /// another (docs/travelling.md).
    func isPaused(in zone: Zone) -> Bool {
        guard let timeZone else { return false }
        return timeZone != zone.identifier
    }
}
