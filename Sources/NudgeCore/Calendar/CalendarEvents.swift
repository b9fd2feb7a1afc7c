import FoundationEssentials

/// The plan's records that must not be missed away from this machine, as events of an iCalendar file (RFC 5545)
/// with an alarm at their start (docs/calendar.md): what `nudge plan --ics` prints.
public struct CalendarEvents: Equatable, Sendable {
    /// The priorities kept by default: what must not be missed.
    public static let defaultPriorities: Set<Priority> = [.critical, .high]
    /// How far ahead of the run's now, by default.
    public static let defaultHoursAhead = 48
    /// The suffix that makes a record's id the event's UID.
    static let uidSuffix = "@nudge"

    /// One event: a planned record, pending or deferred (a deferred one has no body of its own: its title stands in).
    struct Event: Equatable, Sendable {
        let uid: String
        let summary: String
        let description: String
        let start: Date
        let category: String
    }

    let events: [Event]

    /// No events.
    public init() {
        events = []
    }

    /// Exactly these events.
    init(events: [Event]) {
        self.events = events
    }

    /// The records of `plan` whose priority is in `priorities` and whose fireAt is at most `hoursAhead` after
    /// `now`, in the plan's order.
    public init(_ plan: Plan, now: Date, priorities: Set<Priority> = defaultPriorities,
                hoursAhead: Int = defaultHoursAhead) {
        let horizon = now.addingTimeInterval(TimeInterval(hoursAhead) * 3600)
        let pending = plan.pending.filter { priorities.contains($0.priority) && $0.fireAt <= horizon }.map {
            Event(uid: $0.id + Self.uidSuffix, summary: $0.title, description: $0.body, start: $0.fireAt,
                  category: $0.kind.rawValue)
        }
        let deferred = plan.deferred.filter { priorities.contains($0.priority) && $0.fireAt <= horizon }.map {
            Event(uid: $0.id + Self.uidSuffix, summary: $0.title, description: $0.title, start: $0.fireAt,
                  category: $0.kind.rawValue)
        }
        events = (pending + deferred).sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
    }

    /// The iCalendar file: one VCALENDAR with a VEVENT per event, each with one VALARM at its start; CRLF line
    /// ends, lines folded at 75 octets, text escaped. `stamp` is every event's DTSTAMP.
    public func file(stamp: Date, product: String) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + ICalendarText.escaped(product),
                     "CALSCALE:GREGORIAN"]
        for event in events { lines += Self.lines(of: event, stamp: stamp) }
        lines.append("END:VCALENDAR")
        return lines.map { ICalendarText.folded($0) + "\r\n" }.joined()
    }

    /// How events are written: a new number when `lines(of:stamp:)` writes them differently, so that every
    /// event's hash changes and the calendar gets them anew.
    static let layout = 1

    /// A fingerprint of what `event` says (every field but the stamp, and `layout`): a different one is a change to
    /// write. Made from the fields, not the written lines: every run hashes every event it keeps.
    static func hash(of event: Event) -> String {
        var bytes: [UInt8] = []
        for field in [String(layout), event.uid, event.summary, event.description,
                      String(Int(event.start.timeIntervalSince1970)), event.category] {
            bytes += field.utf8
            bytes.append(0)
        }
        return ContentHash.of(bytes)
    }

    /// A VEVENT of one minute with its alarm, unfolded.
    static func lines(of event: Event, stamp: Date) -> [String] {
        [
            "BEGIN:VEVENT",
            "UID:" + ICalendarText.escaped(event.uid),
            "DTSTAMP:" + ICalendarText.utc(stamp),
            "DTSTART:" + ICalendarText.utc(event.start),
            "DURATION:PT1M",
            "SUMMARY:" + ICalendarText.escaped(event.summary),
            "DESCRIPTION:" + ICalendarText.escaped(event.description),
            "CATEGORIES:" + ICalendarText.escaped(event.category),
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            "TRIGGER;RELATED=START:PT0S",
            "DESCRIPTION:" + ICalendarText.escaped(event.summary),
            "END:VALARM",
            "END:VEVENT",
        ]
    }
}

/// RFC 5545's rules for a content line: TEXT escaping (§3.3.11), UTC date-times (§3.3.5) and folding (§3.1).
enum ICalendarText {
    /// Backslash, semicolon and comma escaped, a line break as `\n`.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n", "\r": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// `20261121T104500Z`.
    static func utc(_ instant: Date) -> String {
        String(RFC3339.format(instant).filter { $0 != "-" && $0 != ":" })
    }

    /// The line cut into pieces of at most 75 octets, each after the first starting with a space, never inside
    /// a character's UTF-8 bytes.
    static func folded(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var pieces: [String] = []
        var piece = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            // The first piece holds 75 octets; the others 74 after their leading space.
            if octets + size > (pieces.isEmpty ? 75 : 74) {
                pieces.append(piece)
                piece = ""
                octets = 0
            }
            piece.append(character)
            octets += size
        }
        pieces.append(piece)
        return pieces.joined(separator: "\r\n ")
    }
}
