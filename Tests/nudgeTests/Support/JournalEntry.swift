import Foundation

/// One record of a journal as `journalctl --output=json` prints it: the fields the tests read.
///
/// Under `SystemdUserManager` with its journal (systemd 252, the manager run as root), the manager's own line about
/// a unit ("Starting nudge.service...") carries `USER_UNIT` (and `SYSLOG_IDENTIFIER=systemd`, `_TRANSPORT=journal`);
/// a line a service writes to stdout or stderr carries `_SYSTEMD_USER_UNIT`, which journald takes from the writer's
/// cgroup (with `SYSLOG_IDENTIFIER` its program's name, `_TRANSPORT=stdout`). `journalctl --user-unit` selects both.
struct JournalEntry: CustomStringConvertible {
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// `PRIORITY`: 3 error, 4 warning, 5 notice, 6 info.
    let priority: Int?
    let message: String
    /// `USER_UNIT`: the unit a user manager's own line is about.
    let userUnit: String?
    /// `_SYSTEMD_USER_UNIT`: the user unit whose process wrote the line.
    let writerUnit: String?
    /// `SYSLOG_IDENTIFIER`: `systemd` for the manager, the program's name for a service's output.
    let identifier: String?

    /// The entry of one line of `journalctl --output=json`.
    init(json line: Substring) throws {
        guard let fields = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Unreadable(description: "not a journal entry in JSON: \(line)")
        }
        priority = (fields["PRIORITY"] as? String).flatMap { Int($0) }
        message = Self.text(fields["MESSAGE"])
        userUnit = fields["USER_UNIT"] as? String
        writerUnit = fields["_SYSTEMD_USER_UNIT"] as? String
        identifier = fields["SYSLOG_IDENTIFIER"] as? String
    }

    /// A field's text: journalctl prints a value that is not printable UTF-8 as an array of its bytes.
    private static func text(_ value: Any?) -> String {
        if let text = value as? String { return text }
        let bytes = (value as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.uint8Value }
        return String(decoding: bytes, as: UTF8.self)
    }

    var description: String {
        let unit = userUnit.map { "USER_UNIT=\($0)" } ?? writerUnit.map { "_SYSTEMD_USER_UNIT=\($0)" } ?? "-"
        return "PRIORITY=\(priority.map(String.init) ?? "-") \(identifier ?? "-") \(unit) MESSAGE=\(message)"
    }
}
