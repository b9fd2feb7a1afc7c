/// The systemd user units `nudge init --systemd` writes (docs/systemd.md): nudge runs when something is due
/// (the transient `nudge.timer` each run arms at the plan's `nextWakeAt`), when a user file changes
/// (`nudge.path`), and every hour, at login and when the clock or the zone changes (`nudge-hourly.timer`). Every
/// calendar time is in UTC: a local one skips the repeated hour when the clocks fall back.
public enum SystemdUnits {
    static let serviceName = "nudge.service"
    /// The run a critical record's wake starts, resuming the machine where it can (`SystemdWake.alarmTimerName`).
    static let alarmServiceName = "nudge-alarm.service"
    static let pathName = "nudge.path"
    static let hourlyTimerName = "nudge-hourly.timer"
    /// The one line that turns the units on, printed after the files are written. Starting the hourly timer
    /// runs nudge at once (`OnActiveSec=0`), and that run arms the next wake.
    public static let enableCommand =
        "systemctl --user daemon-reload && systemctl --user enable --now nudge-hourly.timer nudge.path"

    /// Every unit for the binary at `binary` (its real path) and the data directory at `dataDirectory`
    /// (absolute), by file name. Both are written out: a unit must not depend on a shell's PATH or environment.
    /// A path inside `home` is written with the specifier `%h` (the home directory of the manager's user), so
    /// that the same units serve every user: `packaged` are these, for a distribution's package.
    /// `watched` is what `nudge.path` watches (`Watched`).
    package static func files(binary: String, dataDirectory: String, watched: Watched,
                             home: String? = nil) -> [(name: String, content: String)] {
        let place = UnitPaths(home: home)
        return [
            (serviceName, service(binary: binary, dataDirectory: dataDirectory, place: place)),
            (alarmServiceName, service(binary: binary, dataDirectory: dataDirectory, alarm: true, place: place)),
            (pathName, path(dataDirectory: dataDirectory, watched: watched, place: place)),
            (hourlyTimerName, hourlyTimer),
        ]
    }

    /// The units a distribution's package installs in /usr/lib/systemd/user (docs/packaging.md): the binary at
    /// /usr/bin/nudge, the default data directory of every user, `%h/.local/share/nudge`, whose own files are in
    /// the state directory.
    static let packaged = files(binary: "/usr/bin/nudge", dataDirectory: "/home/user/.local/share/nudge",
                                watched: .directory(linkedDirectories: []), home: "/home/user")

    /// What `nudge.path` watches (docs/systemd.md, "Every save planned").
    package enum Watched: Equatable, Sendable {
        /// The data directory itself, when it holds only the person's files (nudge's own are in the state
        /// directory): any file written, renamed in or out, created or removed there starts a run. Plus the
        /// directories of the targets of user files that are symbolic links.
        case directory(linkedDirectories: [String])
        /// Each user file, when nudge's own files share the directory: watching the directory would make each
        /// run start the next.
        case eachFile
    }

    /// How a unit writes a path: with `%h` for the home directory when it lies inside it.
    struct UnitPaths {
        var home: String?

        /// `path` relative to the home directory, when it is inside it.
        func insideHome(_ path: String) -> String? {
            guard let home, !home.isEmpty, home != "/" else { return nil }
            let prefix = home.hasSuffix("/") ? home : home + "/"
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
        }
    }

    /// A oneshot run that arms the next wake (`--systemd`). It waits for the lock rather than fail while the
    /// other service or a click holds it, leaves its click waiters running, adds no "Starting…"/"Finished…"
    /// line to the journal (nudge's own lines carry their priority: `<3>` errors), and is started again 5 s after
    /// it was killed: a killed run may have armed nothing. Any number of starts: five within 10 s (the manager's
    /// default limit) fail the service and the path unit that starts it.
    static func service(binary: String, dataDirectory: String, alarm: Bool = false,
                        place: UnitPaths = UnitPaths()) -> String {
        let command = [execPath(binary, place), "run", "--quiet", "--systemd", "--wait", "30", "--data",
                       execPath(dataDirectory, place)]
        return """
        [Unit]
        Description=\(alarm ? "nudge notification planner, woken for a critical alarm" : "nudge notification planner")
        # Every save starts a run (nudge.path): a burst of saves must not trip the start limit, which would leave
        # nudge.path failed until the next login.
        StartLimitIntervalSec=0

        [Service]
        Type=oneshot
        ExecStart=\(command.joined(separator: " "))
        # The click waiters of desktop notifications outlive the run: stop only the run itself.
        KillMode=process
        LogLevelMax=notice
        # A run killed (SIGKILL, a crash) may not have armed the next wake: run again.
        Restart=on-abnormal
        RestartSec=5s

        """
    }

    /// Runs nudge when a user file is written, renamed into place or removed: an edit by hand is planned within
    /// a second or two.
    static func path(dataDirectory: String, watched: Watched, place: UnitPaths = UnitPaths()) -> String {
        var paths: [String]
        switch watched {
        case .directory(let linked):
            paths = [dataDirectory]
            for directory in linked where !paths.contains(directory) { paths.append(directory) }
        case .eachFile:
            paths = UserFile.allCases.map { dataDirectory + "/" + $0.fileName }
        }
        let watched = paths.map { full in
            "PathChanged=" + (place.insideHome(full).map { "%h/" + pathValue($0) } ?? pathValue(full))
        }
        return """
        [Unit]
        Description=Run nudge when a file of its data directory changes

        [Path]
        \(watched.joined(separator: "\n"))
        Unit=\(serviceName)

        [Install]
        WantedBy=default.target

        """
    }

    /// The safety net: every hour on the hour (UTC), at once when the manager starts (login) or the timer is
    /// enabled, and when the clock is set or the zone changes. `Persistent=true` runs an hour missed while the
    /// machine was off or asleep as soon as it is back.
    static let hourlyTimer = """
        [Unit]
        Description=Run nudge every hour, at login and when the clock or the time zone changes

        [Timer]
        OnCalendar=*-*-* *:00:00 UTC
        OnActiveSec=0
        OnClockChange=yes
        OnTimezoneChange=yes
        AccuracySec=1s
        Persistent=true
        Unit=\(serviceName)

        [Install]
        WantedBy=timers.target

        """

    /// A path as a unit file's path setting reads it: `%` (specifiers) doubled.
    static func pathValue(_ path: String) -> String {
        path.split(separator: "%", omittingEmptySubsequences: false).joined(separator: "%%")
    }

    /// A path as one argument of `ExecStart=`: `%h/…` when it lies in the home directory.
    static func execPath(_ path: String, _ place: UnitPaths) -> String {
        guard let inside = place.insideHome(path) else { return execArgument(path) }
        let escaped = execArgument(inside)
        // Quoted or not, the specifier goes inside: "%h/My Files/nudge".
        return escaped.hasPrefix("\"") ? "\"%h/" + escaped.dropFirst() : "%h/" + escaped
    }

    /// One argument of `ExecStart=` as systemd reads it: `%` (specifiers) and `$` (variables) doubled, and
    /// quoted with `\` and `"` escaped when it holds a space, a quote, a backslash or a `;`.
    static func execArgument(_ argument: String) -> String {
        var escaped = ""
        for character in argument {
            switch character {
            case "%": escaped += "%%"
            case "$": escaped += "$$"
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            default: escaped.append(character)
            }
        }
        let needsQuotes = argument.isEmpty || argument.contains { " \t\"'\\;".contains($0) }
        return needsQuotes ? "\"" + escaped + "\"" : escaped
    }
}
