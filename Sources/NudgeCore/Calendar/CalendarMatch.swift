import FoundationEssentials

/// One run's matching of the calendar to the plan (docs/calendar.md, "What each run does"): the requests that
/// make the collection hold exactly the plan's important records, one at a time, each answer taken before the
/// next request. The shell sends them and stops at the first failure or its deadline; what is left, the next run
/// finds again, because the memory only ever records what the server confirmed.
public struct CalendarMatch: Sendable {
    /// What one request does.
    enum Step: Equatable, Sendable {
        /// A PUT: `If-None-Match: *` without an ETag (a new event), else `If-Match` of it. `retried`: after a 412.
        case write(CalendarEvents.Event, etag: String?, retried: Bool)
        /// A GET of the event's current ETag, after a 412: it was written by a run that died before it saved the
        /// state, or changed on the server.
        case read(CalendarEvents.Event)
        case delete(uid: String)
    }

    /// How long an event stays after its time at the latest, while its record is not settled.
    static let keptAfterStart: TimeInterval = 24 * 3600

    /// The collection's URL, ending in "/", and its host.
    let collection: String
    let host: String
    let stamp: Date
    let product: String
    private var steps: [Step]
    private var current: Step?
    /// What the calendar holds after the answers taken so far.
    public private(set) var memory: CalendarMemory
    /// The failure reported before this match, to report a failure once.
    private let reported: String?
    public private(set) var failure: CalendarFailure?

    /// The requests that make the collection of `settings` hold the records of `plan` that `settings` keeps, from
    /// what `state` remembers writing. `product` is the iCalendar PRODID.
    public init(plan: Plan, settings: CalendarSettings, state: RunState, now: Date, product: String) {
        collection = settings.url
        host = settings.host
        stamp = now
        self.product = product
        memory = state.calendar.of(settings.url)
        reported = state.calendar.failure
        let events = CalendarEvents(plan, now: now, priorities: settings.priorities, hoursAhead: settings.hoursAhead)
        steps = Self.steps(events.events, memory: memory, now: now) { id in state.userActions.isActedOn(id) }
    }

    /// The writes of the events that are new or changed, in time order, then the deletes of the events that left
    /// the plan before their time, or whose time passed and whose record was settled (or a day ago).
    static func steps(_ events: [CalendarEvents.Event], memory: CalendarMemory, now: Date,
                      isSettled: (String) -> Bool) -> [Step] {
        var steps: [Step] = []
        for event in events {
            let kept = memory.kept[event.uid]
            if kept?.hash != CalendarEvents.hash(of: event) {
                steps.append(.write(event, etag: kept.map { $0.etag ?? "*" }, retried: false))
            }
        }
        let wanted = Set(events.map(\.uid))
        for (uid, event) in memory.kept.sorted(by: { $0.key < $1.key }) where !wanted.contains(uid) {
            let recordID = String(uid.dropLast(CalendarEvents.uidSuffix.count))
            if event.start > now || isSettled(recordID) || now >= event.start.addingTimeInterval(keptAfterStart) {
                steps.append(.delete(uid: uid))
            }
        }
        return steps
    }

    /// Whether there is nothing to send: then nothing is started, and no password is asked for.
    public var isIdle: Bool { steps.isEmpty && current == nil }

    /// The next request, nil when the match is done or failed.
    public mutating func next() -> CalendarRequest? {
        guard failure == nil, current == nil, !steps.isEmpty else { return nil }
        let step = steps.removeFirst()
        current = step
        switch step {
        case .write(let event, let etag, _):
            let condition = etag.map { "If-Match: " + $0 } ?? "If-None-Match: *"
            return CalendarRequest(method: "PUT", url: url(of: event.uid),
                                   headers: [condition, "Content-Type: text/calendar; charset=utf-8"],
                                   body: CalendarEvents(events: [event]).file(stamp: stamp, product: product))
        case .read(let event):
            return CalendarRequest(method: "GET", url: url(of: event.uid))
        case .delete(let uid):
            return CalendarRequest(method: "DELETE", url: url(of: uid))
        }
    }

    /// Takes the server's answer to the request `next` gave.
    public mutating func take(_ answer: CalendarAnswer) {
        guard let step = current else { return }
        current = nil
        switch step {
        case .write(let event, _, let retried):
            if answer.isSuccess {
                memory.keep(.init(uid: event.uid, etag: answer.etag, hash: CalendarEvents.hash(of: event),
                                  start: event.start))
            } else if answer.status == 412 && !retried {
                steps.insert(.read(event), at: 0)
            } else if answer.status == 412 {
                failure = .changedElsewhere(summary: event.summary)
            } else {
                fail(answer, "PUT")
            }
        case .read(let event):
            if answer.isSuccess || answer.status == 404 {
                // 404: the person deleted it; the record changed since, so it is written again.
                steps.insert(.write(event, etag: answer.isSuccess ? answer.etag ?? "*" : nil, retried: true), at: 0)
            } else {
                fail(answer, "GET")
            }
        case .delete(let uid):
            if answer.isSuccess || answer.status == 404 || answer.status == 410 {
                memory.forget(uid)
            } else {
                fail(answer, "DELETE")
            }
        }
    }

    /// The request `next` gave got no answer (offline, a timeout, TLS), or the run's time for the calendar ran out.
    public mutating func fail(_ failure: CalendarFailure) {
        current = nil
        self.failure = failure
    }

    private mutating func fail(_ answer: CalendarAnswer, _ method: String) {
        failure = CalendarFailure.of(answer, method: method, host: host, collection: collection)
    }

    /// The memory to save: the answers taken, and this match's outcome.
    public func finished(at now: Date) -> CalendarMemory {
        var memory = memory
        memory.finish(at: now, failure: failure?.description)
        return memory
    }

    /// The failure to report: none when it is the one reported before (each failure is reported once).
    public var failureToReport: CalendarFailure? {
        guard let failure, failure.description != reported else { return nil }
        return failure
    }

    /// The event's URL: its UID, each byte outside RFC 3986's unreserved set percent-escaped, and `.ics`.
    func url(of uid: String) -> String {
        var name = ""
        for byte in uid.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "@"):
                name.append(Character(Unicode.Scalar(byte)))
            default:
                name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return collection + name + ".ics"
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
