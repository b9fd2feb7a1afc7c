import NudgeCore

/// The manual's SETTINGS, a row per key of settings.json; docs/files.md's table is made from the same rows.
extension ManualText {
    private static let defaults = Settings()

    /// settings.json's keys: the manual's SETTINGS and the table in docs/files.md are both made from these
    /// (`FilesPageTests` holds the page to them).
    static let settingRows: [SettingText] = [
        setting("timeZone", "IANA zone name", "the system's: `TZ`, else `/etc/localtime`", """
            the zone of every time of day; without it, runs follow the system's zone as it travels
            """),
        setting("notifications.enabled", "boolean", defaults.notifications.enabled, """
            the master switch: off, nudge still writes the plan but delivers nothing, says so, and records what \
            fell due as suppressed, never to be delivered later (`nudge test` still delivers)
            """),
        setting("notifications.sound", "boolean", defaults.notifications.sound, "copied into every record"),
        setting("notifications.badge", "boolean", defaults.notifications.badge, "copied into every record"),
        setting("maxPending", "1 to 10000", defaults.maxPending, """
            the budget: the plan holds at most this many records, the highest priority first, then the soonest, \
            then by id; the rest are listed as deferred and come in as slots free up. It limits the plan, never \
            delivery.
            """),
        setting("quietHours.start, quietHours.end", "HH:MM", "none", """
            medium and low notifications that fall from start (inclusive) to end (exclusive) move to the end; \
            critical and high never move. The span may wrap past midnight; equal times mean none.
            """),
        setting("deliver.desktop", "boolean",
                "\(defaults.deliverDesktop); `nudge init` sets it when a desktop session bus is there",
                "show each delivery on the desktop"),
        setting("deliver.command", "array of strings", "none", """
            a program and its arguments, run without a shell for each delivery: `{id}`, `{kind}`, `{title}`, \
            `{body}` and `{deepLink}` are replaced inside its arguments, the record is in its environment \
            (`NUDGE_TITLE` and the others under ENVIRONMENT in `man nudge`), and it gets 10 seconds; such as \
            `["logger", "-t", "nudge", "{title}: {body}"]`
            """),
        setting("deliver.calendar.url", "https URL", "none", """
            a CalDAV calendar of yours that keeps the critical and high records as events with an alarm, so that \
            every phone syncing it rings for them (docs/calendar.md); `https`, except to this \
            machine's own address; `nudge init --calendar URL` makes it
            """),
        setting("deliver.calendar.user", "string", "`login` of `~/.netrc` for the host", "the user name"),
        setting("deliver.calendar.passwordCommand", "array of strings", "`password` of `~/.netrc`", """
            a program and its arguments whose first printed line is the password, such as \
            `["secret-tool", "lookup", "service", "nudge"]`; a `password` key is an error
            """),
        setting("deliver.calendar.priorities", "array of priorities", "`[\"critical\", \"high\"]`",
                "the records kept in the calendar"),
        setting("deliver.calendar.hoursAhead", "1 to 168", CalendarEvents.defaultHoursAhead,
                "how far ahead of now records are kept there"),
        setting("laundry.enabled", "boolean", defaults.laundry.enabled, "plan laundry notifications"),
        setting("laundry.warnBeforeMinutes", "0 to 120", defaults.laundry.warnBeforeMinutes, """
            \"Almost done\" that many minutes before a wash or dry completes; 0 is off
            """),
        setting("laundry.foldReminderMinutes", "1 to 1440", defaults.laundry.foldReminderMinutes, """
            \"Still waiting to be folded\" that long after the dry completes
            """),
        setting("laundry.healthWarnAfterDays", "1 to 365", defaults.laundry.healthWarnAfterDays, """
            \"needs laundry\" when a pet with no cycle was last completed that many days ago (at 10:00 at the \
            earliest)
            """),
        setting("commute.enabled", "boolean", defaults.commute.enabled, "plan leave-times"),
        setting("commute.defaultBufferMinutes", "0 to 720", defaults.commute.defaultBufferMinutes, """
            how long before leaving a trip without `bufferMinutes` reminds you
            """),
        setting("personalized.enabled", "boolean", defaults.personalized.enabled, """
            a \"Good morning\" message every day, with a text for each weekday
            """),
        setting("personalized.firstName", "string", "none", "the name it greets; required when enabled"),
        setting("personalized.time", "HH:MM", defaults.personalized.time, "when it comes"),
        setting("alarms.enabled", "boolean", defaults.alarms.enabled, "plan prayer alarms"),
        setting("alarms.snoozeMinutes", "1 to 1440", defaults.alarms.snoozeMinutes, """
            how long `nudge snooze` and a Snooze button wait, except for laundry (10)
            """),
        setting("streaks.enabled", "boolean", defaults.streaks.enabled, "plan streak reminders"),
        setting("streaks.time", "HH:MM", defaults.streaks.time, "when the streak reminder comes"),
        setting("streaks.smart", "boolean", defaults.streaks.smart, """
            learn the time instead: 30 minutes before the two hours with the most plays in the last 30 days, \
            between 06:00 and 22:00, worked out again every two days (shown by `nudge status`)
            """),
        setting("streaks.milestones", "list of days", "[7, 30, 100, 365]", """
            streak lengths that unlock "Achievement unlocked: 30-day streak", once per game and milestone \
            (kept in `state.json`); `[]` turns them off
            """),
        setting("prayerTimes.latitude, prayerTimes.longitude", "degrees, -90 to 90 and -180 to 180", "none", """
            where the prayer times of alarms with `prayer` are computed (north and east positive); both are \
            needed for such an alarm and for `nudge times`
            """),
        setting("prayerTimes.method", "name or object", "MWL", """
            `MWL` (fajr 18°, isha 17°), `ISNA` (15°, 15°), `Egypt` (19.5°, 17.5°), `Makkah` (18.5°, isha 90 \
            minutes after maghrib), `Karachi` (18°, 18°), `Tehran` (17.7°, 14°, maghrib at 4.5°), `Jafari` (16°, \
            14°, maghrib at 4°), or your own `{ "fajrAngle": 0 to 30, "ishaAngle": 0 to 30 }` or with \
            `"ishaMinutes": 0 to 240` instead of `ishaAngle`
            """),
        setting("prayerTimes.asr", "standard or hanafi", "standard", """
            asr when a shadow is its noon length plus the object's length (`standard`) or twice it (`hanafi`)
            """),
        setting("prayerTimes.highLatitude", "angleBased, middleOfNight, seventhOfNight or none", "angleBased", """
            where the sun does not go deep enough, fajr is never earlier than sunrise minus a part of the night \
            and isha never later than sunset plus it: the angle / 60, a half, a seventh; `none`: no bound, and \
            an alarm whose angle is not reached does not ring that day
            """),
        setting("prayerTimes.polar", "none, nearestLatitude, nearestDay or 0 to 65", "none", """
            what a time the sun does not allow that day becomes (the midnight sun, the polar night): `none`, it \
            does not ring; `nearestLatitude`, the time at the nearest latitude toward the equator, in 0.5° steps, \
            where it exists that day; `nearestDay`, the time of the nearest date (the earlier on a tie) on which \
            it exists; a number, the time at that latitude. Only missing times change, and a day's missing times \
            come together from one latitude or date; `nudge times` marks them with *
            """),
        setting("prayerTimes.adjustMinutes", "object of -60 to 60 per prayer", "0", """
            minutes added to `fajr`, `sunrise`, `dhuhr`, `asr`, `maghrib` or `isha` (a mosque's timetable)
            """),
    ]

    static let settings: [ManualBlock] = [.paragraph("`settings.json` is one object; every key is optional.")]
        + settingRows.map(\.block)

    /// One key of settings.json: its path, what it takes, its default (from `Settings()`) and what it does.
    private static func setting(_ key: String, _ type: String, _ value: Any, _ meaning: String) -> SettingText {
        SettingText(keys: key.split(separator: ",").map { String($0).trimmingWhitespace }, type: type,
                    defaultValue: "\(value)", meaning: meaning)
    }
}
