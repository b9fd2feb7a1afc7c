/// A wall-clock time of day, minute precision.
///
/// This is what a user writes for a daily alarm or message ("07:30"). It
/// deliberately carries no date and no zone: the same `WallTime` means a
/// different instant on every date and in every zone, and turning it into an
/// instant (including what happens when the clocks jump) is the job of
/// `WallClock` alone.
public struct WallTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 0...23.
    let hour: Int
    /// 0...59.
    let minute: Int

    /// Nil unless `hour` is 0...23 and `minute` is 0...59 ("24:00" is not a time of day).
    init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.init(validatedHour: hour, minute: minute)
    }

    /// Memberwise init for values already known to be in range.
    private init(validatedHour hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// 00:00, the nominal start of a local day.
    static let midnight = WallTime(validatedHour: 0, minute: 0)

    /// Strict "HH:MM" in 24-hour form: exactly two digits, a colon, two
    /// digits, hour 00-23 and minute 00-59. Nil for anything else, e.g.
    /// "7:30", "24:00", "07:60", "07:30:00", " 07:30", "07.30" or non-ASCII digits.
    /// Being strict keeps user files unambiguous and round-trippable through
    /// `description`.
    init?(parsing text: String) {
        guard let time = Array(text.utf8).withUnsafeBufferPointer(WallTime.init(parsing:)) else { return nil }
        self = time
    }

    /// `init(parsing:)` of UTF-8 text, as a decoder reads it straight from a file's bytes.
    init?(parsing bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
              let hour = LocalDate.digits(bytes, 0, 2),
              let minute = LocalDate.digits(bytes, 3, 2)
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    /// Minutes since local midnight, 0...1439 (ignores any DST jump that day).
    var minutesSinceMidnight: Int {
        hour * 60 + minute
    }

    /// Seconds since local midnight, 0...86340 (ignores any DST jump that day).
    var secondsSinceMidnight: Int {
        minutesSinceMidnight * 60
    }

    /// "HH:MM", zero padded ("07:30", "00:05").
    public var description: String {
        String.hourMinute(hour, minute)
    }

    /// Earlier in the day sorts first.
    public static func < (lhs: WallTime, rhs: WallTime) -> Bool {
        lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
    }
}
