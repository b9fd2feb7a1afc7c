import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where the sun stands on the celestial sphere at 0h UT of one day: its declination, right ascension and the
/// apparent sidereal time at Greenwich (degrees).
///
/// The low-precision solar coordinates of Jean Meeus, *Astronomical Algorithms* (2nd ed., 1998), ch. 12, 22 and
/// 25 (mean longitude and anomaly, equation of the centre, nutation and the apparent obliquity), good to about
/// 0.01° — the same series the Adhan library and its ports (adhanpy) use, so the minutes agree with theirs.
struct SolarCoordinates {
    /// Declination δ, degrees north of the celestial equator.
    let declination: Double
    /// Right ascension α, degrees in 0..<360.
    let rightAscension: Double
    /// Apparent sidereal time at Greenwich Θ0, degrees in 0..<360.
    let apparentSiderealTime: Double

    /// The coordinates at Julian day `julianDay` (a day's 0h UT is `….5`).
    init(julianDay: Double) {
        let t = (julianDay - 2_451_545.0) / 36_525
        let meanLongitude = Angle.unwound(280.4664567 + 36_000.76983 * t + 0.0003032 * t * t)
        let lunarLongitude = Angle.unwound(218.3165 + 481_267.8813 * t)
        let node = Angle.unwound(125.04452 - 1_934.136261 * t + 0.0020708 * t * t + t * t * t / 450_000)
        let anomaly = Angle.radians(Angle.unwound(357.52911 + 35_999.05029 * t - 0.0001537 * t * t))
        let centre = (1.914602 - 0.004817 * t - 0.000014 * t * t) * sin(anomaly)
            + (0.019993 - 0.000101 * t) * sin(2 * anomaly) + 0.000289 * sin(3 * anomaly)
        let omega = Angle.radians(125.04 - 1_934.136 * t)
        let longitude = Angle.radians(Angle.unwound(meanLongitude + centre - 0.00569 - 0.00478 * sin(omega)))
        let julianDays = t * 36_525
        let meanSidereal = Angle.unwound(280.46061837 + 360.98564736629 * julianDays + 0.000387933 * t * t
                                         - t * t * t / 38_710_000)
        let l0 = Angle.radians(meanLongitude), lp = Angle.radians(lunarLongitude), n = Angle.radians(node)
        let nutationInLongitude = (-17.2 * sin(n) - 1.32 * sin(2 * l0) - 0.23 * sin(2 * lp) + 0.21 * sin(2 * n))
            / 3600
        let nutationInObliquity = (9.2 * cos(n) + 0.57 * cos(2 * l0) + 0.10 * cos(2 * lp) - 0.09 * cos(2 * n))
            / 3600
        let meanObliquity = 23.439291 - 0.013004167 * t - 0.0000001639 * t * t + 0.0000005036 * t * t * t
        let obliquity = Angle.radians(meanObliquity + 0.00256 * cos(omega))
        declination = Angle.degrees(asin(sin(obliquity) * sin(longitude)))
        rightAscension = Angle.unwound(Angle.degrees(atan2(cos(obliquity) * sin(longitude), cos(longitude))))
        apparentSiderealTime = meanSidereal
            + nutationInLongitude * cos(Angle.radians(meanObliquity + nutationInObliquity))
    }

    /// The Julian day of 0h UT on a (proleptic Gregorian) date (Meeus ch. 7).
    static func julianDay(_ date: LocalDate) -> Double {
        Double(date.daysSinceEpoch) + 2_440_587.5
    }
}
