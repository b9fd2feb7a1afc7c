import FoundationEssentials

/// The zone nudge works in and, when it is not exactly the one `TZ` asks for, the warning that says which zone
/// is used instead (docs/promises.md): a zone other than the one a person set is never used silently.
public struct ZoneChoice: Sendable {
    public var zone: Zone
    /// For `check` and `status`; nil when the zone is exactly what was asked for.
    public var warning: String?

    public init(zone: Zone, warning: String? = nil) {
        self.zone = zone
        self.warning = warning
    }

    static func ruleFollowedWarning(_ tz: String, using zone: Zone) -> String {
        "TZ=\"\(tz)\" is a POSIX rule nudge cannot follow exactly; using \(zone.identifier) instead, which follows "
            + "the same rule today (set settings.json timeZone to an IANA name such as \(zone.identifier))"
    }

    static func ruleWarning(_ tz: String, using zone: Zone) -> String {
        "TZ=\"\(tz)\" is a POSIX rule nudge cannot follow exactly; using \(zone.identifier) instead, whose times "
            + "may differ from it (set settings.json timeZone to your zone's IANA name, such as Europe/Berlin)"
    }

    static func unknownWarning(_ tz: String, using zone: Zone) -> String {
        "TZ=\"\(tz)\" is not a time zone nudge knows; using \(zone.identifier) instead (set settings.json "
            + "timeZone to your zone's IANA name, such as Europe/Berlin)"
    }

    /// The name settings.json can hold for `zone`, an IANA name: its identifier, or for a whole-hour fixed offset
    /// IANA's `Etc/GMT-9` (POSIX signs: nine hours ahead). Nil for an offset IANA has no name for (+05:30).
    /// `zoneNamed` finds the zone an IANA name stands for.
    static func settingsName(for zone: Zone, zoneNamed: (String) -> Zone?) -> String? {
        let identifier = zone.identifier
        if !Settings.isOffsetName(identifier), zoneNamed(identifier) != nil { return identifier }
        let offset = zone.secondsFromGMT(atUTC: 0)
        guard zone.isFixed, offset % 3_600 == 0, (-12...14).contains(offset / 3_600) else { return nil }
        let hours = offset / 3_600
        return hours == 0 ? "Etc/UTC" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
    }

    /// `settingsZone` (an IANA name, validated when settings.json was read) wins; else `tz`, the `TZ` variable
    /// as set; else `system()`, the zone of /etc/localtime. `zoneNamed` finds the zone a name stands for: an IANA
    /// name of the tz database, or a fixed offset `Zone` names (`GMT+0100`).
    ///
    /// `tz` may be an IANA name, also after a `:`; a path to a zone file, which `file` reads (also a name
    /// relative to the zoneinfo tree, such as `posix/Europe/Berlin`); or a POSIX TZ string. Without daylight
    /// time that string is a fixed offset, honoured exactly. With daylight time no `Zone` can follow it: the
    /// zone `following` finds with the same rule today is used, else the system zone, and the warning says so.
    /// `GMT-3` and `UTC+5` are POSIX strings here, three hours ahead and five behind, as for every other program
    /// (Foundation's `TimeZone(identifier:)` reads them with the opposite sign).
    public static func choose(settingsZone: String?, tz: String?, zoneNamed: (String) -> Zone?, system: () -> Zone,
                              file: (String) -> Zone?, following: (PosixTimeZone) -> Zone?) -> ZoneChoice {
        if let name = settingsZone, let zone = zoneNamed(name) { return ZoneChoice(zone: zone) }
        guard let tz, !tz.isEmpty else { return ZoneChoice(zone: system()) }
        let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        if name.hasPrefix("/") {
            if let zone = file(name) { return ZoneChoice(zone: zone) }
        } else if !Settings.isOffsetName(name), let zone = zoneNamed(name) {
            return ZoneChoice(zone: zone)
        } else if let rule = PosixTimeZone.parse(name) {
            if let zone = rule.fixedZone { return ZoneChoice(zone: zone) }
            if rule.daylight != nil, let zone = following(rule) {
                return ZoneChoice(zone: zone, warning: ruleFollowedWarning(tz, using: zone))
            }
            let zone = system()
            return ZoneChoice(zone: zone, warning: ruleWarning(tz, using: zone))
        } else if let zone = file(name) {
            return ZoneChoice(zone: zone)
        }
        let zone = system()
        return ZoneChoice(zone: zone, warning: unknownWarning(tz, using: zone))
    }
}
