import FoundationEssentials

/// One HTTP request to the calendar's server; the shell sends it (docs/calendar.md, "How nudge talks to the server").
public struct CalendarRequest: Equatable, Sendable {
    public let method: String
    public let url: String
    /// Whole header lines, such as `If-None-Match: *`.
    public let headers: [String]
    public let body: String?

    init(method: String, url: String, headers: [String] = [], body: String? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What the server answered: the status, the ETag header when there was one, and the body.
public struct CalendarAnswer: Equatable, Sendable {
    let status: Int
    let etag: String?
    let body: String

    public init(status: Int, etag: String?, body: String) {
        self.status = status
        self.etag = etag
        self.body = body
    }
}

/// Why the calendar could not be matched, in words a person can act on (docs/calendar.md, "Never in the way").
public enum CalendarFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// 401 or 403 (a 403 on one event lets the others go on).
    case credentials(host: String, status: Int)
    /// 404 or 409 on every write: the collection is not there.
    case missingCollection(url: String)
    /// 412 on a PUT twice: someone else changes the event; the other events go on.
    case changedElsewhere(summary: String)
    /// The server refused one event (`what`: its title or UID), the others went on.
    case refused(what: String, method: String, status: Int)
    /// 5xx.
    case server(host: String, status: Int)
    /// Another status nudge does not expect for `method`.
    case unexpected(method: String, status: Int)
    /// The request never got an answer: offline, a timeout, TLS. The shell says which, with the host.
    case transport(String)

    public var description: String {
        switch self {
        case .credentials(let host, let status):
            "\(host) did not accept the user name and password (HTTP \(status)): check deliver.calendar's user "
                + "and passwordCommand, or ~/.netrc"
        case .missingCollection(let url):
            "the calendar does not exist (nudge init --calendar \(url) makes it)"
        case .changedElsewhere(let summary):
            "the event \"\(summary)\" changed elsewhere: read again; the next run tries again"
        case .server(let host, let status):
            "\(host) failed (HTTP \(status), a server error); the next run tries again"
        case .refused(let what, let method, let status):
            "the server refused \(method) of \"\(what)\" (HTTP \(status)); the other events went on"
        case .unexpected(let method, let status):
            "the server answered \(method) with HTTP \(status), which nudge does not expect"
        case .transport(let words):
            words
        }
    }

    /// The failure an answer stands for when it is no success, for a request on `host` at `url`.
    static func of(_ answer: CalendarAnswer, method: String, host: String, collection: String) -> CalendarFailure {
        switch answer.status {
        case 401, 403: .credentials(host: host, status: answer.status)
        case 404, 409: .missingCollection(url: collection)
        case 500...599: .server(host: host, status: answer.status)
        default: .unexpected(method: method, status: answer.status)
        }
    }
}
