/// The alarms that follow a prayer and will not ring on some dates, and why (docs/prayer-times.md): for
/// `nudge status` (today), `nudge plan` (the next 7 days) and `nudge check` (the coming year).
public enum SilentPrayerAlarms {
    /// One line per enabled alarm that follows a prayer and would ring on `date`'s weekday but cannot that day:
    /// "Sunset Prayer (maghrib): the sun does not set that day (midnight sun)".
    public static func lines(_ alarms: [Alarm], settings: Settings, on date: LocalDate, clock: WallClock) -> [String] {
        let calendar = settings.prayerTimes.flatMap { PrayerCalendar(settings: $0, clock: clock) }
        return alarms.compactMap { alarm in
            reason(alarm, on: date, calendar: calendar).map { "\(name(alarm)): \($0)" }
        }
    }

    /// One line per alarm and run of its dates, among the `days` from `first`, with the same reason:
    /// "Dawn Prayer (fajr) 2026-06-19 to 2026-06-25: the sun does not set that day (midnight sun)". Dates the
    /// alarm does not ring on anyway (its weekdays) neither end nor extend a run.
    public static func runs(_ alarms: [Alarm], settings: Settings, from first: LocalDate, days: Int,
                            clock: WallClock) -> [String] {
        let calendar = settings.prayerTimes.flatMap { PrayerCalendar(settings: $0, clock: clock) }
        var lines: [String] = []
        for alarm in alarms {
            var run: (reason: String, first: LocalDate, last: LocalDate)?
            func close() {
                guard let open = run else { return }
                let dates = open.first == open.last ? "on \(open.first)" : "\(open.first) to \(open.last)"
                lines.append("\(name(alarm)) \(dates): \(open.reason)")
                run = nil
            }
            for offset in 0..<max(days, 0) {
                let date = first.adding(days: offset)
                guard alarm.weekdays.contains(date.weekday) else { continue }
                let found = reason(alarm, on: date, calendar: calendar)
                if let open = run, found == open.reason {
                    run?.last = date
                    continue
                }
                close()
                if let found { run = (found, date, date) }
            }
            close()
        }
        return lines
    }

    /// For `nudge check`: the prayers the enabled alarms follow that have no time at the place on some of the
    /// 365 dates from `first`, how many and which dates, and what `prayerTimes.polar` offers; nil when every
    /// one rings every day.
    public static func yearNote(_ alarms: [Alarm], settings: Settings, from first: LocalDate,
                                clock: WallClock) -> String? {
        guard let prayerSettings = settings.prayerTimes,
              let calendar = PrayerCalendar(settings: prayerSettings, clock: clock) else { return nil }
        var followed: [Prayer] = []
        for alarm in alarms where alarm.enabled {
            if case let .prayer(prayer, _) = alarm.schedule, !followed.contains(prayer) { followed.append(prayer) }
        }
        var counts: [String] = []
        for prayer in Prayer.allCases where followed.contains(prayer) {
            // Only what the sun does not allow: a time past midnight still rings, on the next date.
            let missing = (0..<365).map { first.adding(days: $0) }.filter {
                if case .failure(.sun) = calendar.ringing(prayer, on: $0, offsetMinutes: 0) { true } else { false }
            }
            guard !missing.isEmpty else { continue }
            var runs: [(first: LocalDate, last: LocalDate)] = []
            for date in missing {
                if let last = runs.last?.last, last.adding(days: 1) == date { runs[runs.count - 1].last = date }
                else { runs.append((date, date)) }
            }
            let dates = runs.map { $0.first == $0.last ? "\($0.first)" : "\($0.first) to \($0.last)" }
            counts.append("\(prayer.rawValue) on \(missing.count) day\(missing.count == 1 ? "" : "s") "
                + "(\(dates.joined(separator: ", ")))")
        }
        guard !counts.isEmpty else { return nil }
        let list = counts.joined(separator: "; ")
        let advice = prayerSettings.polar == .none
            ? "give them a time, set settings.json prayerTimes.polar to \"nearestLatitude\", \"nearestDay\" or a "
                + "reference latitude such as 48.5; `nudge times --days 365` shows the result"
            : "see why even with prayerTimes.polar \(prayerSettings.polar): `nudge times --days 365`"
        return "the sun leaves some prayers without a time at this place in the coming year, and the alarms that "
            + "follow them will not ring then: \(list). To \(advice)"
    }

    /// Why `alarm` will not ring on `date`; nil when it rings, or would not that weekday anyway.
    private static func reason(_ alarm: Alarm, on date: LocalDate, calendar: PrayerCalendar?) -> String? {
        guard alarm.enabled, alarm.weekdays.contains(date.weekday),
              case let .prayer(prayer, offset) = alarm.schedule else { return nil }
        guard let calendar else { return "settings.json has no prayerTimes.latitude and longitude" }
        guard case let .failure(gap) = calendar.ringing(prayer, on: date, offsetMinutes: offset) else { return nil }
        return gap.description
    }

    /// "Sunset Prayer (maghrib)".
    private static func name(_ alarm: Alarm) -> String {
        guard case let .prayer(prayer, _) = alarm.schedule else { return alarm.title }
        return "\(alarm.title) (\(prayer.rawValue))"
    }
}
