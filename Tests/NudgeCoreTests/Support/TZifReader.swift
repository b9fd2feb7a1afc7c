import Foundation

// A small, test-only reader of TZif files (RFC 8536, versions 2 and later), used as a source of UT
// offsets that is independent of Foundation's TimeZone: on Linux Foundation takes its zone rules from
// the ICU data bundled with the toolchain, while these files come from the system's tzdata package.
//
// What it reads: the 64-bit (version 2+) data block — transition times, the local time type of each
// transition (UT offset, isdst, designation) — and the footer, a POSIX TZ string that describes every
// instant after the last transition. The footer is parsed fully, with RFC 8536's extensions: quoted
// designations ("<+1030>"), "Jn" and "n" day forms besides "Mm.w.d", and rule times that are negative
// or beyond 24 hours ("M3.4.4/50", "M3.5.0/-1"). Leap-second records are not supported (the `right/`
// tree has them; the tests skip it) and version 1 files are rejected.
//
// Everything is plain integer arithmetic on UTC seconds since 1970; no Foundation calendar or zone API.

/// A reason a file could not be read as TZif v2+.
struct TZifError: Error, CustomStringConvertible {
    let description: String
}

/// One local time type: what a clock shows relative to UT, and what it is called.
struct TZifLocalTimeType: Hashable, CustomStringConvertible {
    /// Seconds east of UT (Berlin in winter: 3600).
    let utOffset: Int
    let isDST: Bool
    let abbreviation: String

    var description: String {
        "\(abbreviation) \(TZifCivil.offsetText(utOffset))\(isDST ? " dst" : "")"
    }
}

/// A change of local time type at `at` (UTC seconds): the first second that uses `after`.
struct TZifTransition: Hashable, CustomStringConvertible {
    let at: Int
    let before: TZifLocalTimeType
    let after: TZifLocalTimeType

    var description: String {
        "\(TZifCivil.utcText(at)) \(before) -> \(after)"
    }
}

/// A parsed TZif file.
struct TZifFile {
    /// 2, 3 or 4.
    let version: Int
    /// Transition times from the 64-bit block, ascending.
    let transitionTimes: [Int]
    /// For each transition, an index into `types`.
    let transitionTypeIndices: [Int]
    let types: [TZifLocalTimeType]
    /// The footer text between the two newlines ("" if the file has none).
    let footer: String
    /// The parsed footer, nil when it is empty.
    let footerRule: TZifPosixRule?

    /// True if `data` starts with the TZif magic.
    static func hasMagic(_ data: Data) -> Bool {
        data.count >= 5 && data.prefix(4).elementsEqual("TZif".utf8)
    }

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TZifError(description: "\(path): cannot read")
        }
        try self.init(data: data)
    }

    init(data: Data) throws {
        let bytes = [UInt8](data)
        var cursor = 0

        func need(_ count: Int, _ what: String) throws {
            guard count >= 0, cursor + count <= bytes.count else {
                throw TZifError(description: "truncated TZif data reading \(what)")
            }
        }
        func readInt(_ width: Int, _ what: String) throws -> Int {
            try need(width, what)
            var value: UInt64 = 0
            for index in cursor..<(cursor + width) {
                value = value << 8 | UInt64(bytes[index])
            }
            cursor += width
            // Two's complement of the given width.
            let shift = UInt64(64 - width * 8)
            return Int(Int64(bitPattern: value << shift) >> Int64(shift))
        }
        func readHeader() throws -> (version: Int, counts: [Int]) {
            try need(44, "header")
            guard bytes[cursor..<(cursor + 4)].elementsEqual("TZif".utf8) else {
                throw TZifError(description: "no TZif magic")
            }
            let versionByte = bytes[cursor + 4]
            let version: Int
            switch versionByte {
            case 0: version = 1
            case UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4"): version = Int(versionByte - UInt8(ascii: "0"))
            default: throw TZifError(description: "unknown TZif version byte \(versionByte)")
            }
            cursor += 20
            // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
            var counts = [Int]()
            for _ in 0..<6 {
                let count = try readInt(4, "header counts")
                guard count >= 0 else { throw TZifError(description: "negative count in header") }
                counts.append(count)
            }
            return (version, counts)
        }

        // Version 1 header and data block: skipped (32-bit times only).
        let first = try readHeader()
        guard first.version >= 2 else {
            throw TZifError(description: "TZif version 1 file (no 64-bit data)")
        }
        let (isut1, isstd1, leap1, time1, type1, char1) =
            (first.counts[0], first.counts[1], first.counts[2], first.counts[3], first.counts[4], first.counts[5])
        let v1Size = time1 * 4 + time1 + type1 * 6 + char1 + leap1 * 8 + isstd1 + isut1
        try need(v1Size, "version 1 data block")
        cursor += v1Size

        // Version 2+ header and 64-bit data block.
        let second = try readHeader()
        let (isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt) =
            (second.counts[0], second.counts[1], second.counts[2], second.counts[3], second.counts[4], second.counts[5])
        guard typecnt >= 1 else { throw TZifError(description: "no local time types") }
        guard leapcnt == 0 else {
            throw TZifError(description: "leap-second records (\(leapcnt)) are not supported")
        }
        var times = [Int]()
        times.reserveCapacity(timecnt)
        for _ in 0..<timecnt {
            times.append(try readInt(8, "transition times"))
        }
        for index in times.indices.dropFirst() where times[index] <= times[index - 1] {
            throw TZifError(description: "transition times not ascending at index \(index)")
        }
        var typeIndices = [Int]()
        for _ in 0..<timecnt {
            let index = try readInt(1, "transition types") & 0xFF
            guard index < typecnt else { throw TZifError(description: "transition type \(index) out of range") }
            typeIndices.append(index)
        }
        var rawTypes = [(offset: Int, isDST: Bool, abbreviationIndex: Int)]()
        for _ in 0..<typecnt {
            let offset = try readInt(4, "local time type offset")
            let isDST = try readInt(1, "isdst") & 0xFF
            let abbreviationIndex = try readInt(1, "designation index") & 0xFF
            guard isDST <= 1 else { throw TZifError(description: "isdst byte \(isDST)") }
            rawTypes.append((offset, isDST == 1, abbreviationIndex))
        }
        try need(charcnt, "designations")
        let designations = Array(bytes[cursor..<(cursor + charcnt)])
        cursor += charcnt
        try need(isstdcnt + isutcnt, "standard/wall and UT/local indicators")
        cursor += isstdcnt + isutcnt

        var types = [TZifLocalTimeType]()
        for raw in rawTypes {
            guard raw.abbreviationIndex < max(charcnt, 1) else {
                throw TZifError(description: "designation index \(raw.abbreviationIndex) out of range")
            }
            var end = raw.abbreviationIndex
            while end < designations.count, designations[end] != 0 { end += 1 }
            let name = String(decoding: designations[min(raw.abbreviationIndex, designations.count)..<end], as: UTF8.self)
            types.append(TZifLocalTimeType(utOffset: raw.offset, isDST: raw.isDST, abbreviation: name))
        }

        // Footer: "\n" TZ-string "\n".
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\n") else {
            throw TZifError(description: "missing footer")
        }
        cursor += 1
        guard let close = bytes[cursor...].firstIndex(of: UInt8(ascii: "\n")) else {
            throw TZifError(description: "unterminated footer")
        }
        let footer = String(decoding: bytes[cursor..<close], as: UTF8.self)

        self.version = second.version
        self.transitionTimes = times
        self.transitionTypeIndices = typeIndices
        self.types = types
        self.footer = footer
        self.footerRule = footer.isEmpty ? nil : try TZifPosixRule(parsing: footer)
    }

    /// The local time type in effect at UTC second `utc` (RFC 8536 §3.2: type 0 before the first
    /// transition, the footer after the last one).
    func localTimeType(atUTC utc: Int) -> TZifLocalTimeType {
        guard let firstTime = transitionTimes.first else {
            return footerRule?.localTimeType(atUTC: utc) ?? types[0]
        }
        if utc < firstTime {
            return types[0]
        }
        if utc >= transitionTimes[transitionTimes.count - 1], let footerRule {
            // At the last transition itself the file's type and the footer agree in a valid file;
            // strictly after it only the footer speaks.
            if utc > transitionTimes[transitionTimes.count - 1] {
                return footerRule.localTimeType(atUTC: utc)
            }
        }
        // Last transition at or before utc.
        var low = 0, high = transitionTimes.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitionTimes[middle] <= utc { low = middle } else { high = middle - 1 }
        }
        return types[transitionTypeIndices[low]]
    }

    /// UT offset in seconds east at UTC second `utc`.
    func utOffset(atUTC utc: Int) -> Int {
        localTimeType(atUTC: utc).utOffset
    }

    /// Every change of local time type (offset, isdst or designation) at an instant in `[from, to)`,
    /// in order: those the file lists and those its footer implies after the last listed one.
    func transitions(from: Int, to: Int) -> [TZifTransition] {
        var candidates = transitionTimes.filter { $0 >= from && $0 < to }
        if let footerRule {
            let last = transitionTimes.last ?? Int.min
            let firstYear = TZifCivil.year(ofUTC: max(from, last == Int.min ? from : last)) - 1
            let lastYear = TZifCivil.year(ofUTC: to) + 1
            if firstYear <= lastYear {
                for year in firstYear...lastYear {
                    for event in footerRule.events(inYear: year) where event.at > last && event.at >= from && event.at < to {
                        candidates.append(event.at)
                    }
                }
            }
        }
        var result = [TZifTransition]()
        for time in Set(candidates).sorted() {
            let before = localTimeType(atUTC: time - 1), after = localTimeType(atUTC: time)
            if before != after {
                result.append(TZifTransition(at: time, before: before, after: after))
            }
        }
        return result
    }
}

/// A POSIX TZ string as used in TZif footers (RFC 8536 §3.3), e.g. "CET-1CEST,M3.5.0,M10.5.0/3".
struct TZifPosixRule: Equatable, CustomStringConvertible {
    /// A day of the year in one of the three POSIX forms.
    enum Day: Equatable {
        /// "Jn": 1...365, February 29 is never counted (J60 is always March 1).
        case julianNoLeap(Int)
        /// "n": 0...365, February 29 counted in leap years.
        case zeroBased(Int)
        /// "Mm.w.d": weekday d (0 = Sunday) of week w (1...5, 5 = last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// A switch: a day, and a local time on it (seconds, may be negative or beyond 24 h).
    struct Switch: Equatable {
        let day: Day
        let time: Int
    }

    struct Daylight: Equatable {
        let type: TZifLocalTimeType
        /// Start of daylight time, given in standard local time.
        let start: Switch
        /// End of daylight time, given in daylight local time.
        let end: Switch
    }

    let text: String
    let standard: TZifLocalTimeType
    let daylight: Daylight?

    var description: String { text }

    init(parsing text: String) throws {
        self.text = text
        var scanner = TZifScanner(text)
        func fail(_ why: String) -> TZifError {
            TZifError(description: "TZ string \"\(text)\": \(why) at offset \(scanner.index)")
        }
        guard let standardName = scanner.designation() else { throw fail("no standard designation") }
        // POSIX offsets are west of Greenwich ("CET-1" is one hour east); keep east-positive.
        guard let standardPosix = scanner.hms(maxHours: 24) else { throw fail("no standard offset") }
        standard = TZifLocalTimeType(utOffset: -standardPosix, isDST: false, abbreviation: standardName)
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard let daylightName = scanner.designation() else { throw fail("bad daylight designation") }
        var daylightOffset = standard.utOffset + 3_600
        if !scanner.atEnd, scanner.peek != UInt8(ascii: ",") {
            guard let posix = scanner.hms(maxHours: 24) else { throw fail("bad daylight offset") }
            daylightOffset = -posix
        }
        guard scanner.consume(UInt8(ascii: ",")) else {
            // POSIX leaves a missing rule implementation-defined; RFC 8536 footers always have one.
            throw fail("daylight time without a rule")
        }
        guard let start = TZifPosixRule.parseSwitch(&scanner) else { throw fail("bad start rule") }
        guard scanner.consume(UInt8(ascii: ",")) else { throw fail("missing end rule") }
        guard let end = TZifPosixRule.parseSwitch(&scanner) else { throw fail("bad end rule") }
        guard scanner.atEnd else { throw fail("trailing text") }
        daylight = Daylight(type: TZifLocalTimeType(utOffset: daylightOffset, isDST: true, abbreviation: daylightName),
                            start: start, end: end)
    }

    private static func parseSwitch(_ scanner: inout TZifScanner) -> Switch? {
        let day: Day
        if scanner.consume(UInt8(ascii: "J")) {
            guard let n = scanner.number(maxDigits: 3), (1...365).contains(n) else { return nil }
            day = .julianNoLeap(n)
        } else if scanner.consume(UInt8(ascii: "M")) {
            guard let month = scanner.number(maxDigits: 2), (1...12).contains(month),
                  scanner.consume(UInt8(ascii: ".")),
                  let week = scanner.number(maxDigits: 1), (1...5).contains(week),
                  scanner.consume(UInt8(ascii: ".")),
                  let weekday = scanner.number(maxDigits: 1), (0...6).contains(weekday)
            else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let n = scanner.number(maxDigits: 3), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7_200    // default 02:00:00
        if scanner.consume(UInt8(ascii: "/")) {
            // RFC 8536 §3.3.1: hours may range from -167 to 167.
            guard let parsed = scanner.hms(maxHours: 167) else { return nil }
            time = parsed
        }
        return Switch(day: day, time: time)
    }

    /// Days since 1970-01-01 of the rule's day in `year`.
    static func dayNumber(_ day: Day, year: Int) -> Int {
        let january1 = TZifCivil.daysFromCivil(year: year, month: 1, day: 1)
        switch day {
        case .julianNoLeap(let n):
            // Day n of a 365-day year; in leap years days from March 1 on are one later.
            return january1 + n - 1 + (TZifCivil.isLeap(year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return january1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = TZifCivil.daysFromCivil(year: year, month: month, day: 1)
            let firstWeekday = TZifCivil.weekday(ofDay: first)          // 0 = Sunday
            var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = TZifCivil.daysInMonth(year: year, month: month)
            while dayOfMonth > length { dayOfMonth -= 7 }                   // week 5 = the last one
            return first + dayOfMonth - 1
        }
    }

    /// The two switches of `year` as UTC instants, each with the type that starts there, ordered by time
    /// (on a tie the start of daylight time comes last, so "0/0,J365/25" is daylight time all year).
    func events(inYear year: Int) -> [(at: Int, type: TZifLocalTimeType)] {
        guard let daylight else { return [] }
        let start = TZifPosixRule.dayNumber(daylight.start.day, year: year) * 86_400 + daylight.start.time - standard.utOffset
        let end = TZifPosixRule.dayNumber(daylight.end.day, year: year) * 86_400 + daylight.end.time - daylight.type.utOffset
        let both = [(at: end, type: standard, order: 0), (at: start, type: daylight.type, order: 1)]
        return both.sorted { ($0.at, $0.order) < ($1.at, $1.order) }.map { (at: $0.at, type: $0.type) }
    }

    /// The type in effect at UTC second `utc`: the latest switch at or before it, looking at the
    /// neighbouring years too (rule times can move a switch into another calendar year).
    func localTimeType(atUTC utc: Int) -> TZifLocalTimeType {
        guard daylight != nil else { return standard }
        let year = TZifCivil.year(ofUTC: utc)
        var best: (at: Int, type: TZifLocalTimeType)?
        for candidateYear in (year - 1)...(year + 1) {
            for event in events(inYear: candidateYear) where event.at <= utc {
                if best == nil || event.at >= best!.at { best = event }
            }
        }
        return best?.type ?? standard
    }
}

/// Byte scanner for TZ strings.
struct TZifScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// "<...>" (letters, digits, '+', '-'; at least 3) or at least three ASCII letters.
    mutating func designation() -> String? {
        let start = index
        if consume(UInt8(ascii: "<")) {
            let inner = index
            while let byte = peek, byte != UInt8(ascii: ">") {
                guard TZifScanner.isAlnum(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else {
                    index = start
                    return nil
                }
                index += 1
            }
            guard index - inner >= 3, consume(UInt8(ascii: ">")) else {
                index = start
                return nil
            }
            return String(decoding: bytes[inner..<(index - 1)], as: UTF8.self)
        }
        while let byte = peek, TZifScanner.isAlpha(byte) { index += 1 }
        guard index - start >= 3 else {
            index = start
            return nil
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Up to `maxDigits` decimal digits (at least one).
    mutating func number(maxDigits: Int) -> Int? {
        var value = 0, count = 0
        while count < maxDigits, let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            index += 1
            count += 1
        }
        return count > 0 ? value : nil
    }

    /// [+|-]hh[:mm[:ss]] in seconds, signed.
    mutating func hms(maxHours: Int) -> Int? {
        var sign = 1
        if consume(UInt8(ascii: "-")) { sign = -1 } else { _ = consume(UInt8(ascii: "+")) }
        guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
        var seconds = hours * 3_600
        if consume(UInt8(ascii: ":")) {
            guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if consume(UInt8(ascii: ":")) {
                guard let secs = number(maxDigits: 2), secs < 60 else { return nil }
                seconds += secs
            }
        }
        return sign * seconds
    }

    static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    static func isAlnum(_ byte: UInt8) -> Bool {
        isAlpha(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}

/// Integer civil-calendar helpers for the reader and the tests that use it. Deliberately a separate
/// copy of Hinnant's algorithms rather than NudgeCore's `LocalDate`, so that the expected values do
/// not depend on the code under test.
enum TZifCivil {
    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 = Sunday (1970-01-01 was a Thursday).
    static func weekday(ofDay days: Int) -> Int {
        ((days + 4) % 7 + 7) % 7
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    static func year(ofUTC utc: Int) -> Int {
        civil(fromDays: floorDiv(utc, 86_400)).year
    }

    /// "2026-03-29" for a day number.
    static func dateText(ofDay days: Int) -> String {
        let c = civil(fromDays: days)
        return String(format: "%04d-%02d-%02d", c.year, c.month, c.day)
    }

    /// "2026-03-29T01:00:00" for seconds since 1970 read as UTC (no suffix).
    static func readingText(_ seconds: Int) -> String {
        let days = floorDiv(seconds, 86_400), rest = seconds - days * 86_400
        return dateText(ofDay: days) + String(format: "T%02d:%02d:%02d", rest / 3_600, rest % 3_600 / 60, rest % 60)
    }

    /// "2026-03-29T01:00:00Z".
    static func utcText(_ utc: Int) -> String {
        readingText(utc) + "Z"
    }

    /// "+01:00", "-02:30", "+05:45", "+00:00" (seconds shown only if nonzero).
    static func offsetText(_ offset: Int) -> String {
        let sign = offset < 0 ? "-" : "+", magnitude = abs(offset)
        var text = sign + String(format: "%02d:%02d", magnitude / 3_600, magnitude % 3_600 / 60)
        if magnitude % 60 != 0 { text += String(format: ":%02d", magnitude % 60) }
        return text
    }
}
