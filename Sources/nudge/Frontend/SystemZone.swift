import Foundation

/// The zone nudge works in: `settings.timeZone`, else `TZ`, else `/etc/localtime`, else UTC (SPEC §2).
enum SystemZone {
    /// `environment` defaults to the process's, read only when the settings name no zone.
    static func resolve(settingsZone: String?, environment: [String: String]? = nil) -> TimeZone {
        if let name = settingsZone, let zone = TimeZone(identifier: name) { return zone }
        if var name = (environment ?? ProcessInfo.processInfo.environment)["TZ"], !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            if let zone = zone(named: name) { return zone }
        }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
           let zone = zone(named: target) {
            return zone
        }
        if let name = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8),
           let zone = zone(named: name.trimmingCharacters(in: .whitespacesAndNewlines)) {
            return zone
        }
        return TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
    }

    /// A zone from an IANA name or a path into a zoneinfo tree (`/usr/share/zoneinfo/Europe/Berlin`).
    private static func zone(named name: String) -> TimeZone? {
        var identifier = name
        if let range = name.range(of: "zoneinfo/") {
            identifier = String(name[range.upperBound...])
        }
        return TimeZone(identifier: identifier)
    }
}
