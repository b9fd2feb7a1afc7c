import FoundationEssentials

/// A plan that nobody renews (SPEC §11.23): cron or the timer runs nudge every minute, so a last run more than
/// five minutes old means nothing is being delivered. `plan` and `status` say so instead of showing an old plan
/// as if it were current.
public enum StaleRun {
    /// Older than this, the last run is named as stale.
    public static let threshold: TimeInterval = 5 * 60

    /// The warning when the last run at `lastRunAt` is stale at `now`, else nil.
    public static func warning(lastRunAt: Date, now: Date) -> String? {
        let age = now.timeIntervalSince(lastRunAt)
        guard age > threshold else { return nil }
        return "Warning: the last run was \(TextFormat.span(Int(age))) ago — the timer that runs `nudge run` "
            + "every minute may not be running. Check it with `systemctl --user status nudge.timer` "
            + "(or `crontab -l` when cron runs nudge)."
    }
}
