/// The systemd user units `nudge init --systemd` writes (SPEC §9): a oneshot service that runs the installed
/// binary, and a timer that starts it every minute.
public enum SystemdUnits {
    public static let serviceName = "nudge.service"
    public static let timerName = "nudge.timer"
    /// The one line that turns the timer on, printed after the files are written.
    public static let enableCommand = "systemctl --user daemon-reload && systemctl --user enable --now nudge.timer"

    /// `nudge.service` for the binary at `binary` (its real path) and the data directory at `dataDirectory`
    /// (absolute). Both are written out: the unit must not depend on a shell's PATH or environment.
    public static func service(binary: String, dataDirectory: String) -> String {
        let command = [binary, "run", "--quiet", "--linger", "59", "--data", dataDirectory].map(execArgument)
        return """
        [Unit]
        Description=nudge notification planner

        [Service]
        Type=oneshot
        ExecStart=\(command.joined(separator: " "))
        # The click waiters of desktop notifications outlive the run: stop only the run itself.
        KillMode=process
        # No "Starting…"/"Finished…" line per run; nudge's own lines carry their priority (<3> errors).
        LogLevelMax=notice

        """
    }

    /// `nudge.timer`: every minute on the minute; `Persistent=true` runs a missed start after a suspend or a
    /// shutdown at once, and nudge then delivers what fell due meanwhile.
    public static let timer = """
        [Unit]
        Description=Run nudge every minute

        [Timer]
        OnCalendar=*-*-* *:*:00
        AccuracySec=1s
        Persistent=true

        [Install]
        WantedBy=timers.target

        """

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
