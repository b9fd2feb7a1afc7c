import FoundationEssentials

/// The actions' members of `state.json`: `snoozes` and `timers` (notification records, in the order they were
/// made), `appliedActions` (id → action → instant, both sorted, so the file is deterministic) and
/// `actionsMadeAt` (snooze or timer id → instant, sorted).
extension UserActions {
    /// The members of state.json the actions write, in order (the manual and docs/files.md list them from here).
    public static let stateKeys = ["snoozes", "timers", "appliedActions", "actionsMadeAt"]

    /// Writes the actions' members into the state's object, after the members written before them.
    func write(to out: inout PrettyJSONWriter) {
        out.key("snoozes")
        out.open("[")
        for snooze in snoozes {
            out.element(); out.value(snooze.json)
        }
        out.close("]")
        out.key("timers")
        out.open("[")
        for timer in timers {
            out.element(); out.value(timer.json)
        }
        out.close("]")
        out.key("appliedActions")
        out.open("{")
        for id in applied.keys.sorted() {
            guard let actions = applied[id] else { continue }
            out.key(id)
            out.open("{")
            for action in actions.keys.sorted() {
                if let at = actions[action] { out.key(action); out.instant(at) }
            }
            out.close("}")
        }
        out.close("}")
        out.key("actionsMadeAt")
        out.open("{")
        for id in madeAt.keys.sorted() {
            if let at = madeAt[id] { out.key(id); out.instant(at) }
        }
        out.close("}")
    }

    /// Reads the actions from the state's object `root`, reporting each snooze or timer it refuses.
    static func read(_ root: ObjectReader, _ document: DocumentReader) -> UserActions {
        UserActions(snoozes: notifications("snoozes", of: root, in: document),
                    timers: notifications("timers", of: root, in: document),
                    applied: appliedActions(of: root, in: document), madeAt: madeAt(of: root))
    }

    /// `actionsMadeAt`: an instant that is not one is reported and left out.
    private static func madeAt(of root: ObjectReader) -> [String: Date] {
        var madeAt: [String: Date] = [:]
        guard let object = root.object("actionsMadeAt") else { return madeAt }
        for member in object.members() {
            if let at = object.instant(member.key, required: true) { madeAt[member.key] = at }
        }
        return madeAt
    }

    /// The notification records of the list `key`.
    private static func notifications(_ key: String, of root: ObjectReader,
                                      in document: DocumentReader) -> [Notification] {
        root.elements(key).compactMap { element in
            guard let notification = Notification(record: document.json(element.node)) else {
                document.report(element.path, "is not a notification record")
                return nil
            }
            return notification
        }
    }

    /// `appliedActions`: an action whose instant is not one is reported and left out.
    private static func appliedActions(of root: ObjectReader, in document: DocumentReader) -> [String: [String: Date]] {
        var applied: [String: [String: Date]] = [:]
        guard let object = root.object("appliedActions") else { return applied }
        for member in object.members() {
            guard let actions = ObjectReader(member.node, at: object.path.appending(member.key), in: document) else {
                continue
            }
            for action in actions.members() {
                if let at = actions.instant(action.key, required: true) {
                    applied[member.key, default: [:]][action.key] = at
                }
            }
        }
        return applied
    }
}
