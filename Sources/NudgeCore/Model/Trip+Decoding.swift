import FoundationEssentials

extension UserFileDecoder {
    /// Decodes `trips.json`; a missing `trips` key means no trips.
    /// `zoneNamed` checks a trip's `timeZone` (the shell reads the tz database; an editor that only checks its
    /// own change takes any name); `zoneNames` are the names to suggest for one it does not know.
    public static func trips(_ data: [UInt8], zoneNamed: (String) -> Zone? = { _ in Zone.utc },
                             zoneNames: () -> [String] = { [] }) -> ([Trip]?, FileReport) {
        decode(.trips, data, knownKeys: ["trips"]) { root in
            root.list("trips") { Trip($0, zoneNamed: zoneNamed, zoneNames: zoneNames) }
        }
    }
}

extension Trip {
    static let scheduleProblem = "needs either arriveBy (with weekdays) or arriveAt, not both"

    /// Reads one element of `trips.json`'s `trips`; nil (with problems reported) when invalid.
    init?(_ object: borrowing ObjectReader, zoneNamed: (String) -> Zone?, zoneNames: () -> [String]) {
        object.checkKeys(["id", "destination", "arriveBy", "weekdays", "arriveAt", "bufferMinutes", "travelMinutes",
                          "observations", "enabled", "timeZone"])
        let id = object.identifier("id")
        let destination = object.string("destination")
        let named = ObjectReader.hasVisibleText(destination ?? "")
        if destination != nil, !named {
            object.report("destination", "must not be empty (it is shown as \"arrive at <destination>\")")
        }
        let schedule = Self.schedule(object)
        let bufferGiven = object.member("bufferMinutes") != nil
        let buffer = bufferGiven ? object.int("bufferMinutes", default: nil, in: 0...720) : nil
        let travel = object.int("travelMinutes", default: nil, in: 0...1440)
        let observations = Self.observations(object)
        let enabled = object.bool("enabled", default: true)
        let zoneGiven = object.member("timeZone") != nil
        let zone = object.zoneName("timeZone", zoneNamed: zoneNamed, zoneNames: zoneNames)
        guard let id, let destination, named, let schedule, !bufferGiven || buffer != nil, let travel,
              let observations, !zoneGiven || zone != nil else { return nil }
        self.init(id: id, destination: destination, schedule: schedule, bufferMinutes: buffer,
                  travelMinutes: travel, observations: observations, enabled: enabled)
        timeZone = zone
    }

    /// Exactly one of `arriveBy` (recurring, with optional `weekdays`) and `arriveAt` (one-off).
    ///
    /// `weekdays` beside `arriveAt` alone is a problem rather than ignored: the user evidently meant a repeat.
    private static func schedule(_ object: ObjectReader) -> Schedule? {
        let hasArriveBy = object.member("arriveBy") != nil
        let hasArriveAt = object.member("arriveAt") != nil
        if hasArriveBy == hasArriveAt {
            object.document.report(object.path, scheduleProblem)
        }
        let arriveBy = hasArriveBy ? object.wallTime("arriveBy", default: nil) : nil
        var weekdays: Weekdays?
        if hasArriveAt, !hasArriveBy, object.member("weekdays") != nil {
            object.report("weekdays", "only applies with arriveBy (a trip with arriveAt happens once)")
        } else {
            weekdays = object.weekdays("weekdays")
        }
        let arriveAt = hasArriveAt ? object.instant("arriveAt", required: true) : nil
        guard hasArriveBy != hasArriveAt else { return nil }
        guard hasArriveBy else { return arriveAt.map { .once(arriveAt: $0) } }
        guard let arriveBy, let weekdays else { return nil }
        return .recurring(arriveBy: arriveBy, weekdays: weekdays)
    }

    /// The `observations` list, without those that are invalid (each stands alone); nil when it is no list.
    private static func observations(_ object: ObjectReader) -> [TravelObservation]? {
        let observations = object.list("observations", TravelObservation.init)
        if let member = object.member("observations"), object.document.tape.kind(member) != .array { return nil }
        return observations
    }
}

extension TravelObservation {
    /// Reads one element of a trip's `observations`; nil (with problems reported) when invalid.
    init?(_ object: borrowing ObjectReader) {
        object.checkKeys(["departedAt", "minutes"])
        let departedAt = object.instant("departedAt", required: true)
        let minutes = object.int("minutes", default: nil, in: 1...1440)
        guard let departedAt, let minutes else { return nil }
        self.init(departedAt: departedAt, minutes: minutes)
    }
}
