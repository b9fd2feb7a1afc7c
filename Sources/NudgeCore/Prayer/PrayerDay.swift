import FoundationEssentials

/// The six prayer times of one solar day at one place, as instants (docs/prayer-times.md).
///
/// The day is named by the UT date its solar noon falls on (`solarDate`, found from a local date by
/// `PrayerCalendar`). Sunrise and sunset are the moments the sun's centre is 0.833° below the horizon, dhuhr the
/// transit, asr the shadow rule of the school, fajr and isha the method's depressions; fajr and isha are then
/// bounded by the high-latitude rule with the night from this sunset to the next sunrise, as PrayTimes.org and
/// the Adhan library do. Times are exact (seconds, not yet rounded) and include `adjustMinutes`.
struct PrayerDay {
    /// Why a prayer has no time on a day.
    enum Gap: Error, Equatable, Sendable, CustomStringConvertible {
        /// The sun stays above the horizon all day (midnight sun).
        case sunDoesNotSet
        /// The sun stays below the horizon all day (polar night).
        case sunDoesNotRise
        /// The sun does not get this many degrees below the horizon (and `highLatitude` is `none`, or the night
        /// that bounds it is not there).
        case twilightNotReached(Double)
        /// The sun does not cross the altitude of the asr shadow: below it all day (polar night) or, near a pole
        /// in summer, above it.
        case asrNotReached

        /// Why, as `nudge status` and `nudge times` say it.
        var description: String {
            switch self {
            case .sunDoesNotSet: return "the sun does not set that day (midnight sun)"
            case .sunDoesNotRise: return "the sun does not rise that day (polar night)"
            case let .twilightNotReached(angle):
                return "the sun does not get \(PrayerMethod.degrees(angle)) below the horizon that day"
            case .asrNotReached: return "the sun does not cross the altitude of the asr shadow that day"
            }
        }
    }

    let solarDate: LocalDate
    let settings: PrayerSettings
    let method: PrayerMethod
    private let sun: SolarDay
    private let midnight: Double

    /// The day of `settings` whose solar noon falls on the UT date `solarDate`; nil without a location.
    init?(solarDate: LocalDate, settings: PrayerSettings) {
        guard let latitude = settings.latitude, let longitude = settings.longitude else { return nil }
        self.solarDate = solarDate
        self.settings = settings
        method = settings.method
        sun = SolarDay(date: solarDate, latitude: latitude, longitude: longitude)
        midnight = Double(solarDate.daysSinceEpoch) * 86_400
    }

    /// The instant of `prayer` as seconds since 1970 (exact, with its `adjustMinutes`), or why it has none:
    /// the place's own, or where the sun does not allow it, the time `polar` resolves it to.
    func time(of prayer: Prayer) -> Result<Double, Gap> {
        resolved(prayer).map { $0.seconds + Double(settings.adjustment(prayer)) * 60 }
    }

    /// Why the place has no time of `prayer` this day and where `polar` found the one it rings at; nil when
    /// the time is the place's own, or when there is none.
    func resolution(of prayer: Prayer) -> (gap: Gap, source: PolarResolution.Source)? {
        guard case let .success(found) = resolved(prayer), let resolution = found.resolution else { return nil }
        return resolution
    }

    /// The place's own time of `prayer` (without `adjustMinutes`), or the one `polar` resolves a missing one to
    /// (docs/prayer-times.md), with why it was missing and where it was found. The day's missing times are
    /// resolved together, from the one latitude or date at which all of them exist, so that they keep their
    /// order (fajr before sunrise) where the sun's times change by the hour from one day to the next.
    private func resolved(_ prayer: Prayer)
        -> Result<(seconds: Double, resolution: (gap: Gap, source: PolarResolution.Source)?), Gap> {
        let own = unadjusted(prayer)
        guard case let .failure(gap) = own, settings.polar != .none, let latitude = settings.latitude else {
            return own.map { ($0, nil) }
        }
        let missing = Prayer.allCases.filter { if case .failure = unadjusted($0) { true } else { false } }
        let sources = polarSources(latitude: latitude)
        for needed in missing == [prayer] ? [missing] : [missing, [prayer]] {
            for source in sources {
                let day = elsewhere(source)
                guard needed.allSatisfy({ if case .success = day.unadjusted($0) { true } else { false } }),
                      case let .success(seconds) = day.unadjusted(prayer) else { continue }
                let shift = day.solarDate.daysSinceEpoch - solarDate.daysSinceEpoch
                return .success((seconds - Double(shift) * 86_400, (gap, source)))
            }
        }
        return .failure(gap)
    }

    /// Where `polar` looks for missing times, nearest first: 0.5° steps from the place's latitude down to the
    /// equator (where every time exists), the reference latitude on the place's side, or the dates up to half a
    /// year before and after (the earlier first on a tie).
    private func polarSources(latitude: Double) -> [PolarResolution.Source] {
        let side: Double = latitude < 0 ? -1 : 1
        switch settings.polar {
        case .none: return []
        case .nearestLatitude:
            return (1...Int((abs(latitude) / 0.5).rounded(.up))).map {
                .latitude(side * max(abs(latitude) - Double($0) * 0.5, 0))
            }
        case let .referenceLatitude(reference): return [.latitude(side * reference)]
        case .nearestDay: return (1...183).flatMap { [.date(solarDate.adding(days: -$0)), .date(solarDate.adding(days: $0))] }
        }
    }

    /// The day of `source` (the same solar date at another latitude, or another solar date at the place), with
    /// the same longitude and method, unresolved.
    private func elsewhere(_ source: PolarResolution.Source) -> PrayerDay {
        var settings = settings
        settings.polar = .none
        switch source {
        case let .latitude(latitude):
            settings.latitude = latitude
            return PrayerDay(solarDate: solarDate, settings: settings)!
        case let .date(date):
            return PrayerDay(solarDate: date, settings: settings)!
        }
    }

    private func unadjusted(_ prayer: Prayer) -> Result<Double, Gap> {
        switch prayer {
        case .fajr: return twilight(angle: method.fajrAngle, evening: false)
        case .sunrise: return horizon(evening: false)
        case .dhuhr: return .success(midnight + sun.transit * 3600)
        case .asr:
            // In the polar night the sun stays below the horizon even at noon: no shadow to measure.
            guard sun.highestAltitude > 0 else { return .failure(.asrNotReached) }
            let altitude = sun.asrAltitude(shadowLength: settings.asr.shadowLength)
            guard let hours = sun.time(atAltitude: altitude, afterTransit: true) else {
                return .failure(.asrNotReached)
            }
            return .success(midnight + hours * 3600)
        case .maghrib:
            guard let angle = method.maghribAngle else { return horizon(evening: true) }
            return twilight(angle: angle, evening: true)
        case .isha:
            switch method.isha {
            case let .angle(angle): return twilight(angle: angle, evening: true)
            case let .minutes(minutes): return unadjusted(.maghrib).map { $0 + Double(minutes) * 60 }
            }
        }
    }

    /// Sunrise or sunset.
    private func horizon(evening: Bool) -> Result<Double, Gap> {
        guard let hours = sun.time(atAltitude: SolarDay.horizonAltitude, afterTransit: evening) else {
            return .failure(staysAbove(SolarDay.horizonAltitude) ? .sunDoesNotSet : .sunDoesNotRise)
        }
        return .success(midnight + hours * 3600)
    }

    /// Fajr (morning) or isha and a Shia maghrib (evening) at `angle` degrees below the horizon, bounded by the
    /// high-latitude rule where the night is defined.
    private func twilight(angle: Double, evening: Bool) -> Result<Double, Gap> {
        let exact = sun.time(atAltitude: -angle, afterTransit: evening).map { midnight + $0 * 3600 }
        if let portion = settings.highLatitude.portion(angle: angle), let night = night() {
            let bound = evening ? night.sunset + portion * night.length : night.sunrise - portion * night.length
            guard let exact else { return .success(bound) }
            return .success(evening ? min(exact, bound) : max(exact, bound))
        }
        if let exact { return .success(exact) }
        if staysAbove(SolarDay.horizonAltitude) { return .failure(.sunDoesNotSet) }
        if sun.highestAltitude < -angle { return .failure(.sunDoesNotRise) }
        return .failure(.twilightNotReached(angle))
    }

    /// This day's sunset and the next day's sunrise, and the time between them (seconds); nil where the sun
    /// does not set today or rise tomorrow.
    private func night() -> (sunset: Double, sunrise: Double, length: Double)? {
        guard case let .success(sunset) = horizon(evening: true), let latitude = settings.latitude,
              let longitude = settings.longitude else { return nil }
        let tomorrow = solarDate.adding(days: 1)
        let next = SolarDay(date: tomorrow, latitude: latitude, longitude: longitude)
        guard let hours = next.time(atAltitude: SolarDay.horizonAltitude, afterTransit: false) else { return nil }
        let sunrise = midnight + 86_400 + hours * 3600
        guard case let .success(todaysSunrise) = horizon(evening: false) else { return nil }
        return (sunset, todaysSunrise, sunrise - sunset)
    }

    /// Whether the sun stays above `altitude` all day: its lowest point, at the lower transit, is above it.
    private func staysAbove(_ altitude: Double) -> Bool {
        sun.lowestAltitude > altitude
    }
}
