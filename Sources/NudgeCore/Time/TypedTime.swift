import FoundationEssentials

/// A time as a person types it on the command line (`--now`, `--at`, `--departed`): a time of day (`19:30`,
/// `07:05:09`), a local date and time (`2026-11-25T08:00`, seconds optional, `T` or a space), or an instant with
/// its offset or `Z` (`2026-11-25T08:00+03:00`, `…:00Z`, seconds optional). The first two are read on the wall
/// clock of the data directory's zone, with `WallClock`'s rule for the hour that is skipped or repeated.
public enum TypedTime: Equatable, Sendable {
    /// With an offset: the instant it names, in whatever zone it is read.
    case instant(Date)
    /// A local date and time.
    case local(LocalDateTime)
    /// A time of day, in seconds since midnight: on today's local date.
    case today(secondsSinceMidnight: Int)

    /// What the help and the errors show a person.
    public static let examples = "19:30 (today), 2026-11-25T08:00 or 2026-11-25T08:00:00Z"

    /// Nil for anything else (`7:30`, `24:00`, `2026-11-25T08`, `2026-02-30T08:00`, an offset `+3`).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        if bytes.count == 5 || bytes.count == 8 {
            guard let seconds = Self.timeOfDay(bytes) else { return nil }
            self = .today(secondsSinceMidnight: seconds)
            return
        }
        // The date and the minute, `YYYY-MM-DDTHH:MM`; the seconds may follow, else `:00` stands for them.
        guard bytes.count >= 16 else { return nil }
        var full = Array(bytes[..<16])
        var rest = bytes[16...]
        if rest.first == UInt8(ascii: ":") {
            full += rest.prefix(3)
            rest = rest.dropFirst(3)
            while let byte = rest.first, byte == UInt8(ascii: ".") || (byte >= 0x30 && byte <= 0x39) {
                full.append(byte)
                rest = rest.dropFirst()
            }
        } else {
            full += Array(":00".utf8)
        }
        guard !rest.isEmpty else {
            // No offset: read as if it were UTC, which gives the local reading's seconds.
            guard let reading = RFC3339.parse(String(decoding: full + [UInt8(ascii: "Z")], as: UTF8.self)) else {
                return nil
            }
            self = .local(LocalDateTime(secondsSinceEpoch: LocalDateTime.floorSeconds(of: reading)))
            return
        }
        guard let instant = RFC3339.parse(String(decoding: full + rest, as: UTF8.self)) else { return nil }
        self = .instant(instant)
    }

    /// Whether the zone is needed to read it.
    public var isLocal: Bool {
        if case .instant = self { return false }
        return true
    }

    /// The instant it names on `clock`'s wall clock; "today" is the local date at `now`.
    public func instant(now: Date, clock: WallClock) -> Date {
        switch self {
        case .instant(let instant):
            return instant
        case .local(let reading):
            return clock.instant(of: reading)
        case .today(let seconds):
            let today = clock.localDate(of: now)
            return clock.instant(of: LocalDateTime(secondsSinceEpoch: today.daysSinceEpoch * 86_400 + seconds))
        }
    }

    /// `HH:MM` or `HH:MM:SS` as seconds since midnight, 00:00:00 to 23:59:59.
    private static func timeOfDay(_ bytes: [UInt8]) -> Int? {
        guard bytes[2] == UInt8(ascii: ":"), bytes.count == 5 || bytes[5] == UInt8(ascii: ":"),
              let hour = LocalDate.digits(bytes, 0, 2), let minute = LocalDate.digits(bytes, 3, 2),
              hour < 24, minute < 60 else { return nil }
        let second = bytes.count == 8 ? LocalDate.digits(bytes, 6, 2) : 0
        guard let second, second < 60 else { return nil }
        return hour * 3_600 + minute * 60 + second
    }
}
