import FoundationEssentials

/// `nudge trip arrive|log` and "I'm here": appends an observation to a trip in `trips.json`, keeping every other
/// byte of the user's file as it was (unknown keys at any level, key order, layout: `JSONSplice`) and the older
/// observations untouched
/// (docs/promises.md, your files as you wrote them).
public enum TripEditor {
    /// What went wrong, for a message and exit 65.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noFile(trip: String)
        case invalidFile([DataProblem])
        case unknownTrip(String, known: [String])
        case minutesOutOfRange(trip: String, minutes: Int)

        public var description: String {
            switch self {
            case .noFile(let trip):
                return "trips.json: no such file, so there are no trips; add {\"trips\": [{\"id\": \"\(trip)\", …}]} "
                    + "to it first"
            case .invalidFile(let problems):
                return problems.map(\.description).joined(separator: "\n")
            case let .unknownTrip(trip, known):
                return TripRecorder.Failure.unknownTrip(trip, known: known).description
            case let .minutesOutOfRange(trip, minutes):
                return TripRecorder.Failure.minutesOutOfRange(trip: trip, minutes: minutes).description
            }
        }
    }

    /// The file's new content with `{"departedAt": …, "minutes": …}` appended to the observations of trip
    /// `tripID`. `data` nil means the file does not exist. The result is validated like any user file.
    public static func appendObservation(_ observation: TravelObservation, toTrip tripID: String,
                                         in data: [UInt8]?) -> Result<[UInt8], Failure> {
        guard let data else { return .failure(.noFile(trip: tripID)) }
        guard TripRecorder.minutesRange.contains(observation.minutes) else {
            return .failure(.minutesOutOfRange(trip: tripID, minutes: observation.minutes))
        }
        let (decoded, report) = UserFileDecoder.trips(data)
        guard report.isValid, let trips = decoded, let document = try? JSONParser.parse(data) else {
            return .failure(.invalidFile(report.problems))
        }
        var elements = document["trips"]?.arrayValue ?? []
        guard let index = elements.firstIndex(where: { $0["id"]?.stringValue == tripID }) else {
            return .failure(.unknownTrip(tripID, known: trips.map(\.id)))
        }
        let recorded = JSONValue.object([
            JSONMember("departedAt", .string(RFC3339.format(observation.departedAt))),
            JSONMember("minutes", .number(String(observation.minutes))),
        ])
        let observations = elements[index]["observations"]?.arrayValue ?? []
        elements[index] = elements[index].setting("observations", to: .array(observations + [recorded]))
        let content = JSONSplice.content(document.setting("trips", to: .array(elements)), replacing: data,
                                         read: document)
        let (edited, editedReport) = UserFileDecoder.trips(content)
        guard edited != nil, editedReport.isValid else { return .failure(.invalidFile(editedReport.problems)) }
        return .success(content)
    }
}
