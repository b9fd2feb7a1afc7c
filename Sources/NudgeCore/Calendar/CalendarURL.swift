import FoundationEssentials

/// A calendar collection's URL taken apart as far as nudge needs it: the scheme, the host and the path. Not
/// Foundation's URL parser: what it accepts differs between platforms, and the rule here is short.
public struct CalendarURL: Equatable, Sendable {
    /// Why a text is no URL nudge writes to.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    let scheme: String
    let host: String
    /// The path from its first "/", always ending in "/".
    let path: String
    /// Everything before the path: `https://dav.example.org:8443`.
    let origin: String

    /// nil unless `text` is `http://` or `https://`, a host and an optional port and path, with no user name,
    /// query or fragment.
    init?(_ text: String) {
        let lowered = text.lowercased()
        guard let scheme = ["https", "http"].first(where: { lowered.hasPrefix($0 + "://") }) else { return nil }
        let rest = text.dropFirst(scheme.count + 3)
        let authority = rest.prefix { $0 != "/" }
        guard !authority.isEmpty, !authority.contains("@"), !rest.contains("?"), !rest.contains("#"),
              !rest.contains(where: { $0 == " " || $0.isNewline }) else { return nil }
        var host = String(authority)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy({ $0.isNumber }) else { return nil }
            host = String(host[..<colon])
        }
        guard !host.isEmpty else { return nil }
        let path = String(rest.dropFirst(authority.count))
        self.scheme = scheme
        self.host = host.lowercased()
        self.path = path.hasSuffix("/") ? path : path + "/"
        origin = scheme + "://" + authority
    }

    /// The URL as nudge uses it: the collection's, ending in "/".
    var text: String { origin + path }

    /// The loopback names and addresses: the only hosts plain `http` may reach (a server on this machine).
    var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.") && host.split(separator: ".").count == 4
    }

    /// The URL of the collection's member `name` (already escaped for a path).
    func member(_ name: String) -> String { text + name }
}
