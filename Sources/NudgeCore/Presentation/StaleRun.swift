import FoundationEssentials

/// A plan that nobody renews (docs/promises.md): `plan` and `status` say so instead of showing an old plan as if
/// it were current. Under cron a run comes every minute, so a last run more than five minutes old means nothing
/// is being delivered. Under systemd a run comes when something is due (`nextWakeAt`) and at least every hour
/// (docs/systemd.md): it is stale five minutes after the run that was due did not come.
public enum StaleRun {
    /// How late the expected run may be before the plan is named as stale.
    static let threshold: TimeInterval = 5 * 60
    /// The longest gap between two runs under systemd: the hourly timer.
    static let systemdInterval: TimeInterval = 60 * 60

    /// The warning when the last run at `lastRunAt` is stale at `now`, else nil. `wokenBySystemd`: the last run
    /// was `nudge run --systemd`, and its plan's `nextWakeAt` (when known) is when the next one was due.
    public static func warning(lastRunAt: Date, now: Date, wokenBySystemd: Bool = false,
                               nextWakeAt: Date? = nil) -> String? {
        let age = now.timeIntervalSince(lastRunAt)
        guard wokenBySystemd else {
            guard age > threshold else { return nil }
            return "Warning: the last run was \(TextFormat.span(Int(age))) ago — the cron job or timer that runs "
                + "`nudge run` every minute may not be running. Check it with `crontab -l` "
                + "(or `systemctl --user list-timers 'nudge*'` when systemd runs nudge)."
        }
        let due = min(nextWakeAt ?? .distantFuture, lastRunAt.addingTimeInterval(systemdInterval))
        guard now.timeIntervalSince(due) > threshold else { return nil }
        return "Warning: the last run was \(TextFormat.span(Int(age))) ago and a run was due "
            + "\(TextFormat.span(Int(now.timeIntervalSince(due)))) ago — the systemd units that wake nudge may not "
            + "be running. Check them with `systemctl --user list-timers 'nudge*'`."
    }
}
