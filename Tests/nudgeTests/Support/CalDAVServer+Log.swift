import Foundation

/// What the server was asked, read from its own log: each request's method, path, status and User-Agent, in the
/// order the server answered them. The server writes them, not the harness, so a request nudge made cannot be
/// missed by a count ("1,000 quiet runs make no request").
///
/// Radicale (log level info) writes two lines a request, paired here by their thread:
///     [2026-12-06 16:57:42 +0000] [32561/Thread-1 (process_request_thread)] [INFO] PUT request for
///       '/sam/nudge/a.ics' received from 127.0.0.1 using 'curl/7.88.1'
///     [2026-12-06 16:57:42 +0000] [32561/Thread-1 (process_request_thread)] [INFO] PUT response status for
///       '/sam/nudge/a.ics' in 0.005 seconds: 201 Created
/// Xandikos writes aiohttp's access log, one line a request (its path as sent, percent-encoded):
///     INFO:aiohttp.access:127.0.0.1 [06/Dec/2026:16:58:13 +0000] "PUT /user/calendars/nudge/a.ics HTTP/1.1" 201
///       0 "-" "curl/7.88.1"
extension CalDAVServer {
    struct Request: Equatable, CustomStringConvertible {
        let method: String
        /// The path as the server logged it, percent-decoded.
        let path: String
        let status: Int
        let agent: String

        /// Made by the harness itself (a reader, MKCALENDAR, DELETE, khal's sync), not by the product.
        var isHarness: Bool { agent == CalDAVServer.harnessAgent }
        var description: String { "\(method) \(path) \(status)" }
    }

    /// Every request the server has answered since its first start, oldest first; without the harness's own
    /// unless asked. Before reading, sends a request of its own and waits until the log shows it: what was
    /// answered before is then in the log too (Xandikos writes its access line just after the answer).
    func requests(includingHarness: Bool = false) throws -> [Request] {
        if isRunning {
            let fence = "/.harness-fence-\(UUID().uuidString)"
            _ = LoopbackHTTP.status("OPTIONS", fence, port: port, agent: Self.harnessAgent)
            try Waiting.until("\(kind.rawValue)'s log to show the request for \(fence)", timeout: 10) {
                loggedRequests().contains { $0.path == fence }
            }
        }
        return loggedRequests().filter {
            !$0.path.hasPrefix("/.harness-") && (includingHarness || !$0.isHarness)
        }
    }

    private func loggedRequests() -> [Request] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").map(String.init)
        switch kind {
        case .radicale: return Self.radicaleRequests(lines)
        case .xandikos: return lines.compactMap(Self.xandikosRequest)
        }
    }

    private static let radicaleAsked = regex(
        #"^\[[^\]]*\] \[([^\]]*)\] \[INFO\] (\S+) request for (['"])(.*?)\3(?: with depth '[^']*')? "#
        + #"received from .*?(?: using (['"])(.*)\5)?$"#)
    private static let radicaleAnswered = regex(
        #"^\[[^\]]*\] \[([^\]]*)\] \[INFO\] (\S+) response status for (['"])(.*?)\3(?: with depth '[^']*')? "#
        + #"in [0-9.]+ seconds: ([0-9]{3})"#)
    private static let xandikosAnswered = regex(
        #"^INFO:aiohttp\.access:\S+ \[[^\]]*\] "(\S+) (\S+) [^"]*" ([0-9]{3}) \S+ "[^"]*" "(.*)"$"#)

    private static func radicaleRequests(_ lines: [String]) -> [Request] {
        var asked: [String: (agent: String, path: String)] = [:]
        var answered: [Request] = []
        for line in lines {
            if let groups = match(radicaleAsked, line) {
                asked[groups[1]] = (agent: groups[6], path: groups[4])
            } else if let groups = match(radicaleAnswered, line), let status = Int(groups[5]) {
                let request = asked.removeValue(forKey: groups[1])
                answered.append(Request(method: groups[2], path: request?.path ?? groups[4], status: status,
                                        agent: request?.agent ?? ""))
            }
        }
        return answered
    }

    private static func xandikosRequest(_ line: String) -> Request? {
        guard let groups = match(xandikosAnswered, line), let status = Int(groups[3]) else { return nil }
        let path = groups[2].split(separator: "?", maxSplits: 1).first.map(String.init) ?? groups[2]
        return Request(method: groups[1], path: path.removingPercentEncoding ?? path, status: status,
                       agent: groups[4])
    }

    private static func regex(_ pattern: String) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern)
        } catch {
            preconditionFailure("the harness's log pattern does not compile: \(error)")
        }
    }

    /// The groups of `pattern`'s match of the whole line (group 0 the line), "" for a group that took no part.
    private static func match(_ pattern: NSRegularExpression, _ line: String) -> [String]? {
        let text = line as NSString
        guard let found = pattern.firstMatch(in: line, range: NSRange(location: 0, length: text.length)) else {
            return nil
        }
        return (0..<found.numberOfRanges).map {
            found.range(at: $0).location == NSNotFound ? "" : text.substring(with: found.range(at: $0))
        }
    }
}
