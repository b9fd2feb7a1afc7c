import FoundationEssentials

/// `nudge times`: the six prayer times of consecutive local dates, with the place and the method, as a table
/// or JSON (docs/prayer-times.md).
public enum PrayerTimetable {
    /// "52.52° N, 13.405° E — MWL (fajr 18°, isha 17°), asr standard, highLatitude angleBased".
    static func heading(_ settings: PrayerSettings) -> String {
        let latitude = settings.latitude ?? 0, longitude = settings.longitude ?? 0
        return "\(number(abs(latitude)))° \(latitude < 0 ? "S" : "N"), "
            + "\(number(abs(longitude)))° \(longitude < 0 ? "W" : "E") — \(settings.method.description), "
            + "asr \(settings.asr.rawValue), highLatitude \(settings.highLatitude.rawValue)"
            + (settings.polar == .none ? "" : ", polar \(settings.polar)") + adjustmentsText(settings)
    }

    /// The table: a heading, then one row per date; a time that falls on the next or previous date is marked
    /// "+1" or "-1", one the sun does not allow is "—", and one `polar` resolved is marked "*", with the reasons
    /// below the table.
    public static func text(_ calendar: PrayerCalendar, from first: LocalDate, days: Int) -> String {
        var lines = [heading(calendar.settings), "Zone \(calendar.clock.zone.identifier)", ""]
        let header = ["DATE"] + Prayer.allCases.map { $0.rawValue.uppercased() }
        var rows = [header]
        var notes = TimetableNotes()
        for offset in 0..<max(days, 0) {
            let date = first.adding(days: offset)
            let weekday = date.weekday.rawValue.prefix(1).uppercased() + date.weekday.rawValue.dropFirst()
            var row = ["\(weekday) \(date)"]
            for prayer in Prayer.allCases {
                switch calendar.reading(of: prayer, on: date) {
                case let .success(local):
                    let shift = local.date.daysSinceEpoch - date.daysSinceEpoch
                    var mark = shift == 0 ? "" : shift > 0 ? "+\(shift)" : "\(shift)"
                    if let resolution = calendar.resolution(of: prayer, on: date) {
                        mark += "*"
                        notes.add("* \(resolution.gap); \(resolvedText(calendar.settings.polar))", prayer, date,
                                  source: resolution.source)
                    }
                    row.append(String.hourMinute(local.hour, local.minute) + mark)
                case let .failure(gap):
                    row.append("—")
                    notes.add("— \(gap.description)", prayer, date)
                }
            }
            rows.append(row)
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            lines.append(row.indices.map { TextFormat.column(row[$0], widths[$0]) }.joined(separator: "  ")
                .trimmingWhitespace)
        }
        if !notes.lines.isEmpty { lines += [""] + notes.lines }
        return lines.joined(separator: "\n")
    }

    /// "polar nearestDay: the time of the nearest date on which it exists", for the notes below the table.
    static func resolvedText(_ polar: PolarResolution) -> String {
        switch polar {
        case .none: return "not resolved (polar none)"
        case .nearestLatitude: return "polar nearestLatitude: the time at the nearest latitude where it exists"
        case .nearestDay: return "polar nearestDay: the time of the nearest date on which it exists"
        case let .referenceLatitude(latitude): return "polar \(number(latitude)): the time at that latitude"
        }
    }

    /// The same as JSON: the place, the method and per date each prayer's instant (UTC) and local time, or
    /// null and the reason.
    public static func json(_ calendar: PrayerCalendar, from first: LocalDate, days: Int) -> JSONValue {
        let settings = calendar.settings
        var dates: [JSONValue] = []
        for offset in 0..<max(days, 0) {
            let date = first.adding(days: offset)
            var members = [JSONMember("date", .string(date.description))]
            for prayer in Prayer.allCases {
                switch calendar.reading(of: prayer, on: date) {
                case let .success(local):
                    let instant = calendar.clock.instant(of: local)
                    var time = [JSONMember("at", .string(RFC3339.format(instant))),
                                JSONMember("local", .string("\(local.date)T\(String.hourMinute(local.hour, local.minute))"))]
                    if let resolution = calendar.resolution(of: prayer, on: date) {
                        time.append(JSONMember("reason", .string(resolution.gap.description)))
                        switch resolution.source {
                        case let .latitude(latitude):
                            time.append(JSONMember("resolvedAtLatitude", .number(number(latitude))))
                        case let .date(date):
                            time.append(JSONMember("resolvedFromDate", .string(date.description)))
                        }
                    }
                    members.append(JSONMember(prayer.rawValue, .object(time)))
                case let .failure(gap):
                    members.append(JSONMember(prayer.rawValue, .object([
                        JSONMember("at", .null), JSONMember("reason", .string(gap.description)),
                    ])))
                }
            }
            dates.append(.object(members))
        }
        var method: [JSONMember] = [JSONMember("name", settings.method.name.map(JSONValue.string) ?? .null),
                                    JSONMember("fajrAngle", .number(number(settings.method.fajrAngle)))]
        switch settings.method.isha {
        case let .angle(angle): method.append(JSONMember("ishaAngle", .number(number(angle))))
        case let .minutes(minutes): method.append(JSONMember("ishaMinutes", .number(String(minutes))))
        }
        if let angle = settings.method.maghribAngle {
            method.append(JSONMember("maghribAngle", .number(number(angle))))
        }
        return .object([
            JSONMember("latitude", .number(number(settings.latitude ?? 0))),
            JSONMember("longitude", .number(number(settings.longitude ?? 0))),
            JSONMember("timeZone", .string(calendar.clock.zone.identifier)),
            JSONMember("method", .object(method)),
            JSONMember("asr", .string(settings.asr.rawValue)),
            JSONMember("highLatitude", .string(settings.highLatitude.rawValue)),
            JSONMember("polar", {
                if case let .referenceLatitude(latitude) = settings.polar { return .number(number(latitude)) }
                return .string(settings.polar.description)
            }()),
            JSONMember("adjustMinutes", .object(Prayer.allCases.map {
                JSONMember($0.rawValue, .number(String(settings.adjustment($0))))
            })),
            JSONMember("days", .array(dates)),
        ])
    }

    /// ", adjustMinutes isha +2" when any is set.
    private static func adjustmentsText(_ settings: PrayerSettings) -> String {
        let set = Prayer.allCases.filter { settings.adjustment($0) != 0 }
        guard !set.isEmpty else { return "" }
        return ", adjustMinutes " + set.map { prayer in
            let minutes = settings.adjustment(prayer)
            return "\(prayer.rawValue) \(minutes > 0 ? "+" : "")\(minutes)"
        }.joined(separator: " ")
    }

    /// "52.52", "13": degrees as written, without a trailing ".0".
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
