import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// Sends the calendar's requests with curl(1) (docs/calendar.md, "How nudge talks to the server"): one curl a
/// request, its whole request (address, method, headers, credentials, body) as a configuration on its standard
/// input, so that the password never appears in an argument list. No redirects are followed, certificates are
/// verified, `~/.curlrc` is not read.
struct CalendarClient {
    let settings: CalendarSettings
    let environment: [String: String]
    /// "user:password", resolved at the first request; nil: none (the server may need none).
    private var credentials: String??

    init(settings: CalendarSettings, environment: [String: String]) {
        self.settings = settings
        self.environment = environment
    }

    /// The server's answer to `request`, or why there is none, before `deadline`.
    mutating func send(_ request: CalendarRequest, before deadline: Deadline) -> Result<CalendarAnswer, CalendarFailure> {
        if credentials == nil {
            switch Self.credentials(settings, environment: environment, before: deadline) {
            case .success(let found): credentials = .some(found)
            case .failure(let failure): return .failure(failure)
            }
        }
        let (arguments, configuration) = Self.invocation(request, credentials: credentials ?? nil,
                                                         seconds: deadline.remaining)
        let run = CapturedRun(arguments, input: Array(configuration.utf8), environment: environment,
                              deadline: deadline)
        let host = settings.host
        switch run.ending {
        case .exited(0):
            guard let answer = Self.answer(run.stdout) else {
                return .failure(.transport("\(host) sent an answer that is no HTTP"))
            }
            return .success(answer)
        case .exited(let code):
            return .failure(.transport(Self.words(curlExit: code, host: host,
                                                  stderr: String(decoding: run.stderr, as: UTF8.self))))
        case .killedBySignal(let signal):
            return .failure(.transport("curl was killed by signal \(signal) while talking to \(host)"))
        case .timedOut:
            return .failure(.transport("\(host) did not answer within the run's \(Int(CalendarChannel.timeLimit)) s "
                + "for the calendar; the next run tries again"))
        case .notStarted(let code):
            return .failure(.transport("cannot start curl: \(String(cString: strerror(code))) (the calendar needs "
                + "curl(1); Debian: apt install curl)"))
        }
    }

    /// curl's arguments and the configuration for its standard input: the request and the credentials go in the
    /// configuration only. `-q` first (curl then reads no `~/.curlrc`); the headers of a proxy's CONNECT are left
    /// out; curl stops half a second before `seconds`, so that it is curl that says what it was waiting for.
    static func invocation(_ request: CalendarRequest, credentials: String?, seconds: Double)
        -> (arguments: [String], configuration: String) {
        let tenths = max(5, Int((seconds - 0.5) * 10))
        var configuration = ["url = " + quoted(request.url), "request = " + quoted(request.method)]
        configuration += request.headers.map { "header = " + quoted($0) }
        if let credentials { configuration.append("user = " + quoted(credentials)) }
        if let body = request.body { configuration.append("data-binary = " + quoted(body)) }
        let arguments = ["curl", "-q", "--silent", "--show-error", "--proto", "=http,https",
                         "--suppress-connect-headers", "--max-time", "\(tenths / 10).\(tenths % 10)",
                         "--dump-header", "-", "--config", "-"]
        return (arguments, configuration.joined(separator: "\n") + "\n")
    }

    /// The last header block's status and ETag (a `100 Continue` block, or a proxy's `200 Connection established`,
    /// comes before it sometimes), and the body after it.
    static func answer(_ output: [UInt8]) -> CalendarAnswer? {
        var rest = output[...]
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var last: (status: Int, etag: String?)?
        while rest.starts(with: Array("HTTP/".utf8)) {
            guard let end = rest.indices.first(where: { rest[$0...].starts(with: separator) }) else { return nil }
            let head = String(decoding: rest[..<end], as: UTF8.self)
            rest = rest[(end + separator.count)...]
            let lines = head.split(separator: "\r\n")
            guard let statusLine = lines.first, case let parts = statusLine.split(separator: " "), parts.count >= 2,
                  let status = Int(parts[1]) else { return nil }
            let etag = lines.dropFirst().first { $0.lowercased().hasPrefix("etag:") }
                .map { String($0.dropFirst(5)).trimmingWhitespace }
            last = (status, etag)
        }
        guard let last, !(100..<200).contains(last.status) else { return nil }
        return CalendarAnswer(status: last.status, etag: last.etag, body: String(decoding: rest, as: UTF8.self))
    }

    /// A curl configuration's quoted string: backslash, quote and the control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\r\n": out += "\\r\\n"
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }

    /// Why curl got no answer, in words, after its exit code (curl(1), EXIT CODES), with the host.
    static func words(curlExit code: Int32, host: String, stderr: String) -> String {
        let detail = stderr.split(separator: "\n").last.map { " (\(String($0).trimmingWhitespace))" } ?? ""
        switch code {
        case 6: return "cannot find the host \(host): offline, or a typo in deliver.calendar.url"
        case 7: return "cannot connect to \(host): offline, or the server is down"
        case 28: return "\(host) did not answer in time (a run gives the calendar \(Int(CalendarChannel.timeLimit)) s)"
        case 51, 60: return "\(host)'s certificate is not trusted, so nothing was sent\(detail)"
        case 35, 53, 54, 58, 59, 66, 80, 83, 90, 91: return "TLS with \(host) failed\(detail)"
        case 52: return "\(host) closed the connection without an answer"
        case 55, 56: return "the connection to \(host) broke\(detail)"
        default: return "curl failed talking to \(host) (exit status \(code))\(detail)"
        }
    }
}

extension CalendarClient {
    /// How long the password command may take, at most.
    static let passwordCommandTimeout: Double = 5

    /// "user:password" (`CalendarSettings.credentials`), from the first line `passwordCommand` prints and
    /// `~/.netrc`; nil when there is no password. A failed password command is a failure whose words never hold
    /// what it printed.
    static func credentials(_ settings: CalendarSettings, environment: [String: String],
                            before deadline: Deadline) -> Result<String?, CalendarFailure> {
        // No ~/.netrc, or one nudge cannot read: no entry (a server that needs a password then says 401).
        var netrc: String?
        if let home = environment["HOME"], case .success(let bytes) = PosixFile.contents(of: home + "/.netrc") {
            netrc = String(decoding: bytes, as: UTF8.self)
        }
        guard let command = settings.passwordCommand else { return settings.credentials(netrc: netrc, printed: nil) }
        let run = CapturedRun(command, input: [], environment: environment,
                              deadline: min(deadline, Deadline(after: passwordCommandTimeout)))
        let program = "deliver.calendar.passwordCommand (\(command[0]))"
        switch run.ending {
        case .exited(0):
            return settings.credentials(netrc: netrc, printed: String(decoding: run.stdout, as: UTF8.self))
        case .exited(let code):
            return .failure(.transport("\(program) exited with status \(code)"))
        case .killedBySignal(let signal):
            return .failure(.transport("\(program) was killed by signal \(signal)"))
        case .timedOut:
            return .failure(.transport("\(program) did not finish within \(Int(passwordCommandTimeout)) s"))
        case .notStarted(let code):
            return .failure(.transport("cannot start \(program): " + String(cString: strerror(code))))
        }
    }
}
