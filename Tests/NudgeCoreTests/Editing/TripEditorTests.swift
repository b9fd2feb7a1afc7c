import XCTest
@testable import NudgeCore

/// Appending an observation to trips.json (docs/promises.md): every other key kept, older observations
/// untouched, bad minutes and unknown trips refused.
final class TripEditorTests: XCTestCase {
    private let file = """
        { "trips": [ { "id": "office", "destination": "Office", "arriveBy": "08:45", "travelMinutes": 25,
                       "note": "bike on fridays",
                       "observations": [ { "departedAt": "2026-11-20T07:58:00Z", "minutes": 31, "by": "bike" } ] },
                     { "id": "dentist", "destination": "Dentist", "arriveAt": "2026-11-24T14:30:00+01:00",
                       "travelMinutes": 20 } ],
          "owner": "sam" }
        """

    private let observation = TravelObservation(departedAt: Fixtures.instant("2026-11-23T07:00:00Z"), minutes: 29)

    func testObservationIsAppendedKeepingEveryOtherKey() throws {
        let content = try TripEditor.appendObservation(observation, toTrip: "office", in: Array(file.utf8)).get()
        let trips = try XCTUnwrap(UserFileDecoder.trips(content).0)
        XCTAssertEqual(trips[0].observations, [
            TravelObservation(departedAt: Fixtures.instant("2026-11-20T07:58:00Z"), minutes: 31), observation,
        ])
        // Only the new observation, written like the one before it (docs/promises.md: edits keep the layout).
        XCTAssertEqual(String(decoding: content, as: UTF8.self), file.replacingOccurrences(
            of: #""by": "bike" } ]"#,
            with: #""by": "bike" }, { "departedAt": "2026-11-23T07:00:00Z", "minutes": 29 } ]"#))
    }

    func testTripWithoutObservationsGetsTheKey() throws {
        let content = try TripEditor.appendObservation(observation, toTrip: "dentist", in: Array(file.utf8)).get()
        XCTAssertEqual(try XCTUnwrap(UserFileDecoder.trips(content).0)[1].observations, [observation])
        XCTAssertEqual(String(decoding: content, as: UTF8.self), file.replacingOccurrences(
            of: #""travelMinutes": 20 } ],"#,
            with: #""travelMinutes": 20,"# + "\n               "
                + #""observations": [ { "departedAt": "2026-11-23T07:00:00Z", "minutes": 29 } ] } ],"#))
    }

    func testZeroAndNineHundredMinutesAreRefused() {
        for minutes in [0, 900] {
            let result = TripEditor.appendObservation(
                TravelObservation(departedAt: observation.departedAt, minutes: minutes), toTrip: "office",
                in: Array(file.utf8))
            XCTAssertEqual(result, .failure(.minutesOutOfRange(trip: "office", minutes: minutes)))
        }
    }

    func testUnknownTripAndMissingFileAreRefused() {
        XCTAssertEqual(TripEditor.appendObservation(observation, toTrip: "gym", in: Array(file.utf8)),
                       .failure(.unknownTrip("gym", known: ["office", "dentist"])))
        XCTAssertEqual(TripEditor.appendObservation(observation, toTrip: "gym", in: nil), .failure(.noFile(trip: "gym")))
    }
}
