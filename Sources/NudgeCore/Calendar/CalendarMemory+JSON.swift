import FoundationEssentials

/// The calendar's member of `state.json`: `calendar`, with the collection's `url`, the `events` written (`uid`,
/// `etag`, `hash`, `start`), `lastMatchAt` and the `failure` last reported. Absent while no calendar was ever set.
extension CalendarMemory {
    /// The members of state.json the calendar writes (the manual and docs/files.md list them from here).
    public static let stateKeys = ["calendar"]

    /// Writes the member, unless there is nothing to remember (a state.json without a calendar stays as it was).
    func write(to out: inout PrettyJSONWriter) {
        guard !isEmpty else { return }
        out.key("calendar")
        out.open("{")
        out.key("url"); out.string(url)
        out.key("events")
        out.open("[")
        for uid in kept.keys.sorted() {
            guard let event = kept[uid] else { continue }
            out.element()
            out.open("{")
            out.key("uid"); out.string(event.uid)
            out.key("etag"); out.string(event.etag)
            out.key("hash"); out.string(event.hash)
            out.key("start"); out.instant(event.start)
            out.close("}")
        }
        out.close("]")
        out.key("lastMatchAt"); out.instant(lastMatchAt)
        out.key("failure"); out.string(failure)
        out.close("}")
    }

    /// Reads the member from the state's object `root`, reporting each event it refuses.
    static func read(_ root: ObjectReader, _ document: DocumentReader) -> CalendarMemory {
        guard let object = root.object("calendar") else { return CalendarMemory() }
        var kept: [KeptEvent] = []
        for element in object.elements("events") {
            guard let event = ObjectReader(element, in: document), let uid = event.string("uid"),
                  let hash = event.string("hash"), let start = event.instant("start", required: true) else {
                document.report(element.path, "is not a calendar event nudge wrote")
                continue
            }
            kept.append(KeptEvent(uid: uid, etag: event.optionalString("etag"), hash: hash, start: start))
        }
        return CalendarMemory(url: object.optionalString("url"), kept: kept,
                              lastMatchAt: object.instant("lastMatchAt", required: false),
                              failure: object.optionalString("failure"))
    }
}
