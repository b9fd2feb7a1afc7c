import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The sun's course over one place on one UT date: its transit and the moments it stands at a given altitude,
/// in hours after 0h UT of that date (negative or past 24 when the place is far from Greenwich).
///
/// Meeus, *Astronomical Algorithms* ch. 15 ("Rising, Transit and Setting"): an approximate transit from the
/// sun's right ascension and the sidereal time, then one correction with the coordinates interpolated between
/// the day before and the day after. The sun's altitude at an hour angle H is
/// sin h = sin φ sin δ + cos φ cos δ cos H, so the hour angle of an altitude h0 is
/// cos H0 = (sin h0 − sin φ sin δ) / (cos φ cos δ); where that is outside −1…1 the sun never stands there
/// that day (midnight sun, polar night, a twilight that never gets deep enough).
struct SolarDay {
    let latitude: Double
    let longitude: Double
    private let before: SolarCoordinates
    let sun: SolarCoordinates
    private let after: SolarCoordinates
    /// The approximate transit m0, as a fraction of the day.
    private let approximateTransit: Double

    /// The sun over `latitude`, `longitude` (degrees, east positive) on the UT date `date`.
    init(date: LocalDate, latitude: Double, longitude: Double) {
        let julianDay = SolarCoordinates.julianDay(date)
        self.init(latitude: latitude, longitude: longitude,
                  coordinates: (SolarCoordinates(julianDay: julianDay - 1), SolarCoordinates(julianDay: julianDay),
                                SolarCoordinates(julianDay: julianDay + 1)))
    }

    /// The same from the sun's coordinates on the days before, of and after the date.
    init(latitude: Double, longitude: Double,
         coordinates: (SolarCoordinates, SolarCoordinates, SolarCoordinates)) {
        self.latitude = latitude
        self.longitude = longitude
        (before, sun, after) = coordinates
        let transit = (sun.rightAscension - longitude - sun.apparentSiderealTime) / 360
        approximateTransit = transit - transit.rounded(.down)
    }

    /// The sun's own altitude for sunrise and sunset: its centre 50′ below the horizon (34′ of refraction and
    /// 16′ of semi-diameter), the −0.833° of the almanacs, PyEphem and Adhan.
    static let horizonAltitude = -50.0 / 60

    /// Solar noon: when the sun crosses the meridian.
    var transit: Double {
        let siderealTime = Angle.unwound(sun.apparentSiderealTime + 360.985647 * approximateTransit)
        let ascension = Angle.unwound(Self.interpolatedAngle(sun.rightAscension, before.rightAscension,
                                                             after.rightAscension, approximateTransit))
        let hourAngle = Angle.closest(siderealTime + longitude - ascension)
        return (approximateTransit - hourAngle / 360) * 24
    }

    /// When the sun's centre stands at `altitude` degrees (negative below the horizon), rising (before the
    /// transit) or setting (after it); nil when it does not reach that altitude this day.
    func time(atAltitude altitude: Double, afterTransit: Bool) -> Double? {
        let phi = Angle.radians(latitude)
        guard let approximateHourAngle = hourAngle(of: altitude, declination: sun.declination) else { return nil }
        let m = approximateTransit + (afterTransit ? approximateHourAngle : -approximateHourAngle) / 360
        let siderealTime = Angle.unwound(sun.apparentSiderealTime + 360.985647 * m)
        let ascension = Angle.unwound(Self.interpolatedAngle(sun.rightAscension, before.rightAscension,
                                                             after.rightAscension, m))
        let declination = Self.interpolated(sun.declination, before.declination, after.declination, m)
        let hourAngle = siderealTime + longitude - ascension
        let delta = Angle.radians(declination)
        let reached = Angle.degrees(asin(sin(phi) * sin(delta) + cos(phi) * cos(delta) * cos(Angle.radians(hourAngle))))
        let correction = (reached - altitude) / (360 * cos(delta) * cos(phi) * sin(Angle.radians(hourAngle)))
        // Near noon where the sun grazes the altitude (asr on the last days with a noon sun, sunrise before
        // the polar night) its altitude hardly changes, and that Newton step divides by almost nothing: a step
        // longer than the way to the transit is not taken; the hour angle is then found again with the
        // declination of the moment it gives, until it settles.
        guard approximateHourAngle < 90, abs(correction) * 360 > approximateHourAngle else {
            return (m + correction) * 24
        }
        var settled = m
        for _ in 0..<8 {
            let declination = Self.interpolated(sun.declination, before.declination, after.declination, settled)
            guard let angle = self.hourAngle(of: altitude, declination: declination) else { break }
            settled = approximateTransit + (afterTransit ? angle : -angle) / 360
        }
        return settled * 24
    }

    /// The hour angle (degrees, 0…180) at which the sun of `declination` stands at `altitude`:
    /// cos H = (sin h − sin φ sin δ) / (cos φ cos δ); nil when it never does.
    private func hourAngle(of altitude: Double, declination: Double) -> Double? {
        let phi = Angle.radians(latitude), delta = Angle.radians(declination)
        let cosine = (sin(Angle.radians(altitude)) - sin(phi) * sin(delta)) / (cos(phi) * cos(delta))
        guard cosine >= -1, cosine <= 1 else { return nil }
        return Angle.degrees(acos(cosine))
    }

    /// The sun's altitude at its transit (noon), degrees.
    var highestAltitude: Double { 90 - abs(latitude - sun.declination) }

    /// The sun's altitude at its lower transit (midnight), degrees: above the horizon in the midnight sun.
    var lowestAltitude: Double { abs(latitude + sun.declination) - 90 }

    /// The altitude of asr: when a stick's shadow is its noon shadow plus `shadowLength` times its length
    /// (1 in the standard school, 2 in the Hanafi), i.e. cot h = shadowLength + tan |φ − δ|.
    func asrAltitude(shadowLength: Double) -> Double {
        let noonShadow = tan(Angle.radians(abs(latitude - sun.declination)))
        return Angle.degrees(atan(1 / (shadowLength + noonShadow)))
    }

    /// Meeus (3.3): interpolation between three equally spaced values, at `n` days from the middle one.
    private static func interpolated(_ y2: Double, _ y1: Double, _ y3: Double, _ n: Double) -> Double {
        let a = y2 - y1, b = y3 - y2
        return y2 + n / 2 * (a + b + n * (b - a))
    }

    /// The same for angles, across 360°.
    private static func interpolatedAngle(_ y2: Double, _ y1: Double, _ y3: Double, _ n: Double) -> Double {
        let a = Angle.unwound(y2 - y1), b = Angle.unwound(y3 - y2)
        return y2 + n / 2 * (a + b + n * (b - a))
    }
}
