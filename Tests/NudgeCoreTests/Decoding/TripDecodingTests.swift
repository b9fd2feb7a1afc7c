import XCTest
@testable import NudgeCore

/// Decoding `trips.json` against literal JSON: defaults, the schedule rule, every value check with its key path.
final class TripDecodingTests: XCTestCase {
    private func decode(_ text: String) -> ([Trip]?, FileReport) {
        UserFileDecoder.trips(Array(text.utf8))
    }

    private func messages(_ text: String) -> [String] {
        decode(text).1.problems.map(\.description)
    }

    func testATripMayNameItsZoneAndAnUnknownOneIsNamedWithTheClosest() {
        let text = """
        { "trips": [ { "id": "uni", "destination": "University", "arriveBy": "08:15", "travelMinutes": 25,
                       "timeZone": "Europe/Oslo" },
                     { "id": "gym", "destination": "Gym", "arriveBy": "18:00", "travelMinutes": 10,
                       "timeZone": "Europe/Osloo" } ] }
        """
        let (trips, report) = UserFileDecoder.trips(Array(text.utf8), zoneNamed: Fixtures.zoneNamed,
                                                    zoneNames: { ["Europe/Oslo", "Europe/Berlin"] })
        XCTAssertEqual(trips?.map(\.id), ["uni"], "the trip with the unknown zone stands alone")
        XCTAssertEqual(trips?.first?.timeZone, "Europe/Oslo")
        XCTAssertEqual(report.problems.map(\.description), [
            "trips.json: trips[1].timeZone: \"Europe/Osloo\" is not a known time zone (expected an IANA name such as "
                + "\"Europe/Berlin\"; did you mean Europe/Oslo?)",
        ])
        let uni = trips![0]
        XCTAssertFalse(uni.isPaused(in: Fixtures.zone("Europe/Oslo")))
        XCTAssertTrue(uni.isPaused(in: Fixtures.zone("Europe/Istanbul")))
        XCTAssertEqual(CommuteRule.notifications(for: uni, from: Fixtures.date("2026-11-23"),
                                                 through: Fixtures.date("2026-11-24"), settings: Settings(),
                                                 clock: WallClock(zone: Fixtures.zone("Europe/Istanbul"))), [])
    }

    func testSpecExampleDecodesRecurringAndOneOffTrips() {
        let (trips, report) = decode("""
        { "trips": [ { "id": "office", "destination": "Office", "arriveBy": "08:45",
                       "weekdays": ["mon","tue","wed","thu","fri"], "bufferMinutes": 10, "travelMinutes": 25,
                       "observations": [ { "departedAt": "2026-11-20T07:58:00Z", "minutes": 31 } ] },
                     { "id": "dentist", "destination": "Dentist", "arriveAt": "2026-11-24T14:30:00+01:00",
                       "travelMinutes": 20 } ] }
        """)
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(report.unknownKeys, [])
        XCTAssertEqual(trips, [
            Trip(id: "office", destination: "Office",
                 schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: [.mon, .tue, .wed, .thu, .fri]),
                 bufferMinutes: 10, travelMinutes: 25,
                 observations: [TravelObservation(departedAt: Fixtures.instant("2026-11-20T07:58:00Z"), minutes: 31)]),
            Trip(id: "dentist", destination: "Dentist",
                 schedule: .once(arriveAt: Fixtures.instant("2026-11-24T13:30:00Z")), bufferMinutes: nil,
                 travelMinutes: 20, observations: [], enabled: true),
        ])
    }

    func testOmittedKeysTakeTheirDefaults() {
        let (trips, report) = decode("""
        {"version": 1, "trips": [{"id": "gym", "destination": "Gym", "arriveBy": "18:00", "travelMinutes": 0,
                                  "bufferMinutes": null, "enabled": false}]}
        """)
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(trips, [
            Trip(id: "gym", destination: "Gym",
                 schedule: .recurring(arriveBy: Fixtures.time("18:00"), weekdays: Weekdays.everyDay),
                 bufferMinutes: nil, travelMinutes: 0, observations: [], enabled: false),
        ])
    }

    func testFileWithoutTripsMeansNoTrips() {
        XCTAssertEqual(decode("{}").0, [])
        XCTAssertEqual(decode(#"{"trips": []}"#).0, [])
    }

    func testScheduleNeedsExactlyOneOfArriveByOrArriveAt() {
        let (trips, report) = decode("""
        {"trips": [
          {"id": "a", "destination": "A", "arriveBy": "08:00", "arriveAt": "2026-11-24T14:30:00Z", "travelMinutes": 5},
          {"id": "b", "destination": "B", "travelMinutes": 5},
          {"id": "c", "destination": "C", "arriveAt": "2026-11-24T14:30:00Z", "weekdays": ["mon"], "travelMinutes": 5}
        ]}
        """)
        XCTAssertEqual(trips, [], "each trip is broken, and each takes down only itself")
        XCTAssertEqual(report.problems.map(\.description), [
            "trips.json: trips[0]: needs either arriveBy (with weekdays) or arriveAt, not both",
            "trips.json: trips[1]: needs either arriveBy (with weekdays) or arriveAt, not both",
            "trips.json: trips[2].weekdays: only applies with arriveBy (a trip with arriveAt happens once)",
        ])
    }

    func testTripValueErrorsNameTheirKeyPaths() {
        XCTAssertEqual(messages("""
        {"trips": [
          {"id": "office", "destination": "", "arriveBy": "8:45", "weekdays": [], "bufferMinutes": 721,
           "travelMinutes": 1441},
          {"id": "school", "destination": "School", "arriveBy": "08:45", "weekdays": ["monday", "fri"],
           "bufferMinutes": -1, "travelMinutes": -1},
          {"id": "dentist", "arriveAt": "2026-11-24 14:30", "travelMinutes": "20"},
          {"id": "gym", "destination": 7, "arriveAt": "2201-01-01T00:00:00Z", "enabled": "yes"},
          {"id": "a b", "destination": "Park", "arriveBy": 845, "travelMinutes": 2.5}
        ]}
        """), [
            "trips.json: trips[0].destination: must not be empty (it is shown as \"arrive at <destination>\")",
            "trips.json: trips[0].arriveBy: \"8:45\" is not a time (HH:MM)",
            "trips.json: trips[0].weekdays: must list at least one weekday (mon, tue, wed, thu, fri, sat, sun)",
            "trips.json: trips[0].bufferMinutes: 721 is out of range (expected a whole number from 0 to 720)",
            "trips.json: trips[0].travelMinutes: 1441 is out of range (expected a whole number from 0 to 1440)",
            "trips.json: trips[1].weekdays[0]: \"monday\" is not a weekday (expected one of mon, tue, wed, thu, fri, sat, sun)",
            "trips.json: trips[1].bufferMinutes: -1 is out of range (expected a whole number from 0 to 720)",
            "trips.json: trips[1].travelMinutes: -1 is out of range (expected a whole number from 0 to 1440)",
            "trips.json: trips[2]: missing required key \"destination\"",
            "trips.json: trips[2].arriveAt: \"2026-11-24 14:30\" is not an RFC 3339 instant (like \"2026-11-21T08:00:00Z\")",
            "trips.json: trips[2].travelMinutes: expected a whole number from 0 to 1440, found a string",
            "trips.json: trips[3].destination: expected a string, found a number",
            "trips.json: trips[3].arriveAt: \"2201-01-01T00:00:00Z\" is outside the years 2000 to 2200",
            "trips.json: trips[3]: missing required key \"travelMinutes\"",
            "trips.json: trips[3].enabled: expected true or false, found a string",
            "trips.json: trips[4].id: \"a b\" is not a valid id (use 1 to 100 letters, digits, '.', '_' or '-')",
            "trips.json: trips[4].arriveBy: expected a string, found a number",
            "trips.json: trips[4].travelMinutes: 2.5 is out of range (expected a whole number from 0 to 1440)",
        ])
    }

    func testObservationValueErrorsNameTheirKeyPaths() {
        XCTAssertEqual(messages("""
        {"trips": [
          {"id": "office", "destination": "Office", "arriveBy": "08:45", "travelMinutes": 25, "observations": [
            {"departedAt": "1999-12-31T23:59:59Z", "minutes": 0},
            {"departedAt": "yesterday", "minutes": 1441},
            {"minutes": 30},
            {"departedAt": "2026-11-20T07:58:00Z"},
            "x"
          ]},
          {"id": "park", "destination": "Park", "arriveBy": "09:00", "travelMinutes": 10, "observations": {}}
        ]}
        """), [
            "trips.json: trips[0].observations[0].departedAt: \"1999-12-31T23:59:59Z\" is outside the years 2000 to 2200",
            "trips.json: trips[0].observations[0].minutes: 0 is out of range (expected a whole number from 1 to 1440)",
            "trips.json: trips[0].observations[1].departedAt: \"yesterday\" is not an RFC 3339 instant (like \"2026-11-21T08:00:00Z\")",
            "trips.json: trips[0].observations[1].minutes: 1441 is out of range (expected a whole number from 1 to 1440)",
            "trips.json: trips[0].observations[2]: missing required key \"departedAt\"",
            "trips.json: trips[0].observations[3]: missing required key \"minutes\"",
            "trips.json: trips[0].observations[4]: expected an object, found a string",
            "trips.json: trips[1].observations: expected an array, found an object",
        ])
    }

    func testDuplicateTripIdsAreReportedAtEachUse() {
        XCTAssertEqual(messages("""
        {"trips": [{"id": "office", "destination": "Office", "arriveBy": "08:45", "travelMinutes": 25},
                   {"id": "office", "destination": "Office", "arriveAt": "2026-11-24T14:30:00Z", "travelMinutes": 25}]}
        """), ["trips.json: trips[0].id: duplicate id \"office\" (also used at trips[1].id)",
               "trips.json: trips[1].id: duplicate id \"office\" (also used at trips[0].id)"])
    }

    func testBoundsAreInclusive() {
        let (trips, report) = decode("""
        {"trips": [{"id": "far", "destination": "Far", "arriveBy": "23:59", "bufferMinutes": 720, "travelMinutes": 1440,
                    "observations": [{"departedAt": "2000-01-01T00:00:00Z", "minutes": 1},
                                     {"departedAt": "2200-12-31T23:59:59Z", "minutes": 1440}]},
                   {"id": "near", "destination": "Near", "arriveBy": "00:00", "bufferMinutes": 0, "travelMinutes": 0}]}
        """)
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(trips?.map(\.bufferMinutes), [720, 0])
        XCTAssertEqual(trips?.map(\.travelMinutes), [1440, 0])
        XCTAssertEqual(trips?.first?.observations.map(\.minutes), [1, 1440])
    }

    func testUnknownKeysAreWarningsNotErrors() {
        let (trips, report) = decode("""
        {"cars": 1, "trips": [{"id": "office", "destination": "Office", "arriveBy": "08:45", "travelMinutes": 25,
                               "mode": "bike",
                               "observations": [{"departedAt": "2026-11-20T07:58:00Z", "minutes": 31, "note": "rain"}]}]}
        """)
        XCTAssertEqual(trips?.map(\.id), ["office"])
        XCTAssertEqual(report.warnings, ["trips.json: cars: unknown key (ignored)",
                                         "trips.json: trips[0].mode: unknown key (ignored)",
                                         "trips.json: trips[0].observations[0].note: unknown key (ignored)"])
    }

    func testWrongShapesAreReported() {
        XCTAssertEqual(messages(#"{"trips": {}}"#), ["trips.json: trips: expected an array, found an object"])
        XCTAssertEqual(messages(#"{"trips": [7]}"#), ["trips.json: trips[0]: expected an object, found a number"])
        XCTAssertEqual(decode("{\"trips\": [,]}").1.problems.first?.place, .position(line: 1, column: 12))
    }
}
