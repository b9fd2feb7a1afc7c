import FoundationEssentials

extension Alarm {
    /// Reads one element of `alarms.json`'s `alarms`; nil (with problems reported) when invalid.
    ///
    /// The members are found in one pass (`ObjectReader.members`), then read in the order of the keys.
    init?(_ object: borrowing ObjectReader) {
        let members = object.members(["id", "title", "time", "durationMinutes", "enabled", "weekdays", "prayer",
                                      "offsetMinutes", "body"])
        let id = object.identifier("id", at: members[0])
        let title = object.string("title", at: members[1])
        let hasTitle = title.map(ObjectReader.hasVisibleText) ?? false
        if title != nil, !hasTitle {
            object.report("title", "must not be empty (it becomes \"<title> Time\")")
        }
        let schedule = Self.schedule(object, time: members[2], prayer: members[6], offset: members[7])
        let duration = object.int("durationMinutes", at: members[3], default: 15, in: 1...1440)
        let enabled = object.bool("enabled", at: members[4], default: true)
        let weekdays = object.weekdays("weekdays", at: members[5])
        let body = members[8].flatMap { object.string("body", at: $0) }
        let bodyValid = body.map { ObjectReader.hasVisibleText($0) && $0.count <= 200 } ?? true
        if let body, !bodyValid {
            object.report("body", body.count > 200 ? "is \(body.count) characters long (at most 200)"
                                                   : "must not be empty (leave it out for \"Take 15 minutes to pray\")")
        }
        guard let id, let title, hasTitle, let schedule, let duration, let weekdays, bodyValid,
              members[8] == nil || body != nil else { return nil }
        self.init(id: id, title: title, schedule: schedule, durationMinutes: duration, enabled: enabled,
                  weekdays: weekdays, body: body)
    }

    /// Exactly one of `time` and `prayer`; `offsetMinutes` only beside `prayer` (docs/files.md). Inlined: it runs
    /// for every alarm, and its arguments are cheaper to use in place than to pass.
    @inline(__always)
    private static func schedule(_ object: borrowing ObjectReader, time: Int?, prayer: Int?,
                                 offset: Int?) -> Schedule? {
        guard let prayer else {
            if offset != nil {
                object.report("offsetMinutes", "moves only an alarm that follows a prayer (one with \"prayer\", not \"time\")")
            }
            guard time != nil else {
                object.document.report(object.path, "missing required key \"time\" (\"HH:MM\") or \"prayer\" (\(Prayer.names))")
                return nil
            }
            return object.wallTime("time", at: time, default: nil).map(Schedule.time)
        }
        if time != nil {
            object.report("prayer", "an alarm has either \"time\" or \"prayer\", not both (remove one)")
        }
        let offsetMinutes = object.int("offsetMinutes", at: offset, default: 0, in: -120...120)
        guard let text = object.string("prayer", at: prayer) else { return nil }
        guard let followed = Prayer(rawValue: text) else {
            object.report("prayer", "\(object.document.quote(prayer)) is not a prayer (expected one of \(Prayer.names))")
            return nil
        }
        guard time == nil, let offsetMinutes else { return nil }
        return .prayer(followed, offsetMinutes: offsetMinutes)
    }
}
