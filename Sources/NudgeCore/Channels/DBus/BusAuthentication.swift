/// The text protocol a D-Bus connection begins with (SASL): the client proves who it is by the uid the kernel
/// reports for the socket (EXTERNAL), the bus answers `OK <guid>`, and `BEGIN` switches to messages.
public enum BusAuthentication {
    /// The first bytes a client sends: the credentials byte (0) and the EXTERNAL request with the uid in hex of
    /// its decimal digits (uid 1000 → "31303030").
    public static func request(uid: UInt32) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        var line: [UInt8] = [0] + Array("AUTH EXTERNAL ".utf8)
        for digit in String(uid).utf8 { line += [hex[Int(digit >> 4)], hex[Int(digit & 0xf)]] }
        return line + Array("\r\n".utf8)
    }

    public static let begin = Array("BEGIN\r\n".utf8)

    public enum Answer: Equatable, Sendable {
        /// Accepted; the bus's guid.
        case accepted(String)
        /// Refused, with the line the bus sent.
        case refused(String)
    }

    /// The bus's answer line (without its CR LF).
    public static func answer(_ line: String) -> Answer {
        line.hasPrefix("OK ") ? .accepted(String(line.dropFirst(3))) : .refused(line)
    }
}
