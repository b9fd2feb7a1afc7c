/// Where a D-Bus address (`DBUS_SESSION_BUS_ADDRESS`) says the bus listens: `unix:path=/run/user/1000/bus`,
/// `unix:abstract=/tmp/dbus-XYZ,guid=…`, or several of them separated by `;`, the first usable one counting.
/// Values are percent-escaped. Other transports (tcp, launchd) are not a desktop's session bus on Linux.
public enum BusAddress: Equatable, Sendable {
    case path(String)
    case abstract(String)

    public static func parse(_ address: String) -> BusAddress? {
        for entry in address.split(separator: ";") {
            guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == "unix" else { continue }
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                guard let equals = pair.firstIndex(of: "="),
                      let value = unescape(pair[pair.index(after: equals)...]), !value.isEmpty else { continue }
                switch pair[..<equals] {
                case "path": return .path(value)
                case "abstract": return .abstract(value)
                default: continue
                }
            }
        }
        return nil
    }

    /// `%2f` → `/`; nil for a broken escape.
    static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
