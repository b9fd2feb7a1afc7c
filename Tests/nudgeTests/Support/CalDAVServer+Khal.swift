import Foundation
import XCTest

/// What a person's own calendar program shows of a collection: vdirsyncer syncs it (read-only, as the harness's
/// User-Agent) into a directory of its own, and khal lists that directory. Both run with configuration files,
/// HOME and XDG directories in a fresh directory under the server's, in UTC, so nothing of the user's
/// `~/.config` is read or written.
extension CalDAVServer {
    /// `khal list FROM DAYSd` of the collection `name` after a fresh sync: a heading per day (`Saturday,
    /// 2026-11-21`), then each event as `10:45-10:46 Take the laundry out (A) :: The wash is done`, where ` (A)`
    /// says khal found an alarm it can show (a DISPLAY alarm with a relative trigger).
    func khalList(collection name: String, from start: Date, days: Int) throws -> String {
        let vdirsyncer = try ExternalTool.require("vdirsyncer")
        let khal = try ExternalTool.require("khal")
        let directory = root.appendingPathComponent("khal-\(UUID().uuidString)")
        for folder in ["home", "calendar", "status"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder),
                                                    withIntermediateDirectories: true)
        }
        let home = directory.appendingPathComponent("home").path
        let environment = ["PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TZ": "UTC",
                           "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
                           "XDG_CACHE_HOME": home + "/.cache"]
        let syncConfiguration = directory.appendingPathComponent("vdirsyncer.conf")
        try vdirsyncerConfiguration(collection: name, directory: directory)
            .write(to: syncConfiguration, atomically: true, encoding: .utf8)
        let khalConfiguration = directory.appendingPathComponent("khal.conf")
        try Self.khalConfiguration(directory: directory)
            .write(to: khalConfiguration, atomically: true, encoding: .utf8)

        for step in [["discover", "nudge"], ["sync", "nudge"]] {
            let result = try ExternalTool.run(vdirsyncer, ["-c", syncConfiguration.path] + step,
                                              exactEnvironment: environment, workingDirectory: directory)
            guard result.status == 0 else { throw Failure(description: "vdirsyncer: \(result.summary)") }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let listed = try ExternalTool.run(khal, ["-c", khalConfiguration.path, "list",
                                                 "--format", "{start-end-time-style} {title}{alarm-symbol}"
                                                    + "{description-separator}{description}",
                                                 formatter.string(from: start), "\(days)d"],
                                          exactEnvironment: environment, workingDirectory: directory)
        guard listed.status == 0 else { throw Failure(description: "khal: \(listed.summary)") }
        return listed.stdout
    }

    /// One pair: the server's collection (read-only: the harness never writes through vdirsyncer) to a
    /// directory of .ics files.
    private func vdirsyncerConfiguration(collection name: String, directory: URL) -> String {
        """
        [general]
        status_path = "\(directory.appendingPathComponent("status").path)/"

        [pair nudge]
        a = "nudge_server"
        b = "nudge_local"
        collections = null
        conflict_resolution = "a wins"

        [storage nudge_server]
        type = "caldav"
        url = "\(collectionURL(name))"
        username = "\(user)"
        password = "\(password)"
        read_only = true
        useragent = "\(Self.harnessAgent)"

        [storage nudge_local]
        type = "filesystem"
        path = "\(directory.appendingPathComponent("calendar").path)/"
        fileext = ".ics"

        """
    }

    /// khal on the synced directory, its database beside it, in UTC, with ASCII symbols (` (A)` for an alarm).
    private static func khalConfiguration(directory: URL) -> String {
        """
        [calendars]
        [[nudge]]
        path = \(directory.appendingPathComponent("calendar").path)/
        type = calendar

        [sqlite]
        path = \(directory.appendingPathComponent("khal.db").path)

        [locale]
        local_timezone = UTC
        default_timezone = UTC
        timeformat = %H:%M
        dateformat = %Y-%m-%d
        longdateformat = %Y-%m-%d
        datetimeformat = %Y-%m-%d %H:%M
        longdatetimeformat = %Y-%m-%d %H:%M
        unicode_symbols = False

        """
    }
}
