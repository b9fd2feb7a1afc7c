import FoundationEssentials

/// The prayer times of local dates: which solar day a local date holds, and the instant a prayer alarm rings on
/// it, through `WallClock` like any alarm's typed time (docs/prayer-times.md, "One a date, on that date").
public struct PrayerCalendar {
    let settings: PrayerSettings
    let clock: WallClock

    /// Nil when `settings` has no location.
    public init?(settings: PrayerSettings, clock: WallClock) {
        guard settings.latitude != nil, settings.longitude != nil else { return nil }
        self.settings = settings
        self.clock = clock
    }

    /// Why a prayer alarm does not ring on a local date.
    enum Gap: Error, Equatable, Sendable, CustomStringConvertible {
        /// The sun does not do what the prayer needs that day.
        case sun(PrayerDay.Gap)
        /// The time computed for the date falls on another date (isha after midnight at high latitudes), and no
        /// neighbouring day's time falls on this one.
        case otherDate(LocalDateTime)

        var description: String {
            switch self {
            case let .sun(gap): return gap.description
            case let .otherDate(local):
                return "its time that day falls on \(local.date) at \(String.hourMinute(local.hour, local.minute)), "
                    + "and no other day's falls on this date"
            }
        }
    }

    /// The solar day a local date holds: the one whose solar noon is nearest the date's local noon.
    func day(on date: LocalDate) -> PrayerDay? {
        let noon = clock.instant(on: date, at: WallTime(hour: 12, minute: 0)!).timeIntervalSince1970
        let meanSolarNoon = noon + (settings.longitude ?? 0) * 240
        let solarDate = LocalDate(daysSinceEpoch: Int((meanSolarNoon / 86_400).rounded(.down)))
        return PrayerDay(solarDate: solarDate, settings: settings)
    }

    /// The local reading of `prayer` (rounded to the minute, with `offsetMinutes`) of the solar day of `date`.
    func reading(of prayer: Prayer, on date: LocalDate, offsetMinutes: Int = 0) -> Result<LocalDateTime, Gap> {
        guard let day = day(on: date) else { return .failure(.sun(.sunDoesNotRise)) }
        switch day.time(of: prayer) {
        case let .failure(gap): return .failure(.sun(gap))
        case let .success(seconds):
            let minute = (seconds / 60).rounded(.toNearestOrAwayFromZero) * 60 + Double(offsetMinutes) * 60
            return .success(clock.localDateTime(of: Date(timeIntervalSince1970: minute)))
        }
    }

    /// Why the place has no time of `prayer` on the solar day of `date`, and where `polar` found the one
    /// `reading` gives; nil when that is the place's own (or there is none).
    func resolution(of prayer: Prayer, on date: LocalDate)
        -> (gap: PrayerDay.Gap, source: PolarResolution.Source)? {
        day(on: date)?.resolution(of: prayer)
    }

    /// When an alarm following `prayer` rings on local `date`: the time of the date's own solar day, or, when
    /// that falls on another date, the neighbouring day's time that falls on this one; the local time of day
    /// found goes through `WallClock` like a typed `time`, so an occurrence is on its date and only once.
    func ringing(_ prayer: Prayer, on date: LocalDate, offsetMinutes: Int) -> Result<(Date, WallTime), Gap> {
        let local: LocalDateTime
        switch reading(of: prayer, on: date, offsetMinutes: offsetMinutes) {
        case let .failure(gap): return .failure(gap)
        case let .success(reading): local = reading
        }
        var found = local
        if local.date != date {
            let neighbour = date.adding(days: local.date > date ? -1 : 1)
            guard case let .success(other) = reading(of: prayer, on: neighbour, offsetMinutes: offsetMinutes),
                  other.date == date else { return .failure(.otherDate(local)) }
            found = other
        }
        let time = WallTime(hour: found.hour, minute: found.minute) ?? .midnight
        return .success((clock.instant(on: date, at: time), time))
    }
}
