import FoundationEssentials

/// Reading and writing instants as RFC 3339 date-time strings.
///
/// Instants in the JSON files are RFC 3339 strings with an explicit offset or
/// `Z`; output instants are always UTC with `Z`. Both directions are plain
/// integer arithmetic on bytes (via `LocalDate`'s civil-date algorithms):
/// `DateFormatter` / `ISO8601DateFormatter` are slow, locale- and
/// version-dependent on Linux, and lenient in ways the product must not be.
public enum RFC3339 {
    /// Seconds between 1970-01-01 and Foundation's reference date 2001-01-01.
    private static let referenceDateOffset = 978_307_200

    /// Strict RFC 3339 date-time: YYYY-MM-DD('T'|'t'|' ')HH:MM:SS(.fraction)?('Z'|'z'|±HH:MM).
    /// Validates ranges (month, day in month, hour<24, minute<60, second<60
    /// (leap second 60 rejected), offset hours<24 minutes<60). Returns nil
    /// otherwise. A fraction may have any number of digits (at least one);
    /// the first nine are used, which is already below `Date`'s own `Double`
    /// precision. "-00:00" ("offset unknown") is accepted as UTC.
    /// Pure arithmetic, no DateFormatter.
    public static func parse(_ text: String) -> Date? {
        text.utf8.withContiguousStorageIfAvailable(parse(bytes:))
            ?? Array(text.utf8).withUnsafeBufferPointer(parse(bytes:))
    }

    /// `parse` of UTF-8 text, as a decoder reads it straight from a file's bytes.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20,
              bytes[4] == ascii("-"), bytes[7] == ascii("-"),
              bytes[10] == ascii("T") || bytes[10] == ascii("t") || bytes[10] == ascii(" "),
              bytes[13] == ascii(":"), bytes[16] == ascii(":")
        else { return nil }
        // The fields are read digit by digit inline, with one validity check at the end: decoders parse an
        // instant for every travel observation and play, half a million in a large household.
        var allDigits = true
        func field(_ start: Int, _ count: Int) -> Int {
            var value = 0
            for index in start..<(start + count) {
                let digit = Int(bytes[index]) &- 48
                allDigits = allDigits && digit >= 0 && digit <= 9
                value = value &* 10 &+ digit
            }
            return value
        }
        let year = field(0, 4), month = field(5, 2), day = field(8, 2)
        let hour = field(11, 2), minute = field(14, 2), second = field(17, 2)
        guard allDigits,
              let date = LocalDate(year: year, month: month, day: day),
              let local = LocalDateTime(date: date, hour: hour, minute: minute, second: second)
        else { return nil }

        var index = 19
        var nanoseconds = 0
        if bytes[index] == ascii(".") {
            index += 1
            let fractionStart = index
            var scale = 100_000_000
            while index < bytes.count, let digit = LocalDate.digits(bytes, index, 1) {
                nanoseconds += digit * scale
                scale /= 10                      // becomes 0 after nine digits: rest ignored
                index += 1
            }
            guard index > fractionStart else { return nil }
        }

        guard let offsetSeconds = parseOffset(bytes, from: index) else { return nil }
        let utcSeconds = local.secondsSinceEpoch - offsetSeconds
        // One rounding only: build the reference-date interval Date stores.
        let interval = Double(utcSeconds - referenceDateOffset) + Double(nanoseconds) / 1e9
        return Date(timeIntervalSinceReferenceDate: interval)
    }

    /// UTC with Z: "2026-11-21T08:00:00Z"; when the instant has a non-zero
    /// fractional second, exactly three digits of milliseconds (truncated
    /// toward the past): "2026-11-21T08:00:00.250Z". Works for years
    /// 0001-9999 with 4-digit zero-padded years (outside that range the year
    /// gets a sign or more digits, which is not RFC 3339 but never traps).
    /// Pure arithmetic.
    ///
    /// Truncation forgives `Double` representation noise of a couple of ulps:
    /// "…00.001Z" parses to a `Date` a hair below one millisecond, and must
    /// still print as ".001", not ".000", so that parse/format round-trips.
    public static func format(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `format(date)` appended to a byte buffer (the plan writer's fast path).
    static func append(_ date: Date, to bytes: inout some ByteSink) {
        let interval = date.timeIntervalSinceReferenceDate
        var utcSeconds = LocalDateTime.floorSeconds(of: date)
        var milliseconds = 0
        var hasFraction = false
        let whole = interval.rounded(.down)
        if interval.isFinite, whole + Double(referenceDateOffset) == Double(utcSeconds) {
            let fraction = interval - whole       // exact, in [0, 1)
            let noise = 2 * interval.ulp
            let scaled = fraction * 1_000
            milliseconds = Int(scaled)
            if Double(milliseconds + 1) - scaled <= noise * 1_000 {
                milliseconds += 1                 // a hair below the next millisecond
            }
            hasFraction = fraction > noise
            if milliseconds == 1_000 {
                utcSeconds += 1
                milliseconds = 0
                hasFraction = false
            }
        }
        let stamp = LocalDateTime(secondsSinceEpoch: utcSeconds)
        if (0...9999).contains(stamp.date.year) {
            stamp.appendText(to: &bytes)
        } else {
            var text = stamp.description
            text.withUTF8 { bytes.append(bytes: $0) }
        }
        if hasFraction {
            bytes.append(UInt8(ascii: "."))
            ASCIIDigits.append(milliseconds, width: 3, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Parses the zone designator starting at `index`, which must run to the
    /// end of the text: "Z", "z", or "+HH:MM" / "-HH:MM" with HH < 24 and MM < 60.
    /// Returns the offset east of UTC in seconds.
    private static func parseOffset(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        let remaining = bytes.count - index
        if remaining == 1, bytes[index] == ascii("Z") || bytes[index] == ascii("z") {
            return 0
        }
        guard remaining == 6,
              bytes[index] == ascii("+") || bytes[index] == ascii("-"),
              bytes[index + 3] == ascii(":"),
              let hours = LocalDate.digits(bytes, index + 1, 2),
              let minutes = LocalDate.digits(bytes, index + 4, 2),
              hours < 24, minutes < 60
        else { return nil }
        let magnitude = hours * 3_600 + minutes * 60
        return bytes[index] == ascii("-") ? -magnitude : magnitude
    }

    /// The byte of an ASCII character, for readable comparisons.
    private static func ascii(_ character: Unicode.Scalar) -> UInt8 {
        UInt8(ascii: character)
    }
}
