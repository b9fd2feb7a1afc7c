import FoundationEssentials

extension Alarm {
    /// Reads one element of `alarms.json`'s `alarms`; nil (with problems reported) when invalid.
    init?(_ object: ObjectReader) {
        object.checkKeys(["id", "title", "time", "durationMinutes", "enabled", "weekdays"])
        let id = object.identifier("id")
        let title = object.string("title")
        if let title, !ObjectReader.hasVisibleText(title) {
            object.report("title", "must not be empty (it becomes \"<title> Time\")")
        }
        let time = object.wallTime("time", default: nil)
        let duration = object.int("durationMinutes", default: 15, in: 1...1440)
        let enabled = object.bool("enabled", default: true)
        let weekdays = object.weekdays("weekdays")
        guard let id, let title, ObjectReader.hasVisibleText(title),
              let time, let duration, let weekdays else { return nil }
        self.init(id: id, title: title, time: time, durationMinutes: duration, enabled: enabled, weekdays: weekdays)
    }
}
