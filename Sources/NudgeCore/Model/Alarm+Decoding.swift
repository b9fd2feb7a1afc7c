import FoundationEssentials

extension Alarm {
    /// Reads one element of `alarms.json`'s `alarms`; nil (with problems reported) when invalid.
    ///
    /// The members are found in one pass (`ObjectReader.members`), then read in the order of the keys.
    init?(_ object: borrowing ObjectReader) {
        let members = object.members(["id", "title", "time", "durationMinutes", "enabled", "weekdays"])
        let id = object.identifier("id", at: members[0])
        let title = object.string("title", at: members[1])
        let hasTitle = title.map(ObjectReader.hasVisibleText) ?? false
        if title != nil, !hasTitle {
            object.report("title", "must not be empty (it becomes \"<title> Time\")")
        }
        let time = object.wallTime("time", at: members[2], default: nil)
        let duration = object.int("durationMinutes", at: members[3], default: 15, in: 1...1440)
        let enabled = object.bool("enabled", at: members[4], default: true)
        let weekdays = object.weekdays("weekdays", at: members[5])
        guard let id, let title, hasTitle, let time, let duration, let weekdays else { return nil }
        self.init(id: id, title: title, time: time, durationMinutes: duration, enabled: enabled, weekdays: weekdays)
    }
}
