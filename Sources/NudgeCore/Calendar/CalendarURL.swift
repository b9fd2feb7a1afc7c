import FoundationEssentials

/// A calendar collection's URL taken apart as far as nudge needs it: the scheme, the host and the path. Not
/// Foundation's URL parser: what it accepts differs between platforms, and the rule here is short.
public struct CalendarURL: Equatable, Sendable {
    /// Why a text is no URL nudge writes to.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    let scheme: String
    /// Lowercased, without the brackets of an IPv6 address.
    let host: String
    /// The URL as nudge uses it: ending in "/".
    let text: String

    /// nil unless `text` is `http://` or `https://`, a host and an optional port and path, with no user name,
    /// query, fragment or white space.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        let lowered = bytes.prefix(8).map { $0 | 0x20 }
        guard let scheme = ["https", "http"].first(where: { lowered.starts(with: Array(($0 + "://").utf8)) })
        else { return nil }
        let rest = bytes.dropFirst(scheme.utf8.count + 3)
        let authority = rest.prefix { $0 != UInt8(ascii: "/") }
        guard !authority.isEmpty,
              !rest.contains(where: { [UInt8(ascii: "@"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains($0) || $0 <= 0x20 })
        else { return nil }
        var host = authority[...]
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = host[(host.startIndex + 1)..<close]
        } else if let colon = host.lastIndex(of: UInt8(ascii: ":")) {
            guard host[(colon + 1)...].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                return nil
            }
            host = host[..<colon]
        }
        guard !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = String(decoding: host, as: UTF8.self).lowercased()
        let path = String(decoding: rest.dropFirst(authority.count), as: UTF8.self)
        self.text = scheme + "://" + String(decoding: authority, as: UTF8.self) + (path.hasSuffix("/") ? path : path + "/")
    }

    /// The loopback names and addresses: the only hosts plain `http` may reach (a server on this machine).
    var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.") && host.split(separator: ".").count == 4
    }
}
