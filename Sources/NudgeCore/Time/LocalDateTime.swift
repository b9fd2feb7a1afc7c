import FoundationEssentials

/// A local date and time of day with seconds.
///
/// Like `LocalDate` it has no zone: it is what a clock on the wall shows.
/// Some values never happen in a given zone (the hour skipped when clocks
/// spring forward) and some happen twice (the hour repeated when they fall
/// back); `WallClock` decides which instant such a value stands for.
///
/// Internally it can be represented as "local seconds since the epoch":
/// the seconds from 1970-01-01T00:00:00 to this value as if the zone were
/// UTC. That single integer is what `WallClock` and `RFC3339` compute with.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    let date: LocalDate
    /// 0...23.
    let hour: Int
    /// 0...59.
    let minute: Int
    /// 0...59 (no leap seconds).
    let second: Int

    /// Nil unless `hour` is 0...23, `minute` 0...59 and `second` 0...59.
    init?(date: LocalDate, hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else {
            return nil
        }
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// `time` on `date`, second 0.
    init(date: LocalDate, time: WallTime) {
        self.date = date
        self.hour = time.hour
        self.minute = time.minute
        self.second = 0
    }

    /// The value `seconds` seconds after 1970-01-01T00:00:00 local (negative:
    /// before it). Uses floor division so that -1 is 1969-12-31T23:59:59.
    /// Clamped to the supported date range like `LocalDate(daysSinceEpoch:)`.
    init(secondsSinceEpoch seconds: Int) {
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let date = LocalDate(daysSinceEpoch: days)
        if date.daysSinceEpoch != days {
            // Clamped: pin to the first or last second of the supported range.
            secondOfDay = days < date.daysSinceEpoch ? 0 : 86_399
        }
        self.date = date
        self.hour = secondOfDay / 3_600
        self.minute = secondOfDay % 3_600 / 60
        self.second = secondOfDay % 60
    }

    /// Local or UTC second counts that `init(secondsSinceEpoch:)` represents exactly.
    static let supportedSeconds: ClosedRange<Int> =
        LocalDate.supportedDays.lowerBound * 86_400 ... LocalDate.supportedDays.upperBound * 86_400 + 86_399

    /// Whole UTC seconds since 1970 of `instant`, rounded toward the past
    /// (so 1.5 s before the epoch is -2), clamped to `supportedSeconds`.
    /// A NaN instant counts as the epoch. Never traps, unlike `Int(Double)`.
    static func floorSeconds(of instant: Date) -> Int {
        let interval = instant.timeIntervalSince1970
        guard !interval.isNaN else { return 0 }
        let lower = Double(supportedSeconds.lowerBound), upper = Double(supportedSeconds.upperBound)
        return Int(min(max(interval.rounded(.down), lower), upper))
    }

    /// Seconds from 1970-01-01T00:00:00 to this value, reading both as UTC.
    var secondsSinceEpoch: Int {
        date.daysSinceEpoch * 86_400 + secondsSinceMidnight
    }

    /// Seconds since midnight of `date`, 0...86399.
    var secondsSinceMidnight: Int {
        hour * 3_600 + minute * 60 + second
    }

    /// "YYYY-MM-DDTHH:MM:SS" without any offset, e.g. "2026-03-29T03:00:00".
    public var description: String {
        guard (0...9999).contains(date.year) else {
            return date.description + "T" + LocalDate.zeroPadded(hour, width: 2)
                + ":" + LocalDate.zeroPadded(minute, width: 2)
                + ":" + LocalDate.zeroPadded(second, width: 2)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// "YYYY-MM-DDTHH:MM:SS" into a byte buffer, for years 0…9999.
    func appendText(to bytes: inout some ByteSink) {
        ASCIIDigits.appendDate(date, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        ASCIIDigits.append(hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ASCIIDigits.append(minute, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        ASCIIDigits.append(second, width: 2, to: &bytes)
    }

    /// Chronological order of the wall-clock readings (not of instants: in a
    /// fall-back hour a later reading can happen earlier).
    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.secondsSinceMidnight) < (rhs.date, rhs.secondsSinceMidnight)
    }
}

