import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The zone nudge works in: `settings.timeZone`, else `TZ`, else `/etc/localtime`, else UTC (docs/travelling.md). The
/// choice itself is `ZoneChoice`'s; this reads what it needs from the environment and the zoneinfo files.
enum SystemZone {
    /// The folders of the zoneinfo tree searched for a zone that follows a POSIX rule, most people first.
    static let regions = ["Europe", "America", "Asia", "Africa", "Australia", "Pacific", "Atlantic", "Indian",
                          "Antarctica"]

    static func resolve(settingsZone: String?) -> Zone {
        choose(settingsZone: settingsZone).zone
    }

    /// The zone, and a warning when `TZ` asks for one nudge cannot follow exactly. `TZ` is read only when the
    /// settings name no zone, and alone (getenv), not with the rest of the environment.
    /// `zoneNamed` finds a zone by name, in the tz database unless the caller has read it already.
    static func choose(settingsZone: String?,
                       zoneNamed: (String) -> Zone? = ZoneDatabase.zone(named:)) -> ZoneChoice {
        if let name = settingsZone, let zone = zoneNamed(name) { return ZoneChoice(zone: zone) }
        return ZoneChoice.choose(settingsZone: nil, tz: ProcessEnvironment.variable("TZ"),
                                 zoneNamed: zoneNamed, system: system, file: zone(inFile:),
                                 following: zone(following:))
    }

    /// The zone of /etc/localtime (a link into the zoneinfo tree), else /etc/timezone, else UTC.
    static func system() -> Zone {
        if let zone = zone(inFile: "/etc/localtime") { return zone }
        if let name = (try? PosixFile.contents(of: "/etc/timezone").get()).map({ String(decoding: $0, as: UTF8.self) }),
           let zone = ZoneDatabase.zone(named: String(name.split(whereSeparator: \.isWhitespace).first ?? "")) {
            return zone
        }
        return ZoneDatabase.zone(named: "UTC") ?? .utc
    }

    /// The zone a zone file names: its path inside a zoneinfo tree, as its link says or after following every
    /// link (`/etc/localtime` → `/usr/share/zoneinfo/Europe/Berlin`); a relative path is one inside the tree. A
    /// file elsewhere counts when its rule is a fixed offset.
    static func zone(inFile path: String) -> Zone? {
        let full = path.hasPrefix("/") ? path : ZoneDatabase.path + "/" + path
        if let target = SymbolicLink.readLink(full),
           let zone = zone(namedBy: target) {
            return zone
        }
        guard let resolved = realpath(full, nil) else { return nil }
        let target = String(cString: resolved)
        free(resolved)
        if let zone = zone(namedBy: target) { return zone }
        return (try? PosixFile.contents(of: target).get())
            .flatMap(PosixTimeZone.footer(ofTZif:)).flatMap(PosixTimeZone.parse)?.fixedZone
    }

    /// The zone of a path inside a zoneinfo tree (`…/zoneinfo/posix/Europe/Berlin` too).
    private static func zone(namedBy path: String) -> Zone? {
        guard let range = path.firstRange(of: "zoneinfo/") else { return nil }
        var identifier = String(path[range.upperBound...])
        for variant in ["posix/", "right/"] where identifier.hasPrefix(variant) {
            identifier.removeFirst(variant.count)
        }
        return ZoneDatabase.zone(named: identifier)
    }

    /// A zone that keeps the same time as `rule` today: the system zone when its rule is the same, else the
    /// first such zone of the zoneinfo tree. Only read when `TZ` holds a rule with daylight time.
    static func zone(following rule: PosixTimeZone) -> Zone? {
        func follows(_ path: String) -> Bool {
            guard let data = try? PosixFile.contents(of: path).get(),
                  let footer = PosixTimeZone.footer(ofTZif: data), let theirs = PosixTimeZone.parse(footer) else {
                return false
            }
            return theirs.keepsTheSameTime(as: rule)
        }
        if follows("/etc/localtime"), let zone = zone(inFile: "/etc/localtime") { return zone }
        for region in regions {
            for name in zoneNames(under: region) where follows(ZoneDatabase.path + "/" + name) {
                if let zone = ZoneDatabase.zone(named: name) { return zone }
            }
        }
        return nil
    }

    /// The zone names under a folder of the zoneinfo tree, sorted, subfolders included (`America/Indiana/…`).
    private static func zoneNames(under folder: String) -> [String] {
        var names: [String] = []
        for entry in PosixFile.names(in: ZoneDatabase.path + "/" + folder).sorted() where !entry.hasPrefix(".") {
            let name = folder + "/" + entry
            var info = stat()
            guard stat(ZoneDatabase.path + "/" + name, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                names += zoneNames(under: name)
            } else {
                names.append(name)
            }
        }
        return names
    }
}
