/// A calendar date in the proleptic Gregorian calendar, no zone.
///
/// All arithmetic is done on plain integers with Howard Hinnant's
/// `days_from_civil` / `civil_from_days` algorithms
/// (<https://howardhinnant.github.io/date_algorithms.html>), so converting a
/// date to a day count and back costs a handful of integer operations and
/// never touches `Calendar`, `DateComponents` or `DateFormatter`. This matters
/// because the planner converts dates for thousands of alarms on every run.
///
/// Supported years are `LocalDate.supportedYears` (about ±1 million years),
/// which keeps every derived second count far away from `Int` overflow.
/// Values outside that range are rejected (`init?`) or clamped
/// (`init(daysSinceEpoch:)`, `adding(days:)`), never trapped on.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    let year: Int
    let month: Int
    let day: Int

    /// Years accepted by `init?(year:month:day:)`.
    static let supportedYears: ClosedRange<Int> = -1_000_000...1_000_000

    /// Day numbers (days since 1970-01-01) of the first and last supported dates.
    static let supportedDays: ClosedRange<Int> =
        daysFromCivil(year: supportedYears.lowerBound, month: 1, day: 1)
        ... daysFromCivil(year: supportedYears.upperBound, month: 12, day: 31)

    /// Validates the month (1...12) and the day against the length of that
    /// month, including February 29 in Gregorian leap years.
    init?(year: Int, month: Int, day: Int) {
        guard LocalDate.supportedYears.contains(year), (1...12).contains(month),
              day >= 1, day <= LocalDate.daysInMonth(year: year, month: month)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `daysSinceEpoch` days after 1970-01-01 (negative: before it).
    /// Day numbers outside `supportedDays` are clamped to its bounds.
    init(daysSinceEpoch: Int) {
        let days = min(max(daysSinceEpoch, LocalDate.supportedDays.lowerBound),
                       LocalDate.supportedDays.upperBound)
        // civil_from_days: shift the era to start on 0000-03-01 so that the
        // leap day is the last day of the (March-based) year.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097                                  // [0, 146096]
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365  // [0, 399]
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)            // [0, 365]
        let mp = (5 * doy + 2) / 153                                 // [0, 11]
        let day = doy - (153 * mp + 2) / 5 + 1                       // [1, 31]
        let month = mp < 10 ? mp + 3 : mp - 9                        // [1, 12]
        self.year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (negative before it).
    var daysSinceEpoch: Int {
        LocalDate.daysFromCivil(year: year, month: month, day: day)
    }

    var weekday: Weekday {
        Weekday(daysSinceEpoch: daysSinceEpoch)
    }

    /// The date `days` days later (negative: earlier). Saturates at the
    /// supported range instead of overflowing.
    func adding(days: Int) -> LocalDate {
        let (sum, overflow) = daysSinceEpoch.addingReportingOverflow(days)
        if overflow {
            return LocalDate(daysSinceEpoch: days > 0 ? Int.max : Int.min)
        }
        return LocalDate(daysSinceEpoch: sum)
    }

    /// "YYYY-MM-DD" with a zero-padded 4-digit year ("0042-01-05").
    /// Years beyond 9999 get more digits and negative years a leading "-".
    public var description: String {
        if (0...9999).contains(year) {
            // Ten ASCII bytes straight into the string's storage (fits a small string: no allocation).
            // Unsigned: dividing by a constant is then a multiplication, without a sign to correct.
            let year = UInt(truncatingIfNeeded: year), month = UInt(truncatingIfNeeded: month)
            let day = UInt(truncatingIfNeeded: day)
            return String(unsafeUninitializedCapacity: 10) { buffer in
                let digit = { (value: UInt) in UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value) }
                buffer[0] = digit(year / 1000)
                buffer[1] = digit(year / 100 % 10)
                buffer[2] = digit(year / 10 % 10)
                buffer[3] = digit(year % 10)
                buffer[4] = UInt8(ascii: "-")
                buffer[5] = digit(month / 10)
                buffer[6] = digit(month % 10)
                buffer[7] = UInt8(ascii: "-")
                buffer[8] = digit(day / 10)
                buffer[9] = digit(day % 10)
                return 10
            }
        }
        let yearText = year < 0
            ? "-" + LocalDate.zeroPadded(-year, width: 4)
            : LocalDate.zeroPadded(year, width: 4)
        return yearText + "-" + LocalDate.zeroPadded(month, width: 2)
            + "-" + LocalDate.zeroPadded(day, width: 2)
    }

    /// Strict "YYYY-MM-DD": exactly 4+2+2 ASCII digits, '-' separators, a
    /// real calendar date. Anything else (extra spaces, "2026-1-5", a time
    /// part) is nil.
    public static func parse(_ text: String) -> LocalDate? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// `parse` of UTF-8 bytes.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> LocalDate? {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = digits(bytes, 0, 4),
              let month = digits(bytes, 5, 2),
              let day = digits(bytes, 8, 2)
        else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    // MARK: - Integer calendar helpers (shared with the other Time types)

    /// Gregorian leap year rule: every 4th year, except centuries not divisible by 400.
    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Length of `month` (1...12) in `year`.
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Hinnant's days_from_civil: day number of a valid civil date relative to 1970-01-01.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400                                      // [0, 399]
        let mp = month > 2 ? month - 3 : month + 9                   // March = 0
        let doy = (153 * mp + 2) / 5 + day - 1                       // [0, 365]
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy              // [0, 146096]
        return era * 146_097 + doe - 719_468
    }

    /// Reads `count` ASCII digits starting at `start`; nil if any byte is not a digit.
    static func digits<Bytes: RandomAccessCollection>(_ bytes: Bytes, _ start: Int, _ count: Int) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard start >= 0, count > 0, start + count <= bytes.count else { return nil }
        var value = 0
        for index in (bytes.startIndex + start)..<(bytes.startIndex + start + count) {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Decimal text of a non-negative `value`, left-padded with zeros to `width`.
    static func zeroPadded(_ value: Int, width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
