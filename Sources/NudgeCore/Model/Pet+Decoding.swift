import FoundationEssentials

extension Pet {
    /// Reads one element of `laundry.json`'s `pets`; nil (with problems reported) when invalid.
    init?(_ object: borrowing ObjectReader) {
        object.checkKeys(["id", "name", "washMinutes", "dryMinutes", "lastCompletedAt", "cycle"])
        let id = object.identifier("id")
        let name = object.optionalString("name")
        let wash = object.int("washMinutes", default: 45, in: 1...1440)
        let dry = object.int("dryMinutes", default: 60, in: 1...1440)
        let lastCompletedAt = object.instant("lastCompletedAt", required: false)
        var cycle: LaundryCycle?
        var cycleValid = true
        if let cycleObject = object.object("cycle") {
            cycle = LaundryCycle(cycleObject)
            cycleValid = cycle != nil
        } else if object.member("cycle") != nil {
            cycleValid = false
        }
        guard let id, let wash, let dry, cycleValid,
              object.member("lastCompletedAt") == nil || lastCompletedAt != nil else { return nil }
        self.init(id: id, name: name ?? id, washMinutes: wash, dryMinutes: dry,
                  lastCompletedAt: lastCompletedAt, cycle: cycle)
    }
}

extension LaundryCycle {
    init?(_ object: borrowing ObjectReader) {
        object.checkKeys(["id", "stage", "startedAt"])
        let id = object.member("id") == nil ? nil : object.identifier("id")
        let stageText = object.string("stage")
        let stage = stageText.flatMap(Stage.init(rawValue:))
        if let stageText, stage == nil {
            object.report("stage", "\"\(stageText)\" is not a stage (expected \"wash\" or \"dry\")")
        }
        let startedAt = object.instant("startedAt", required: true)
        guard let stage, let startedAt, object.member("id") == nil || id != nil else { return nil }
        self.init(id: id ?? RFC3339.format(startedAt), stage: stage, startedAt: startedAt)
    }
}
