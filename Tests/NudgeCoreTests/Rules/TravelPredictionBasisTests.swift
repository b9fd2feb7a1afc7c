import XCTest
@testable import NudgeCore

/// What `nudge status` says a trip's prediction rests on (docs/files.md, "trips.json").
final class TravelPredictionBasisTests: XCTestCase {
    private let berlin = WallClock(zone: Fixtures.berlin)

    private func office(_ observations: [(String, Int)]) -> Trip {
        Trip(id: "office", destination: "Office",
             schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: [.mon, .tue, .wed, .thu, .fri]),
             travelMinutes: 25,
             observations: observations.map { TravelObservation(departedAt: Fixtures.instant($0.0), minutes: $0.1) })
    }

    func testSixSimilarTrips() {
        let trip = office([("2026-11-16T07:00:00Z", 26), ("2026-11-17T07:05:00Z", 31), ("2026-11-18T06:58:00Z", 29),
                           ("2026-11-19T07:02:00Z", 35), ("2026-11-20T07:01:00Z", 27), ("2026-11-23T07:00:00Z", 30)])
        let basis = TravelPrediction.basis(for: trip, arrival: Fixtures.instant("2026-11-24T07:45:00Z"), clock: berlin)
        XCTAssertEqual(basis, TravelPrediction.Basis(sample: .similar, count: 6, minutes: 31))
        XCTAssertEqual(basis.description, "80th percentile of 6 similar trips in the last 8 weeks: 31 min")
        XCTAssertEqual(basis.minutes, TravelPrediction.minutes(for: trip, arrival: Fixtures.instant("2026-11-24T07:45:00Z"),
                                                               clock: berlin))
    }

    func testTooFewSimilarTakesAllRecentAndNoneTakesTheEstimate() {
        let trip = office([("2026-11-21T15:00:00Z", 40), ("2026-11-20T07:00:00Z", 30)])
        let basis = TripRecorder.prediction(for: trip, now: Fixtures.instant("2026-11-23T12:00:00Z"), clock: berlin)
        XCTAssertEqual(basis, TravelPrediction.Basis(sample: .recent, count: 2, minutes: 40))
        XCTAssertEqual(basis.description,
                       "80th percentile of 2 trips in the last 8 weeks (fewer than 3 similar): 40 min")
        let none = TripRecorder.prediction(for: office([]), now: Fixtures.instant("2026-11-23T12:00:00Z"), clock: berlin)
        XCTAssertEqual(none.description, "no trips recorded in the last 8 weeks, so travelMinutes: 25 min")
    }
}
