import FoundationEssentials

/// A POSIX TZ string, what `TZ` may hold instead of an IANA name (docs/promises.md): `JST-9`, `UTC0`,
/// `<+0530>-5:30`, `CET-1CEST,M3.5.0,M10.5.0/3`. It is read, never evaluated: a string without daylight time is
/// a fixed offset, which `Zone(secondsFromGMT:)` holds exactly; one with daylight time `Zone` cannot
/// hold, so the caller picks a zone instead and says so. Offsets here are east of UTC, the way `Zone`
/// counts; POSIX writes them west (`JST-9` is nine hours ahead).
public struct PosixTimeZone: Equatable, Sendable {
    /// A day of the year in one of the three POSIX forms.
    enum Day: Equatable, Sendable {
        /// `Jn`: 1…365, February 29 never counted.
        case julianNoLeap(Int)
        /// `n`: 0…365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday d (0 = Sunday) of week w (1…5, 5 = the last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// A switch between standard and daylight time: a day, and a local time on it in seconds (02:00 when the
    /// string gives none; RFC 8536 allows −167 to 167 hours).
    struct Switch: Equatable, Sendable {
        var day: Day
        var time: Int
    }

    /// The daylight-time part. `start` and `end` are nil when the string has no rule, which POSIX leaves to
    /// the implementation.
    struct Daylight: Equatable, Sendable {
        var name: String
        /// Seconds east of UTC; an hour more than standard time when the string gives none.
        var offset: Int
        var start: Switch?
        var end: Switch?
    }

    var standardName: String
    /// Seconds east of UTC.
    var standardOffset: Int
    var daylight: Daylight?

    /// The zone this string names exactly: a fixed offset (within ±18 hours).
    public var fixedZone: Zone? {
        daylight == nil ? Zone(secondsFromGMT: standardOffset) : nil
    }

    /// True when both strings make the same clock: the same offsets and the same switches. Names (the
    /// abbreviations `date` shows) are ignored; nudge never shows them.
    public func keepsTheSameTime(as other: PosixTimeZone) -> Bool {
        guard standardOffset == other.standardOffset else { return false }
        guard let daylight, let theirs = other.daylight else { return self.daylight == nil && other.daylight == nil }
        return daylight.offset == theirs.offset && daylight.start != nil && daylight.start == theirs.start
            && daylight.end == theirs.end
    }

    /// The TZ string `text`, or nil when it is not one.
    public static func parse(_ text: String) -> PosixTimeZone? {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard let standardName = scanner.name(), let standardWest = scanner.offset(maxHours: 24) else { return nil }
        var zone = PosixTimeZone(standardName: standardName, standardOffset: -standardWest, daylight: nil)
        if scanner.atEnd { return zone }
        guard let daylightName = scanner.name() else { return nil }
        var daylight = Daylight(name: daylightName, offset: zone.standardOffset + 3_600, start: nil, end: nil)
        if !scanner.atEnd, !scanner.peek(",") {
            guard let west = scanner.offset(maxHours: 24) else { return nil }
            daylight.offset = -west
        }
        if scanner.consume(",") {
            guard let start = scanner.switchRule(), scanner.consume(","), let end = scanner.switchRule() else {
                return nil
            }
            daylight.start = start
            daylight.end = end
        }
        guard scanner.atEnd else { return nil }
        zone.daylight = daylight
        return zone
    }

    /// The TZ string at the end of a TZif file of version 2 or later (RFC 8536 §3.3): the rule that holds after
    /// its last listed transition. Nil for anything else.
    public static func footer(ofTZif bytes: [UInt8]) -> String? {
        guard bytes.count > 6, bytes.starts(with: Array("TZif".utf8)), bytes[4] >= UInt8(ascii: "2"),
              bytes.last == UInt8(ascii: "\n"),
              let start = bytes.dropLast().lastIndex(of: UInt8(ascii: "\n")) else { return nil }
        let footer = bytes[(start + 1)..<(bytes.count - 1)]
        return footer.isEmpty ? nil : String(decoding: footer, as: UTF8.self)
    }

    /// Reads a TZ string byte by byte.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }

        func peek(_ character: Unicode.Scalar) -> Bool {
            index < bytes.count && bytes[index] == UInt8(ascii: character)
        }

        mutating func consume(_ character: Unicode.Scalar) -> Bool {
            guard peek(character) else { return false }
            index += 1
            return true
        }

        /// Three or more letters, or `<` three or more letters, digits, `+` or `-` `>`.
        mutating func name() -> String? {
            let start = index
            if consume("<") {
                while index < bytes.count, isLetter(bytes[index]) || isDigit(bytes[index])
                        || bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard index - start - 1 >= 3, consume(">") else { return nil }
                return String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self)
            }
            while index < bytes.count, isLetter(bytes[index]) { index += 1 }
            guard index - start >= 3 else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// `[+|-]hh[:mm[:ss]]` in seconds, as written (west of UTC for an offset).
        mutating func offset(maxHours: Int) -> Int? {
            let sign = consume("-") ? -1 : 1
            if sign == 1 { _ = consume("+") }
            guard let hours = number(maxDigits: maxHours > 99 ? 3 : 2), hours <= maxHours else { return nil }
            var seconds = hours * 3_600
            if consume(":") {
                guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
                seconds += minutes * 60
                if consume(":") {
                    guard let rest = number(maxDigits: 2), rest < 60 else { return nil }
                    seconds += rest
                }
            }
            return sign * seconds
        }

        /// `Jn`, `n` or `Mm.w.d`, then optionally `/time`.
        mutating func switchRule() -> Switch? {
            let day: Day
            if consume("J") {
                guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
                day = .julianNoLeap(n)
            } else if consume("M") {
                guard let month = number(maxDigits: 2), (1...12).contains(month), consume("."),
                      let week = number(maxDigits: 1), (1...5).contains(week), consume("."),
                      let weekday = number(maxDigits: 1), (0...6).contains(weekday) else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else {
                guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time = 7_200
            if consume("/") {
                guard let given = offset(maxHours: 167) else { return nil }
                time = given
            }
            return Switch(day: day, time: time)
        }

        /// One to `maxDigits` decimal digits.
        mutating func number(maxDigits: Int) -> Int? {
            var value = 0
            let start = index
            while index < bytes.count, index - start < maxDigits, isDigit(bytes[index]) {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index > start ? value : nil
        }

        private func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
