import FoundationEssentials

/// The travel time a trip instance is planned with, learned from the trip's observations (docs/files.md, "trips.json").
///
/// The rule, for an instance arriving at `arrival`:
/// 1. Recent observations: those with `arrival − 56 days < departedAt ≤ arrival`.
/// 2. Comparable ones among them: the departure's local date is the same kind of day (weekday mon–fri,
///    weekend sat/sun) as the arrival's local date, and the departure's local time of day lies within
///    ±60 minutes, inclusive, of the reference time — the local time of day of `arriveBy − travelMinutes`
///    (recurring) or of `local(arriveAt) − travelMinutes` (one-off), subtracted on the wall clock. The
///    distance is measured around the clock, so 23:50 and 00:30 are 40 minutes apart.
/// 3. The 80th percentile (nearest rank) of the comparable minutes when there are at least 3; else of all
///    recent minutes; with no recent observation at all, the trip's own `travelMinutes`.
///
/// Why: journeys at a similar hour on a similar day predict best; the 80th percentile leaves early enough on
/// four days out of five without planning for the worst jam; and old habits (over 8 weeks) no longer count.
/// The 8 weeks end at the instance's arrival, not at the run's clock: an instance's leave-time then changes only
/// when the observations do, never with time alone, so a reminder cannot jump into the past when an old journey
/// ages out, and a run after a clock set back plans the instance as the runs before it did (docs/promises.md).
public enum TravelPrediction {
    /// Observations older than this, before the arrival, are ignored.
    static let horizon: TimeInterval = 56 * 86_400
    /// Half-width of the comparable window around the reference time of day, inclusive.
    static let windowSeconds = 60 * 60
    /// Fewer comparable observations than this are too few to trust on their own.
    static let minimumComparable = 3
    static let percent = 80

    private static let secondsPerDay = 86_400

    /// Predicted travel minutes for the instance of `trip` that arrives at `arrival`.
    static func minutes(for trip: Trip, arrival: Date, clock: WallClock) -> Int {
        History(trip: trip, clock: clock, earliestArrival: arrival).minutes(arrival: arrival)
    }

    /// A trip's observations, each placed on the local clock once, for predicting every instance of the trip in
    /// one run: planning asks for about ten instances per trip, and placing the same observations on the clock
    /// for each of them was most of the planning time of a household with long histories.
    struct History {
        /// One observation as the rule compares it.
        private struct Placed {
            var departedAt: Date
            var weekend: Bool
            var secondOfDay: Int
            var minutes: Int
        }

        private let trip: Trip
        private let clock: WallClock
        /// The observations an instance arriving at `earliestArrival` or later may count, by departure.
        private let placed: [Placed]

        /// The history for instances arriving at `earliestArrival` or later: older observations are not placed.
        init(trip: Trip, clock: WallClock, earliestArrival: Date) {
            let oldest = earliestArrival.addingTimeInterval(-horizon)
            self.trip = trip
            self.clock = clock
            placed = trip.observations.compactMap { observation -> Placed? in
                guard observation.departedAt > oldest else { return nil }
                let local = clock.localSeconds(of: observation.departedAt)
                var day = local / secondsPerDay
                var second = local % secondsPerDay
                if second < 0 {
                    second += secondsPerDay
                    day -= 1
                }
                return Placed(departedAt: observation.departedAt, weekend: isWeekend(Weekday(daysSinceEpoch: day)),
                              secondOfDay: second, minutes: observation.minutes)
            }.sorted { $0.departedAt < $1.departedAt }
        }

        /// Predicted travel minutes for the instance that arrives at `arrival`.
        func minutes(arrival: Date) -> Int {
            basis(arrival: arrival).minutes
        }

        /// What the prediction for the instance arriving at `arrival` rests on, for `nudge status`.
        func basis(arrival: Date) -> Basis {
            let recent = recentObservations(arrival: arrival)
            let weekend = isWeekend(clock.localDate(of: arrival).weekday)
            let reference = referenceSecondOfDay(for: trip, arrival: arrival, clock: clock)
            let comparable = recent.filter { observation in
                observation.weekend == weekend
                    && distanceAroundClock(observation.secondOfDay, reference) <= windowSeconds
            }
            let similar = comparable.count >= minimumComparable
            let sample = similar ? comparable : Array(recent)
            guard let minutes = nearestRankPercentile(sample.map(\.minutes), percent) else {
                return Basis(sample: .estimate, count: 0, minutes: trip.travelMinutes)
            }
            return Basis(sample: similar ? .similar : .recent, count: sample.count, minutes: minutes)
        }

        /// Step 1 of the rule: the observations of the 56 days up to `arrival`, found by two binary searches.
        private func recentObservations(arrival: Date) -> ArraySlice<Placed> {
            let oldest = arrival.addingTimeInterval(-horizon)
            return placed[firstIndex(after: oldest)..<firstIndex(after: arrival)]
        }

        /// The index of the first observation that departed after `instant`.
        private func firstIndex(after instant: Date) -> Int {
            var low = 0
            var high = placed.count
            while low < high {
                let middle = (low + high) / 2
                if placed[middle].departedAt > instant { high = middle } else { low = middle + 1 }
            }
            return low
        }
    }

    /// What a prediction rests on: which observations, how many, and the minutes it gives.
    public struct Basis: Equatable, Sendable {
        enum Sample: Equatable, Sendable {
            /// At least 3 recent observations on the same kind of day within ±60 minutes of the reference time.
            case similar
            /// Too few similar ones: every recent observation.
            case recent
            /// No recent observation: the trip's own `travelMinutes`.
            case estimate
        }

        var sample: Sample
        var count: Int
        var minutes: Int

        /// "80th percentile of 6 similar trips in the last 8 weeks: 31 min".
        public var description: String {
            let trips = count == 1 ? "1 trip" : "\(count) trips"
            switch sample {
            case .similar:
                return "\(percent)th percentile of \(count) similar trips in the last 8 weeks: \(minutes) min"
            case .recent:
                return "\(percent)th percentile of \(trips) in the last 8 weeks (fewer than \(minimumComparable) "
                    + "similar): \(minutes) min"
            case .estimate:
                return "no trips recorded in the last 8 weeks, so travelMinutes: \(minutes) min"
            }
        }
    }

    /// What the prediction for `trip`'s instance arriving at `arrival` rests on.
    static func basis(for trip: Trip, arrival: Date, clock: WallClock) -> Basis {
        History(trip: trip, clock: clock, earliestArrival: arrival).basis(arrival: arrival)
    }

    /// The value at rank ⌈percent/100 · n⌉ (1-based) of the values sorted ascending; nil for no values.
    /// `percent` is clamped to 0–100, and a rank of 0 takes the smallest value.
    static func nearestRankPercentile(_ values: [Int], _ percent: Int) -> Int? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let clamped = min(max(percent, 0), 100)
        let rank = (clamped * sorted.count + 99) / 100
        return sorted[max(rank, 1) - 1]
    }

    /// Local time of day, in seconds after midnight, that comparable departures lie near.
    static func referenceSecondOfDay(for trip: Trip, arrival: Date, clock: WallClock) -> Int {
        let arrivalSecond: Int
        switch trip.schedule {
        case .recurring(let arriveBy, _):
            arrivalSecond = arriveBy.secondsSinceMidnight
        case .once:
            arrivalSecond = clock.localDateTime(of: arrival).secondsSinceMidnight
        }
        return referenceSecondOfDay(arrivalSecond: arrivalSecond, trip: trip)
    }

    /// `travelMinutes` before the arrival's time of day, around the clock.
    private static func referenceSecondOfDay(arrivalSecond: Int, trip: Trip) -> Int {
        let second = (arrivalSecond - trip.travelMinutes * 60) % secondsPerDay
        return second < 0 ? second + secondsPerDay : second
    }

    /// Seconds between two times of day the short way round midnight: 0 to 12 hours.
    static func distanceAroundClock(_ first: Int, _ second: Int) -> Int {
        let distance = abs(first - second) % secondsPerDay
        return min(distance, secondsPerDay - distance)
    }

    fileprivate static func isWeekend(_ day: Weekday) -> Bool {
        day == .sat || day == .sun
    }
}
