import Foundation

/// One message of the notification interface as dbus-monitor printed it: who sent it to whom, and its arguments
/// as printed (`uint32 3`, `string "default"`).
struct DBusMonitorRecord: CustomStringConvertible {
    var header: String
    var arguments: [String]
    var sender: String { Self.field("sender", header) }
    var destination: String { Self.field("destination", header) }
    var description: String { ([header] + arguments.map { "   " + $0 }).joined(separator: "\n") }

    /// Whether one argument is the string `text` (an action's identifier or label, a summary).
    func hasString(_ text: String) -> Bool { arguments.contains("string \"\(text)\"") }

    private static func field(_ name: String, _ header: String) -> String {
        guard let start = header.range(of: name + "=") else { return "" }
        return String(header[start.upperBound...].prefix { $0 != " " && $0 != ";" })
    }

    /// Every call or signal named `member` in dbus-monitor's output `text`, oldest first.
    static func all(_ member: String, in text: String) -> [DBusMonitorRecord] {
        var records: [DBusMonitorRecord] = []
        var current: DBusMonitorRecord?
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix(" ") {
                current?.arguments.append(line.trimmingCharacters(in: .whitespaces))
                continue
            }
            if let finished = current { records.append(finished) }
            current = line.contains("member=\(member)") ? DBusMonitorRecord(header: line, arguments: []) : nil
        }
        if let finished = current { records.append(finished) }
        return records
    }
}
