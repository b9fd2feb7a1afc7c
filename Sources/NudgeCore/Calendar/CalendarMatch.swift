import FoundationEssentials

/// One run's matching of the calendar to the plan (docs/calendar.md, "What each run does"): the requests that
/// make the collection hold exactly the plan's important records, one at a time, each answer taken before the
/// next request. The shell sends them until the match stops (the network, the server, the credentials) or its
/// deadline passes; what is left, the next run finds again, because the memory only ever records what the server
/// confirmed.
public struct CalendarMatch: Sendable {
    /// What one request does.
    enum Step: Equatable, Sendable {
        /// A PUT: `If-None-Match: *` without an ETag (a new event), else `If-Match` of it. `retried`: after a 412.
        case write(CalendarEvents.Event, etag: String?, retried: Bool)
        /// A GET of the event's current ETag, after a 412: it was written by a run that died before it saved the
        /// state, or changed on the server.
        case read(CalendarEvents.Event)
        case delete(uid: String)
        /// A PROPFIND of the collection, after a write was answered 404 or 409 (docs/calendar.md, "Never in the way").
        case probe
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
    private(set) var memory: CalendarMemory
    /// The failure reported before this match, to report a failure once.
    private let reported: String?
    /// The first failure of this match: one that stops it (the server, the network, the credentials), or one
    /// event the server refused while the others went on.
    private(set) var failure: CalendarFailure?
    /// Whether the match stopped: nothing more is sent this run.
    private var stopped = false
    /// Whether a write got through, or the collection was asked whether it is there: a 404 or 409 on a write
    /// before either asks it once (one event refused, or no calendar at all?).
    private var collectionKnown = false
    /// Whether any request was sent.
    private var wasBusy = false

    /// The requests that make the collection of `settings` hold the records of `plan` that `settings` keeps, from
    /// what `state` remembers writing; `household` tells a folded laundry stage. `product` is the iCalendar PRODID.
    public init(plan: Plan, settings: CalendarSettings, state: RunState, household: Household,
                now: Date, product: String) {
        collection = settings.url
        host = settings.host
        stamp = now
        self.product = product
        memory = state.calendar.of(settings.url)
        reported = state.calendar.failure
        let events = CalendarEvents(plan, now: now, priorities: settings.priorities, hoursAhead: settings.hoursAhead)
        steps = Self.steps(events.events, memory: memory, now: now) { id in
            state.userActions.isActedOn(id) || Self.isFolded(id, household)
        }
    }

    /// Whether `id` is a laundry stage whose cycle is gone from laundry.json: folded (or stopped) after it rang.
    static func isFolded(_ id: String, _ household: Household) -> Bool {
        guard id.hasPrefix("laundry."), let occurrence = OccurrenceID(id) else { return false }
        return household.pets.first { $0.id == occurrence.source }?.cycle?.id != occurrence.event
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

    /// The next request, nil when the match is done or stopped.
    public mutating func next() -> CalendarRequest? {
        guard !stopped, current == nil, !steps.isEmpty else { return nil }
        let step = steps.removeFirst()
        current = step
        wasBusy = true
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
        case .probe:
            return CalendarCollection.propfind(url: collection)
        }
    }

    /// Takes the server's answer to the request `next` gave. The server, the network and the credentials stop the
    /// match (401, 5xx); a refusal of one event (400, 403, 409, a 207 that holds an error) is noted and the
    /// match goes on with the others, so one event the server will not take keeps no other alarm off the phone.
    public mutating func take(_ answer: CalendarAnswer) {
        guard let step = current else { return }
        current = nil
        let done = [200, 201, 204].contains(answer.status)
        switch step {
        case .write(let event, _, let retried):
            if done {
                collectionKnown = true
                memory.keep(.init(uid: event.uid, etag: answer.etag, hash: CalendarEvents.hash(of: event),
                                  start: event.start))
            } else if answer.status == 412 && !retried {
                steps.insert(.read(event), at: 0)
            } else if answer.status == 412 {
                note(.changedElsewhere(summary: event.summary))
            } else {
                if (answer.status == 404 || answer.status == 409) && !collectionKnown {
                    collectionKnown = true
                    steps.insert(.probe, at: 0)
                }
                refuse(answer, "PUT", event.summary)
            }
        case .read(let event):
            if done || answer.status == 404 {
                // 404: the person deleted it; the record changed since, so it is written again.
                steps.insert(.write(event, etag: done ? answer.etag ?? "*" : nil, retried: true), at: 0)
            } else {
                refuse(answer, "GET", event.summary)
            }
        case .delete(let uid):
            if done || answer.status == 404 || answer.status == 410 {
                memory.forget(uid)
            } else if answer.status == 401 || answer.status >= 500 {
                refuse(answer, "DELETE", uid)
            } else {
                // Refused for good (a server's trash keeping it, 403): asking every run would not change that.
                memory.forget(uid)
                refuse(answer, "DELETE", uid)
            }
        case .probe:
            switch CalendarCollection.of(answer, url: collection, host: host) {
            case .success(.calendar): break
            case .success(let other): fail(other == .missing ? .missingCollection(url: collection)
                                                             : .transport(other.problem(collection) ?? ""))
            case .failure(let failure): fail(failure)
            }
        }
    }

    /// The request `next` gave got no answer (offline, a timeout, TLS), or the run's time for the calendar ran out.
    public mutating func fail(_ failure: CalendarFailure) {
        current = nil
        stopped = true
        // What stopped the match says more than an event refused before it.
        self.failure = failure
    }

    /// A failure that does not stop the match: the first one is the one reported.
    private mutating func note(_ failure: CalendarFailure) {
        self.failure = self.failure ?? failure
    }

    /// An answer that is no success: 401 and 5xx stop the match, anything else concerns `what` alone.
    private mutating func refuse(_ answer: CalendarAnswer, _ method: String, _ what: String) {
        if answer.status == 401 || answer.status >= 500 {
            fail(CalendarFailure.of(answer, method: method, host: host, collection: collection))
        } else if answer.status == 403 {
            note(CalendarFailure.of(answer, method: method, host: host, collection: collection))
        } else {
            note(.refused(what: what, method: method, status: answer.status))
        }
    }

    /// The memory to save: the answers taken, and this match's outcome. A match that sent nothing and had no
    /// failure to clear leaves the memory as it was: a quiet run writes nothing more.
    public func finished(at now: Date) -> CalendarMemory {
        var memory = memory
        guard wasBusy || failure?.description != memory.failure else { return memory }
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
