/// Where the zone a run plans in comes from (docs/travelling.md, "The zone"): settings.json's `timeZone`, which pins it, or the
/// system's (`TZ`, else /etc/localtime), which travels with the machine.
package enum ZoneOrigin: String, Sendable {
    case settings = "settings.json"
    case system

    package init(settingsZone: String?) {
        self = settingsZone == nil ? .system : .settings
    }

    /// "Europe/Lisbon (system)", "Europe/Berlin (settings.json)".
    package static func describe(_ zone: String, settingsZone: String?) -> String {
        "\(zone) (\(ZoneOrigin(settingsZone: settingsZone).rawValue))"
    }

    /// What `check` says of a pinned zone.
    package static func pinnedNote(_ zone: String) -> String {
        "Zone: \(zone), pinned by settings.json (\"timeZone\"): daily times keep its clock wherever the machine is; "
            + "remove \"timeZone\" to follow the system's zone"
    }

    /// What a run says once when its zone is not the last run's.
    package static func changedNote(from previous: String, to zone: String, settingsZone: String?) -> String {
        "the zone is now \(describe(zone, settingsZone: settingsZone)), was \(previous): daily times follow its clock"
    }
}
