import FoundationEssentials

/// The one place that turns local wall-clock times into instants and back, in one zone.
///
/// Daily alarms and messages follow local time in the user's zone, so every
/// occurrence has to be mapped from "this wall-clock reading on this local
/// date" to an instant. Twice a year in most zones that mapping is not a
/// bijection, and this type owns the rule for it (nothing else in NudgeCore
/// may re-implement it):
///
/// * **Gap** (spring forward, e.g. 02:00→03:00 in Europe/Berlin): the
///   requested reading never appears on the clock. The occurrence fires at
///   the first instant after the gap, i.e. the transition instant, whose local
///   reading is the gap's end (02:30 → 03:00). *Why:* skipping would silently
///   drop a daily occurrence, and firing before the gap would fire earlier
///   than the user asked; the transition is the earliest moment that is not
///   before the requested time.
/// * **Fold** (fall back, e.g. 03:00→02:00): the reading appears twice. The
///   occurrence fires once, at the first of the two. *Why:* firing twice would
///   duplicate a daily notification, and the first one is when the clock
///   first shows the requested time, which is what the user sees.
///
/// Together these guarantee that no daily occurrence is skipped and none
/// fires twice for one local date.
///
/// Performance: the planner calls this for every alarm on every run, so it
/// uses integer civil-date arithmetic (`LocalDate`, `LocalDateTime`) and asks
/// the zone only its offset at an instant — no `Calendar`, `DateComponents` or
/// `DateFormatter`. A normal (unambiguous) conversion costs six zone lookups, which a clock made with
/// `init(zone:reading:)` answers from an `OffsetTable` for the span it was given.
public struct WallClock: Sendable {
    let zone: Zone
    private let table: OffsetTable?

    public init(zone: Zone) {
        self.zone = zone
        table = nil
    }

    /// A clock that reads the zone's offsets for `span` once, for callers that convert many times (the
    /// planner). Same answers as `init(zone:)` everywhere; instants outside `span` ask the zone.
    init(zone: Zone, reading span: Range<Date>) {
        self.zone = zone
        table = OffsetTable(zone: zone, from: Int(span.lowerBound.timeIntervalSince1970.rounded(.down)),
                            to: Int(span.upperBound.timeIntervalSince1970.rounded(.up)))
    }

    /// The local date and time shown at `instant`, seconds rounded toward the past.
    func localDateTime(of instant: Date) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: localSeconds(of: instant))
    }

    /// The local reading at `instant` as seconds since 1970-01-01 00:00 local, rounded toward the past: the
    /// day number and time of day without the calendar date, for callers that compare many instants.
    func localSeconds(of instant: Date) -> Int {
        let utc = LocalDateTime.floorSeconds(of: instant)
        return utc + offset(atUTC: utc)
    }

    /// The local date at `instant`.
    public func localDate(of instant: Date) -> LocalDate {
        localDateTime(of: instant).date
    }

    /// The instant a daily wall-clock time happens on a local date.
    /// Existing once: that instant. Ambiguous (fold): the first of the two.
    /// Nonexistent (gap): the first instant after the gap (the transition
    /// instant, whose local time is the gap's end, e.g. 03:00 in
    /// Europe/Berlin, 02:30 on Lord Howe's 30-min shift).
    ///
    /// The result's local date is `date`, except when the gap runs past the
    /// end of `date`: when the whole date does not exist in the zone (e.g.
    /// Pacific/Apia skipped 2011-12-30), or when the gap covers the end of the
    /// day (America/Nuuk skips 23:00–24:00 on the last Saturday of March, so
    /// 23:30 that day fires at 00:00 of the Sunday). Then it is the first
    /// instant of the next existing date — still the first instant not before
    /// the requested time, and still exactly one occurrence per `date`.
    func instant(on date: LocalDate, at time: WallTime) -> Date {
        instant(of: LocalDateTime(date: date, time: time))
    }

    /// The instant a wall-clock time happens on a local date, never before `earliest`: in a fold whose first
    /// pass is before `earliest`, the second (docs/design.md, "What a run plans": quiet hours that contain an instant
    /// in the repeated hour end at the end that follows it). Otherwise exactly `instant(on:at:)`.
    func instant(on date: LocalDate, at time: WallTime, notBefore earliest: Date) -> Date {
        let local = LocalDateTime(date: date, time: time).secondsSinceEpoch
        let bound = Int(earliest.timeIntervalSince1970.rounded(.up))
        return Date(timeIntervalSince1970: Double(utcSeconds(forLocal: local, notBefore: bound)))
    }

    /// Same with seconds precision for a LocalDateTime (same gap/fold rule).
    func instant(of local: LocalDateTime) -> Date {
        Date(timeIntervalSince1970: Double(utcSeconds(forLocal: local.secondsSinceEpoch)))
    }

    /// First instant of a local date (midnight, or the first instant after a
    /// midnight gap, e.g. 01:00 in America/Santiago on the September switch).
    func startOfDay(_ date: LocalDate) -> Date {
        instant(of: LocalDateTime(date: date, time: .midnight))
    }

    /// First instant of the next local date (so a day is `startOfDay..<endOfDay`,
    /// 23 or 25 hours long on DST days).
    func endOfDay(_ date: LocalDate) -> Date {
        startOfDay(date.adding(days: 1))
    }

    // MARK: - The mapping

    /// The zone's offset east of UTC, in seconds, at the UTC second `utc`.
    private func offset(atUTC utc: Int) -> Int {
        table?.offset(atUTC: utc) ?? zone.secondsFromGMT(atUTC: utc)
    }

    /// The local reading (as local seconds since the epoch) at the UTC second `utc`.
    private func localSeconds(atUTC utc: Int) -> Int {
        utc + offset(atUTC: utc)
    }

    /// UTC seconds for the local reading `local` (local seconds since the
    /// epoch), applying the gap/fold rule described on the type.
    ///
    /// Every instant showing `local` is `local - o` for an offset `o` the zone
    /// uses within a day of it, and `local - o` is a real occurrence iff the
    /// zone's offset at that instant is `o`. So: sample the offsets around
    /// `local`, keep the valid candidates, and take the earliest (fold → the
    /// first). If none is valid the reading falls in a gap, and the answer is
    /// the transition instant, found by binary search on whole seconds.
    ///
    /// `notBefore` (the quiet hours' rule, `instant(on:at:notBefore:)`) passes over a fold's first occurrence
    /// when it is earlier than that bound and the second is not.
    private func utcSeconds(forLocal local: Int, notBefore: Int = Int.min) -> Int {
        // Fast path, taken on all but the few days around a transition: the same offset a day before and a day
        // after (no two transitions are within 48 hours of each other), so the reading happens exactly once.
        // The table answers that in one search: no transition from a day before to a day after.
        if let steady = table?.steadyOffset(from: local - 86_400, through: local + 86_400) {
            return local - steady
        }
        let dayBefore = offset(atUTC: local - 86_400)
        if dayBefore == offset(atUTC: local + 86_400), offset(atUTC: local - dayBefore) == dayBefore {
            return local - dayBefore
        }
        // Offsets never reach ±24 h, so every occurrence lies in local ± 1 day.
        // Five samples catch every offset in that window unless two
        // transitions are less than 12 hours apart; in tzdata 2025b no two
        // transitions of any zone between 1900 and 2040 are even 48 hours apart.
        let samples = (
            offset(atUTC: local - 86_400), offset(atUTC: local - 43_200), offset(atUTC: local),
            offset(atUTC: local + 43_200), offset(atUTC: local + 86_400)
        )
        var earliest: Int?
        var earliestInBound: Int?
        var smallestOffset = Int.max
        var largestOffset = Int.min
        for candidate in [samples.0, samples.1, samples.2, samples.3, samples.4] {
            smallestOffset = min(smallestOffset, candidate)
            largestOffset = max(largestOffset, candidate)
            let utc = local - candidate
            guard offset(atUTC: utc) == candidate else { continue }
            if utc < (earliest ?? Int.max) { earliest = utc }
            if utc >= notBefore, utc < (earliestInBound ?? Int.max) { earliestInBound = utc }
        }
        if let found = earliestInBound ?? earliest {
            return found
        }
        return transition(intoLocal: local, after: local - largestOffset, upTo: local - smallestOffset)
    }

    /// The first UTC second whose local reading is at or after `local`, given
    /// that `local` itself is skipped. Searches `(lower, upper]`, the span
    /// between the readings' mappings under the pre- and post-gap offsets;
    /// falls back to a two-day window should those samples not bracket it.
    private func transition(intoLocal local: Int, after lower: Int, upTo upper: Int) -> Int {
        var low = lower
        var high = upper
        if !(low < high && localSeconds(atUTC: low) < local && localSeconds(atUTC: high) >= local) {
            low = local - 2 * 86_400
            high = local + 2 * 86_400
        }
        // Invariant: reading(low) < local <= reading(high). Local readings only
        // go up across a gap, so the boundary found is the transition.
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if localSeconds(atUTC: middle) >= local {
                high = middle
            } else {
                low = middle
            }
        }
        return high
    }
}
