extension PosixTimeZone {
    /// One switch of the rule: from UTC second `at` on, the offset is `offset`.
    struct Change: Equatable {
        var at: Int
        var offset: Int
    }

    /// The rule's two switches in `year`, in order of time; on a tie the start of daylight time comes last, so
    /// `XXX3EDT4,0/0,J365/25` (RFC 8536's daylight time all year) stays in daylight time. Empty without daylight
    /// time or without a rule for it.
    func changes(inYear year: Int) -> [Change] {
        guard let daylight, let start = daylight.start, let end = daylight.end else { return [] }
        // The start is given in standard local time, the end in daylight local time.
        let begins = Change(at: Self.day(start.day, in: year) * 86_400 + start.time - standardOffset,
                            offset: daylight.offset)
        let ends = Change(at: Self.day(end.day, in: year) * 86_400 + end.time - daylight.offset,
                          offset: standardOffset)
        return begins.at < ends.at ? [begins, ends] : [ends, begins]
    }

    /// The offset east of UTC at the UTC second `utc`: the latest switch at or before it, looking at the
    /// neighbouring years too (a rule time such as `/-1` or `/25` can move a switch across New Year).
    func offset(atUTC utc: Int) -> Int {
        let year = LocalDateTime(secondsSinceEpoch: utc).date.year
        var latest: Change?
        for candidate in (year - 1)...(year + 1) {
            for change in changes(inYear: candidate) where change.at <= utc && change.at >= (latest?.at ?? Int.min) {
                latest = change
            }
        }
        return latest?.offset ?? standardOffset
    }

    /// Days since 1970-01-01 of a rule's day in `year`.
    private static func day(_ day: Day, in year: Int) -> Int {
        let january1 = LocalDate.daysFromCivil(year: year, month: 1, day: 1)
        switch day {
        case .julianNoLeap(let n):
            // Day n of a year without February 29: from March 1 on, one day later in a leap year.
            return january1 + n - 1 + (LocalDate.isLeapYear(year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return january1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = LocalDate.daysFromCivil(year: year, month: month, day: 1)
            let firstWeekday = ((first + 4) % 7 + 7) % 7    // 0 = Sunday; 1970-01-01 was a Thursday
            var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            while dayOfMonth > LocalDate.daysInMonth(year: year, month: month) { dayOfMonth -= 7 }
            return first + dayOfMonth - 1
        }
    }
}
