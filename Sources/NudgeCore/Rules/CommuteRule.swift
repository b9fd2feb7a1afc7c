import FoundationEssentials

/// Commute leave-time reminders (docs/files.md, "trips.json"): one `commute.leave` per trip instance, a trip plus
/// the local date of its arrival.
///
/// The reminder fires at arrival − predicted travel − buffer and is pointless once the arrival has passed.
/// Every instance is a one-off event (docs/design.md, "When a notification is due"): a reminder recomputed late is
/// still worth delivering until the arrival. Like the other rules this one ignores `settings.commute.enabled`: the
/// caller leaves out the whole kind. Hysteresis (keeping a planned fireAt that moved by 2 minutes or less) and
/// "not delivered already" belong to the planner, which knows the previous plan and the ledger.
enum CommuteRule {
    static let title = "Time to Leave"
    static let category = "LEAVE_TIME"
    static let actions = ["LEAVING_NOW", "SNOOZE"]
    private static let utcClock = WallClock(zone: .utc)

    /// The body up to the arrival time: "Leave now to arrive at Office by ", or with a buffer "Leave in 10 min
    /// to arrive at Office by ", then "08:45". The same for every instance of a trip, so a run builds it once
    /// per trip.
    static func bodyStart(destination: String, bufferMinutes: Int) -> String {
        let when = bufferMinutes == 0 ? "now" : String(concatenating: "in ", String(bufferMinutes), " min")
        return String(concatenating: "Leave ", when, " to arrive at ", destination, " by ")
    }

    /// Every instance of an enabled trip arriving on a local date from `firstDate` through `lastDate` (a one-off
    /// trip's single instance whatever its date); nothing for a disabled trip, or one paused while the person is
    /// in another zone than its own.
    static func notifications(for trip: Trip, from firstDate: LocalDate, through lastDate: LocalDate,
                              settings: Settings, clock: WallClock) -> [Notification] {
        guard trip.enabled, !trip.isPaused(in: clock.zone) else { return [] }
        let earliest = earliestArrival(of: trip, from: firstDate, clock: clock)
        let history = TravelPrediction.History(trip: trip, clock: clock, earliestArrival: earliest)
        let bodyStart = bodyStart(destination: trip.destination,
                                  bufferMinutes: trip.bufferMinutes ?? settings.commute.defaultBufferMinutes)
        var result: [Notification] = []
        forEachArrival(of: trip, from: firstDate, through: lastDate, clock: clock) { date, arrival in
            result.append(instance(of: trip, arrival: arrival, arrivalDate: date, settings: settings,
                                   history: history, bodyStart: bodyStart, clock: clock))
        }
        return result
    }

    /// No instance of `trip` on `firstDate` or later arrives before this instant.
    private static func earliestArrival(of trip: Trip, from firstDate: LocalDate, clock: WallClock) -> Date {
        switch trip.schedule {
        case .once(let arriveAt): return arriveAt
        case .recurring: return clock.startOfDay(firstDate)
        }
    }

    /// The arrivals of a trip: for a recurring trip, `arriveBy` on each listed weekday from `firstDate` through
    /// `lastDate` (mapped by `WallClock`, so it keeps its local time across a DST change); for a one-off trip its
    /// `arriveAt` with its UTC date, whatever the range. Does not look at `enabled`.
    static func arrivals(of trip: Trip, from firstDate: LocalDate, through lastDate: LocalDate,
                         clock: WallClock) -> [(date: LocalDate, arrival: Date)] {
        var result: [(date: LocalDate, arrival: Date)] = []
        forEachArrival(of: trip, from: firstDate, through: lastDate, clock: clock) { result.append(($0, $1)) }
        return result
    }

    /// `arrivals`, handed over one by one: the run builds no array of (date, arrival) tuples.
    static func forEachArrival(of trip: Trip, from firstDate: LocalDate, through lastDate: LocalDate,
                               clock: WallClock, _ body: (LocalDate, Date) -> Void) {
        switch trip.schedule {
        case .once(let arriveAt):
            // Named by the UTC date so that the id, and with it "delivered once", survives a zone change.
            body(utcClock.localDate(of: arriveAt), arriveAt)
        case .recurring(let arriveBy, let weekdays):
            var date = firstDate
            while date <= lastDate {
                if weekdays.contains(date.weekday) {
                    body(date, clock.instant(on: date, at: arriveBy))
                }
                date = date.adding(days: 1)
            }
        }
    }

    /// The leave-time reminder of the instance arriving at `arrival`, which belongs to the local date
    /// `arrivalDate` (the date in its occurrence id).
    static func instance(of trip: Trip, arrival: Date, arrivalDate: LocalDate, settings: Settings,
                         clock: WallClock) -> Notification {
        let buffer = trip.bufferMinutes ?? settings.commute.defaultBufferMinutes
        return instance(of: trip, arrival: arrival, arrivalDate: arrivalDate, settings: settings,
                        history: TravelPrediction.History(trip: trip, clock: clock, earliestArrival: arrival),
                        bodyStart: bodyStart(destination: trip.destination, bufferMinutes: buffer), clock: clock)
    }

    /// The same, with the trip's observations already placed on the clock and its body started for this run.
    static func instance(of trip: Trip, arrival: Date, arrivalDate: LocalDate, settings: Settings,
                         history: TravelPrediction.History, bodyStart: String, clock: WallClock) -> Notification {
        let travel = history.minutes(arrival: arrival)
        let buffer = trip.bufferMinutes ?? settings.commute.defaultBufferMinutes
        let fireAt = arrival.addingTimeInterval(-TimeInterval(travel + buffer) * 60)
        let local = clock.localDateTime(of: arrival)
        let arrivalTime = String.hourMinute(local.hour, local.minute)
        return Notification(id: Notification.occurrenceID(.leave, trip.id, arrivalDate.description), kind: .leave,
                            source: trip.id, fireAt: fireAt, expiresAt: arrival, title: title,
                            body: String(concatenating: bodyStart, arrivalTime),
                            priority: .high, category: category, actions: actions,
                            sound: settings.notifications.sound, badge: settings.notifications.badge,
                            recurrence: .once)
    }
}
