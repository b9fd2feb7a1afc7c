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
        // A user name in the address ("@" before the path), a query, a fragment or white space: no collection URL.
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")),
              !rest.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 <= 0x20 })
        else { return nil }
        var host = authority[...]
        var port = host[host.endIndex...]
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            port = host[(close + 1)...]
            host = host[(host.startIndex + 1)..<close]
        } else if let colon = host.lastIndex(of: UInt8(ascii: ":")) {
            port = host[colon...]
            host = host[..<colon]
        }
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard !host.isEmpty, port.isEmpty || port.first == UInt8(ascii: ":") && port.count > 1
                && port.dropFirst().allSatisfy(isDigit) else { return nil }
        self.scheme = scheme
        self.host = String(decoding: host, as: UTF8.self).lowercased()
        let path = String(decoding: rest.dropFirst(authority.count), as: UTF8.self)
        // The same collection is the same URL, however its host was spelt.
        self.text = scheme + "://" + String(decoding: authority, as: UTF8.self).lowercased()
            + (path.hasSuffix("/") ? path : path + "/")
    }

    /// The loopback names and addresses: the only hosts plain `http` may reach (a server on this machine).
    var isLoopback: Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return host == "localhost" || host == "::1" || parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    }
}
