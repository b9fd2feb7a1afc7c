import XCTest
@testable import NudgeCore

/// The predicted travel time: which observations count, and the nearest-rank 80th percentile.
final class TravelPredictionTests: XCTestCase {
    private let berlin = WallClock(zone: Fixtures.berlin)

    private func trip(arriveBy: String = "08:45", travel: Int = 25, _ observations: [(String, Int)]) -> Trip {
        Trip(id: "office", destination: "Office",
             schedule: .recurring(arriveBy: Fixtures.time(arriveBy), weekdays: Weekdays.everyDay),
             travelMinutes: travel,
             observations: observations.map { TravelObservation(departedAt: Fixtures.instant($0.0), minutes: $0.1) })
    }

    func testComparableWindowIncludesSixtyMinutesEitherSideAndExcludesSixtyOne() {
        // Arrival Tue 08:45 CET, travel 25: reference 08:20 local, window 07:20–09:20 local.
        let office = trip([
            ("2026-11-23T06:20:00Z", 40),  // Mon 07:20, exactly 60 min before
            ("2026-11-20T08:20:00Z", 50),  // Fri 09:20, exactly 60 min after
            ("2026-11-19T07:20:00Z", 30),  // Thu 08:20
            ("2026-11-18T06:19:00Z", 90),  // Wed 07:19, 61 min before
            ("2026-11-17T08:21:00Z", 95),  // Tue 09:21, 61 min after
        ])
        XCTAssertEqual(TravelPrediction.minutes(for: office, arrival: Fixtures.instant("2026-11-24T07:45:00Z"),
                                                clock: berlin), 50)
    }

    func testKindOfDayComesFromTheArrivalsLocalDate() {
        // 00:30 in Berlin; reference 00:10 local. Departures are classified by their own local date.
        let night = trip(arriveBy: "00:30", travel: 20, [
            ("2026-11-20T23:10:00Z", 12),  // Sat 00:10 local
            ("2026-11-21T23:05:00Z", 14),  // Sun 00:05 local
            ("2026-11-14T23:20:00Z", 16),  // Sun 00:20 local
            ("2026-11-26T23:10:00Z", 40),  // Fri 00:10 local
            ("2026-11-25T23:10:00Z", 45),  // Thu 00:10 local
            ("2026-11-24T23:10:00Z", 50),  // Wed 00:10 local
        ])
        // Saturday 2026-11-28 00:30 local is still Friday in UTC.
        XCTAssertEqual(TravelPrediction.minutes(for: night, arrival: Fixtures.instant("2026-11-27T23:30:00Z"),
                                                clock: berlin), 16)
        // Friday 2026-11-27 00:30 local is still Thursday in UTC.
        XCTAssertEqual(TravelPrediction.minutes(for: night, arrival: Fixtures.instant("2026-11-26T23:30:00Z"),
                                                clock: berlin), 50)
    }

    func testDistanceToTheReferenceWrapsAroundMidnight() {
        // Reference 00:10: 23:10 is 60 min away and 23:30 is 40, not 23 hours.
        let night = trip(arriveBy: "00:30", travel: 20, [
            ("2026-11-23T23:10:00Z", 20),  // Mon 23:10
            ("2026-11-20T23:30:00Z", 22),  // Fri 23:30
            ("2026-11-19T00:50:00Z", 24),  // Thu 00:50
            ("2026-11-18T12:00:00Z", 99),  // Wed noon
        ])
        XCTAssertEqual(TravelPrediction.minutes(for: night, arrival: Fixtures.instant("2026-11-24T00:30:00Z"),
                                                clock: WallClock(zone: Fixtures.utc)), 24)
    }

    func testOnlyObservationsOfThe56DaysBeforeTheArrivalCount() {
        // Arrival Tue 24 Nov 08:45 CET (07:45Z); arrival − 56 days = 2026-09-29T07:45:00Z, excluded. Two are
        // comparable, too few: the sample is every observation of the 56 days.
        let office = trip([
            ("2026-09-28T06:20:00Z", 99),  // 57 days before the arrival
            ("2026-09-29T07:45:00Z", 98),  // exactly 56 days before the arrival
            ("2026-09-29T07:46:00Z", 20),  // one minute later
            ("2026-11-10T07:20:00Z", 25),  // Tue 08:20, comparable
            ("2026-11-24T07:00:00Z", 30),  // Tue 08:00, comparable: on the day, before the arrival
            ("2026-11-24T07:46:00Z", 97),  // after the arrival
        ])
        // [20, 25, 30], rank ⌈0.8 · 3⌉ = 3.
        XCTAssertEqual(TravelPrediction.minutes(for: office, arrival: Fixtures.instant("2026-11-24T07:45:00Z"),
                                                clock: berlin), 30)
    }

    func testAnInstancesPredictionDoesNotChangeWhileItsDayPasses() {
        // The History a run makes for the days it plans and one made for the arrival alone agree: the 56 days
        // end at the arrival, so neither the run's clock nor the first day it plans changes an instance.
        let office = trip([("2026-09-29T07:46:00Z", 20), ("2026-10-01T07:20:00Z", 25), ("2026-11-10T07:20:00Z", 45),
                           ("2026-11-20T07:20:00Z", 30), ("2026-11-23T07:20:00Z", 35)])
        let arrival = Fixtures.instant("2026-11-24T07:45:00Z")
        let early = TravelPrediction.History(trip: office, clock: berlin,
                                             earliestArrival: Fixtures.instant("2026-11-16T00:00:00Z"))
        XCTAssertEqual(early.minutes(arrival: arrival), TravelPrediction.minutes(for: office, arrival: arrival,
                                                                                 clock: berlin))
        XCTAssertEqual(early.minutes(arrival: arrival), 45)
    }

    func testFewerThanThreeComparableFallsBackToAllRecentObservations() {
        let office = trip([
            ("2026-11-23T07:20:00Z", 30),  // Mon 08:20, comparable
            ("2026-11-20T07:20:00Z", 35),  // Fri 08:20, comparable
            ("2026-11-22T07:20:00Z", 10),  // Sun: weekend
            ("2026-11-19T16:00:00Z", 60),  // Thu 17:00: other time
            ("2026-11-18T16:00:00Z", 70),  // Wed 17:00: other time
            ("2026-09-01T07:20:00Z", 99),  // too old even for the fallback
        ])
        // All recent: [10, 30, 35, 60, 70], rank ⌈0.8 · 5⌉ = 4.
        XCTAssertEqual(TravelPrediction.minutes(for: office, arrival: Fixtures.instant("2026-11-24T07:45:00Z"),
                                                clock: berlin), 60)
    }

    func testNoRecentObservationFallsBackToTravelMinutes() {
        let arrival = Fixtures.instant("2026-11-24T07:45:00Z")
        XCTAssertEqual(TravelPrediction.minutes(for: trip([]), arrival: arrival, clock: berlin), 25)
        XCTAssertEqual(TravelPrediction.minutes(for: trip([("2026-09-01T06:20:00Z", 99)]), arrival: arrival,
                                                clock: berlin), 25)
        XCTAssertEqual(TravelPrediction.minutes(for: trip(travel: 0, []), arrival: arrival, clock: berlin), 0)
    }

    func testOneOffReferenceIsLocalArriveAtMinusTravelMinutes() {
        // Arrival 14:30 CET, travel 20: reference 14:10 local, window 13:10–15:10 local.
        let arrival = Fixtures.instant("2026-11-24T14:30:00+01:00")
        let dentist = Trip(id: "dentist", destination: "Dentist", schedule: .once(arriveAt: arrival),
                           travelMinutes: 20, observations: [
                               TravelObservation(departedAt: Fixtures.instant("2026-11-23T12:10:00Z"), minutes: 30),
                               TravelObservation(departedAt: Fixtures.instant("2026-11-20T14:10:00Z"), minutes: 40),
                               TravelObservation(departedAt: Fixtures.instant("2026-11-19T13:10:00Z"), minutes: 35),
                               TravelObservation(departedAt: Fixtures.instant("2026-11-18T12:09:00Z"), minutes: 90),
                           ])
        XCTAssertEqual(TravelPrediction.minutes(for: dentist, arrival: arrival, clock: berlin), 40)
    }

    func testOneHistoryPredictsEveryInstanceOfARunByItsKindOfDay() {
        // The same observations as the kind-of-day test, asked once per run for a week of arrivals.
        let night = trip(arriveBy: "00:30", travel: 20, [
            ("2026-11-20T23:10:00Z", 12),  // Sat 00:10 local
            ("2026-11-21T23:05:00Z", 14),  // Sun 00:05 local
            ("2026-11-14T23:20:00Z", 16),  // Sun 00:20 local
            ("2026-11-26T23:10:00Z", 40),  // Fri 00:10 local
            ("2026-11-25T23:10:00Z", 45),  // Thu 00:10 local
            ("2026-11-24T23:10:00Z", 50),  // Wed 00:10 local
        ])
        let history = TravelPrediction.History(trip: night, clock: berlin,
                                               earliestArrival: Fixtures.instant("2026-11-26T23:00:00Z"))
        // 00:30 local on Fri 27 (weekday), Sat 28, Sun 29 (weekend), Mon 30 (weekday).
        let arrivals = ["2026-11-26T23:30:00Z", "2026-11-27T23:30:00Z", "2026-11-28T23:30:00Z", "2026-11-29T23:30:00Z"]
        XCTAssertEqual(arrivals.map { history.minutes(arrival: Fixtures.instant($0)) }, [50, 16, 16, 50])
    }

    func testNearestRankPercentileOfKnownLists() {
        XCTAssertEqual(TravelPrediction.nearestRankPercentile([10, 20, 30, 40, 50], 80), 40)
        XCTAssertEqual(TravelPrediction.nearestRankPercentile([7], 80), 7)
        XCTAssertEqual(TravelPrediction.nearestRankPercentile([30, 10, 20], 80), 30)  // rank ⌈2.4⌉ = 3
        XCTAssertEqual(TravelPrediction.nearestRankPercentile(Array(1...10), 80), 8)
        XCTAssertEqual(TravelPrediction.nearestRankPercentile([4, 1, 3, 2], 50), 2)
        XCTAssertEqual(TravelPrediction.nearestRankPercentile([5, 1], 100), 5)
        XCTAssertEqual(TravelPrediction.nearestRankPercentile([5, 1], 0), 1)
        XCTAssertNil(TravelPrediction.nearestRankPercentile([], 80))
    }
}
