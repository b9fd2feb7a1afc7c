import FoundationEssentials

/// A time zone: its offset from UTC at every instant, as a TZif file of the system's tz database (RFC 8536)
/// describes it — the same rules `date`, cron and every C program on the machine use.
///
/// The core never reads a zone file: it is handed zones, or a way to find one by name (`zoneNamed`), by the
/// shell, which reads the tz database, or by the tests. nudge reads TZif itself rather than through Foundation's
/// `TimeZone`, whose named zones come from ICU: opening one cost more than the rest of a household run, and ICU's
/// data was most of the binary. A zone only answers offsets and transitions; turning wall-clock readings into
/// instants (the DST rule) is `WallClock`'s.
public struct Zone: Equatable, Sendable, CustomStringConvertible {
    /// The IANA name (`Europe/Berlin`), or `GMT` / `GMT+0530` for a fixed offset.
    public let identifier: String
    /// UTC seconds where the offset may change, ascending (the file's transitions).
    let transitions: [Int]
    /// The offset east of UTC, in seconds, from `transitions[i]` on.
    let offsets: [Int]
    /// The offset before the first transition (and always, without transitions or rule).
    let initialOffset: Int
    /// The rule after the last transition (the file's footer), when it has daylight time.
    let rule: PosixTimeZone?

    init(identifier: String, transitions: [Int], offsets: [Int], initialOffset: Int, rule: PosixTimeZone?) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// A zone that is always `seconds` east of UTC (within ±18 hours), named `GMT` or `GMT+0100` as Foundation
    /// names such zones, so names written by earlier versions still read back.
    init?(secondsFromGMT seconds: Int) {
        self.init(identifier: Self.offsetName(seconds), secondsFromGMT: seconds)
    }

    /// A zone named `identifier` that is always `seconds` east of UTC (within ±18 hours): UTC under its other
    /// names on a machine without a tz database.
    public init?(identifier: String, secondsFromGMT seconds: Int) {
        guard abs(seconds) <= 18 * 3_600 else { return nil }
        self.init(identifier: identifier, transitions: [], offsets: [], initialOffset: seconds, rule: nil)
    }

    /// The zone a fixed-offset name this type gives (`GMT`, `GMT+0100`) stands for; nil for any other name.
    public init?(offsetName name: String) {
        guard let seconds = Self.offset(ofName: name) else { return nil }
        self.init(secondsFromGMT: seconds)
    }

    /// UTC.
    public static let utc = Zone(identifier: "UTC", transitions: [], offsets: [], initialOffset: 0, rule: nil)

    public var description: String { identifier }

    /// True when the offset has never changed and never will (Tokyo's has: it had daylight time until 1951).
    var isFixed: Bool {
        rule == nil && offsets.allSatisfy { $0 == initialOffset }
    }

    /// The offset east of UTC, in seconds, at `instant`.
    func secondsFromGMT(for instant: Date) -> Int {
        secondsFromGMT(atUTC: Int(instant.timeIntervalSince1970.rounded(.down)))
    }

    /// The offset east of UTC, in seconds, at the UTC second `utc`.
    func secondsFromGMT(atUTC utc: Int) -> Int {
        guard let first = transitions.first, utc >= first else {
            return transitions.isEmpty ? rule?.offset(atUTC: utc) ?? initialOffset : initialOffset
        }
        if let rule, utc > transitions[transitions.count - 1] {
            return rule.offset(atUTC: utc)
        }
        return offsets[transitions.partitioningIndex { $0 > utc } - 1]
    }

    /// The first UTC second after `utc` where the offset changes, or nil when it never changes again.
    func nextTransition(afterUTC utc: Int) -> Int? {
        var before = secondsFromGMT(atUTC: utc)
        var index = transitions.partitioningIndex { $0 > utc }
        while index < transitions.count {
            if offsets[index] != before { return transitions[index] }
            before = offsets[index]
            index += 1
        }
        guard let rule, rule.daylight != nil else { return nil }
        let from = max(utc, transitions.last ?? utc)
        let firstYear = LocalDateTime(secondsSinceEpoch: from).date.year - 1
        for year in firstYear...(firstYear + 3) {
            for change in rule.changes(inYear: year) where change.at > from {
                if change.offset != before { return change.at }
            }
        }
        return nil
    }

    /// `GMT`, `GMT+0100`, `GMT-0330`, `GMT+053015` (seconds only when there are some).
    static func offsetName(_ seconds: Int) -> String {
        guard seconds != 0 else { return "GMT" }
        let magnitude = abs(seconds)
        var name = "GMT" + (seconds < 0 ? "-" : "+") + LocalDate.zeroPadded(magnitude / 3_600, width: 2)
            + LocalDate.zeroPadded(magnitude % 3_600 / 60, width: 2)
        if magnitude % 60 != 0 { name += LocalDate.zeroPadded(magnitude % 60, width: 2) }
        return name
    }

    /// The offset a `GMT+0100`-style name stands for (also `GMT`), nil for any other name.
    static func offset(ofName name: String) -> Int? {
        if name == "GMT" { return 0 }
        let bytes = Array(name.utf8)
        guard bytes.count == 8 || bytes.count == 10, bytes.starts(with: Array("GMT".utf8)),
              bytes[3] == UInt8(ascii: "+") || bytes[3] == UInt8(ascii: "-"),
              let hours = LocalDate.digits(bytes, 4, 2), let minutes = LocalDate.digits(bytes, 6, 2), minutes < 60
        else { return nil }
        var seconds = hours * 3_600 + minutes * 60
        if bytes.count == 10 {
            guard let rest = LocalDate.digits(bytes, 8, 2), rest < 60 else { return nil }
            seconds += rest
        }
        return bytes[3] == UInt8(ascii: "-") ? -seconds : seconds
    }
}

extension Array where Element == Int {
    /// The first index whose element satisfies `belongs`, for an array where that holds for a suffix only.
    func partitioningIndex(where belongs: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
