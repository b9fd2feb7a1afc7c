import NudgeCore

/// The manual's prose: everything `nudge man` prints that is not made from the command table. Written in the
/// markup of `ManualBlock` (`code` in backticks). Defaults are read from `Settings()` and kinds from
/// `NotificationKind`, so they cannot drift from the code.
enum ManualText {
    static let description: [ManualBlock] = [
        .paragraph("""
            nudge plans and delivers notifications on one Linux machine, privately: no daemon, and no network unless \
            you point it at a calendar of your own (`deliver.calendar`). systemd \
            runs `nudge run` when something is due, when a file changes and hourly (the units of `nudge init \
            --systemd`), or cron every minute. Each run reads the JSON files of the data directory, works \
            out what should notify and when (laundry stages, commute leave-times, daily prayer alarms, a daily \
            reminder to keep game streaks, a morning message, achievements and imported results), rewrites the \
            pending plan `plan.json`, and delivers, exactly once, everything that fell due since the previous run. \
            Between runs all memory is in files.
            """),
        .paragraph("""
            You write the user files (`settings.json`, `laundry.json`, `trips.json`, `alarms.json`, \
            `streaks.json`) by hand or through the editing commands; nudge writes `plan.json`, `state.json` and \
            `outbox.jsonl`. A missing user file means nothing of that kind. A broken one is reported with its path \
            and the exact place (line and column, or a key path such as `alarms[1].time`) and the run exits 65, so \
            cron mails it, until it is fixed. A mistake takes down only what it touches: a broken entry (an alarm, \
            a pet, a trip, a game, a play, an observation) is left out and plans from its last valid version (the \
            same `id`) or not at all, while the file's other entries plan as written; entries that share an `id` \
            are all left out; an invalid setting keeps its last valid value, else its default; a file that is not \
            JSON, or whose list is misspelled (`"alarm"`), keeps its last valid version whole. Every other file \
            plans and delivers as usual.
            """),
        .subsection("What falls due"),
        .paragraph("""
            A one-off event (a laundry stage, a health warning, a trip, an achievement, an import, a snooze, a \
            prayer timer) is delivered once its time has come, unless it was delivered before or has expired: a \
            wash recorded late, already finished, is announced at once. A daily repeat (an alarm, the morning \
            message, the streak reminder) must also have fallen due after the previous run: an alarm created at \
            05:40 for 05:30 waits for tomorrow.
            """),
        .paragraph("""
            After downtime each due occurrence is delivered late, once, with how late it is (`lateSeconds`); of a \
            daily repeat only the latest. What expired meanwhile is not delivered but recorded as missed and shown \
            by `nudge status`; what of it was `critical` or `high` the run tells once, in one notification "Missed \
            while away" (kind `digest.missed`) listing titles and local times. The first run ever (no `state.json`) delivers only what is due exactly then and \
            records older events as seen. A notification expires:
            """),
        .entry("wash or dry complete", "6 hours after it is due"),
        .entry("almost done", "when the stage it announces completes"),
        .entry("fold reminder, health warning", "24 hours after it is due"),
        .entry("leave-time", "at the arrival"),
        .entry("alarm", "after its `durationMinutes`, at least 30 minutes"),
        .entry("morning message, streak reminder", "at the end of that local day"),
        .entry("achievement, import", "7 days after it is due"),
        .entry("snooze", "after the original's span, counted from the snooze"),
        .entry("test", "after 10 minutes"),
        .subsection("Exactly once"),
        .paragraph("""
            Every occurrence has an id that names the event, not its time (`alarm.prayer:fajr:2026-11-21`, \
            `laundry.washComplete:snowy:c-1042`), so a time that moves never brings an event back. The ledger in \
            `state.json` holds every delivered, seen and missed id. A run appends its deliveries to `outbox.jsonl` \
            and flushes it before it saves `state.json`, and the next run completes a run killed in between: a \
            kill at any instant neither loses nor repeats a delivery (only a line a killed run already printed is \
            not printed again). One run at a time holds the lock `.lock`; another exits 75 at once, or waits with \
            `--wait`.
            """),
        .subsection("Channels"),
        .paragraph("Each delivery goes, in this order, to:"),
        .entry("`outbox.jsonl`", """
            the record with `deliveredAt` and `lateSeconds`, appended and flushed first: the record of truth.
            """),
        .entry("standard output", """
            a line per notification for people; with `--json` the outbox object, one per line; with `--quiet` \
            nothing. Notices, warnings and errors go to standard error.
            """),
        .entry("the desktop", """
            with `deliver.desktop`, a freedesktop notification: urgency from the priority \
            (`critical` stays until dismissed), a sound unless `sound` is false, an icon per kind, and a button for \
            each action that does something on this machine. A click applies it as `nudge act ID ACTION` does; a \
            click on the body applies nothing and closes it. A notification with buttons is held by a small \
            process on its own session bus connection, which ends when the notification closes, expires (it \
            closes it then) or its server goes away; the run never waits. One without buttons is sent the same \
            way over a short connection. A server that draws no buttons shows it without them, and `nudge check` \
            says so.
            """),
        .entry("the command", "with `deliver.command` (SETTINGS): a program of yours, run for each delivery."),
        .paragraph("""
            A desktop notification or command that fails is reported on standard error and by `nudge status`, and \
            tried again by later runs until the notification expires; nothing is retried while notifications are \
            switched off. The badge counts the delivered notifications with `badge` true since the last \
            `nudge ack`.
            """),
        .subsection("Time"),
        .paragraph("""
            The zone is `settings.timeZone`, else `TZ`, else `/etc/localtime`, else UTC. Instants are RFC 3339 \
            with an offset or `Z` (`2026-11-21T08:00:00Z`), fractional seconds allowed, between the years 2000 and \
            2200; nudge writes them in UTC. Times of day are `HH:MM` (24 hours), weekdays `mon` to `sun`. Daily \
            times follow the local clock: a time that does not exist that day (spring forward) fires at the first \
            instant after the gap, a time that exists twice (fall back) fires once, at the first; no date is \
            skipped or rings twice, also after a change of zone. Laundry timers are instants and do not move with \
            the zone. `--now` replaces the clock for a dry run or a test.
            """),
        .paragraph("""
            A time on the command line (`--now`, `--at`, `--departed`) is what a person types: a time of day \
            (`19:30`, seconds optional), which is today, or a local date and time (`2026-11-25T08:00`, seconds \
            optional), both read in the data directory's zone (that of `settings.timeZone`, as above) with the same \
            rule for the hour skipped or repeated, or an instant with its offset or `Z` (`2026-11-25T08:00+03:00`). \
            Anything else is a usage error (exit 64).
            """),
        .paragraph("""
            cron wakes once a minute; `nudge run --linger 59` stays up to 59 seconds, sleeping without the lock, \
            and delivers each notification that falls due meanwhile at its own second. Under systemd no run \
            lingers: `nudge run --systemd` arms the transient `nudge.timer` in the user manager at the plan's \
            `nextWakeAt`, to the second, and at the wakes planned after it (and, where the machine can wake from \
            suspend, `nudge-alarm.timer` with `WakeSystem=` at the critical records); an editing command arms it \
            again after its re-plan when the next wake moved earlier. A timer that already wakes nudge in time is \
            left alone, so ordinary runs add no line to the journal. \
            `nudge.path` runs nudge when a user file changes, `nudge-hourly.timer` every hour (UTC), at login and \
            when the clock or the zone changes. `nudge check` says whether critical alarms wake a suspended machine.
            """),
    ]

    static let commands: [ManualBlock] = [
        .paragraph("""
            Every command takes `--help`; those that read the data directory take `--data DIR`, and those whose \
            result depends on the time take `--now T`. The editing commands (`laundry`, `play`, `trip`, `import`, \
            `snooze`, `act`, `ack`, `test`) take the lock like `run`, waiting up to 10 seconds for it, write atomically, change \
            only the bytes of what they change (the rest of a file, its layout included, stays as it was), and plan \
            again at once. A `laundry start` over a cycle not yet folded says which one it replaced. An `ID` is a full occurrence id, \
            `last` (the latest delivery but a missed digest), a unique prefix of one, or the id of its alarm, pet, trip or game as written \
            in your files (`fajr`: its latest delivery); `nudge status` lists the last ten.
            """),
    ]

    static let files: [ManualBlock] = [
        .paragraph("""
            The data directory is `--data DIR`, else `$NUDGE_DATA`, else `$XDG_DATA_HOME/nudge` \
            (`~/.local/share/nudge` when `XDG_DATA_HOME` is not set). `nudge init` writes a starter one. In it, \
            your files, and nudge's own below them; for the default directory nudge keeps its own in \
            `$XDG_STATE_HOME/nudge` (`~/.local/state/nudge`) instead, so that your files can be synced or kept in \
            git without them. The first run or edit that finds them beside your files moves them there, once; a \
            kill during the move loses nothing. `nudge status` and `nudge plan` say where they are.
            """),
        .entry("`settings.json`", "your preferences (see SETTINGS)"),
        .entry("`laundry.json`", "your laundry \"pets\" and the cycle under way; `nudge laundry` edits it"),
        .entry("`trips.json`", "your trips and their observed travel times; `nudge trip arrive` and `log` add them"),
        .entry("`alarms.json`", "your daily prayer alarms"),
        .entry("`streaks.json`", """
            your games, plays, achievements and imports; `nudge play` adds plays, `nudge import` imports
            """),
        .entry("`plan.json`", "the pending plan, rewritten by every run"),
        .entry("`state.json`", "the previous run, the delivery ledger, snoozes, timers and counters"),
        .entry("`outbox.jsonl`", """
            one JSON object per delivered notification, appended. It may be rotated at any time (moved, \
            deleted, truncated, copied and truncated); keep the last rotated copy uncompressed as \
            `outbox.jsonl.1`, from which nudge finishes a run that died just before the rotation
            """),
        .entry("`.last-good/`", "the last valid copy of each user file, planned from while the file is broken"),
        .entry("`.lock`", "the lock each run and editing command holds"),
        .entry("`.channel-starts/`", """
            a note for each desktop notification or command started and not yet recorded in `state.json`, so \
            that a run that dies while one runs never makes the next run start it again
            """),
        .entry("`.waiters/`", """
            a file for each desktop notification with buttons on screen, locked by the process that waits for its \
            click: the next run closes the notification of a waiting process that was killed, and reports a click \
            it could not apply
            """),
        .paragraph("""
            nudge writes its files atomically (a temporary file in the same directory, flushed, renamed) with mode \
            0600: they hold personal data. A user file that is a symbolic link is read and edited through the \
            link. The user files are UTF-8 JSON objects; an optional top-level `"version": 1` is accepted, `null` \
            for an optional key means the same as leaving it out, and unknown keys are ignored and named, with the \
            key they probably mean, by `nudge check`, by `nudge run` once per change of the file and by \
            `nudge status`. An unknown key that nearly is a known key its object lacks (`"dekstop"` for \
            `"desktop"`, `"offset"` for `"offsetMinutes"`) is an error of its entry or setting instead, which then \
            falls back as an invalid one does. Ids are 1 to 100 letters, digits, `.`, `_` or `-`.
            """),
    ]

    private static let defaults = Settings()

    /// `format(of:)` in Markdown: a blank line between blocks, none between the items of one list.
    static func formatMarkdown(of file: String) -> String {
        var text = ""
        var afterEntry = false
        for block in format(of: file) {
            let isEntry = if case .entry = block { true } else { false }
            if !text.isEmpty { text += isEntry && afterEntry ? "\n" : "\n\n" }
            text += block.markdown
            afterEntry = isEntry
        }
        return text
    }

    /// The blocks of FILE FORMATS under the heading `file` (`laundry.json`…), up to the next heading: docs/files.md
    /// shows them as they are (FilesPageTests).
    static func format(of file: String) -> [ManualBlock] {
        let blocks = formats.drop { block in
            if case .subsection(file) = block { return false }
            return true
        }.dropFirst()
        return Array(blocks.prefix { block in
            if case .subsection = block { return false }
            return true
        })
    }

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

    static let formats: [ManualBlock] = [
        .paragraph("""
            The keys of each file. Minutes are whole numbers; instants, times of day and weekdays are written as \
            under Time above. Example files are in the `data/` directory of nudge's source.
            """),
        .subsection("laundry.json"),
        .paragraph("`pets`: a list of objects with"),
        .entry("`id`", "required"),
        .entry("`name`", "shown in the notifications; a pet without one is called by its id"),
        .entry("`washMinutes`, `dryMinutes`", "1 to 1440; default 45 and 60"),
        .entry("`lastCompletedAt`", """
            instant of the last fold; the health warning counts from it (a pet never completed gets none)
            """),
        .entry("`cycle`", """
            the laundry under way, absent when there is none: `stage` (`wash` or `dry`), `startedAt` (instant) \
            and `id` (default: the `startedAt` instant). A wash announces "Wash Complete!" at `startedAt` plus \
            `washMinutes`, a dry "Dry Complete!" at `startedAt` plus `dryMinutes` and then the fold reminder, \
            until `nudge laundry fold` or `stop` removes the cycle; the plan holds one stage ahead.
            """),
        .example("""
            { "pets": [ { "id": "snowy", "name": "Snowy", "washMinutes": 45, "dryMinutes": 60,
                          "cycle": { "id": "c-1042", "stage": "wash", "startedAt": "2026-11-21T07:30:00Z" } } ] }
            """),
        .subsection("alarms.json"),
        .paragraph("`alarms`: a list of objects with"),
        .entry("`id`", "required"),
        .entry("`title`", "required; `Morning Prayer` rings as \"Morning Prayer Time\""),
        .entry("`time`", "`HH:MM` local; an alarm has either `time` or `prayer`"),
        .entry("`prayer`", """
            `fajr`, `sunrise`, `dhuhr`, `asr`, `maghrib` or `isha`: ring at that prayer's time, computed each day \
            from `settings.prayerTimes` (see `nudge times`); a day the sun does not allow it (midnight sun, polar \
            night) it does not ring, and `nudge status` says why
            """),
        .entry("`offsetMinutes`", "-120 to 120, default 0: minutes after the prayer (negative: before)"),
        .entry("`durationMinutes`", """
            1 to 1440, default 15: the prayer's length and the timer of Start Timer; the alarm expires after it, \
            at least 30 minutes
            """),
        .entry("`body`", """
            1 to 200 characters: what the alarm says; default "Take 15 minutes to pray". With a `time` (no \
            `prayer`) it makes a plain alarm: its title as written, kind `alarm.plain`, a snooze and no timer
            """),
        .entry("`enabled`", "default true"),
        .entry("`weekdays`", "a non-empty list; default every day"),
        .subsection("trips.json"),
        .paragraph("`trips`: a list of objects with"),
        .entry("`id`, `destination`", "required"),
        .entry("`arriveBy` and `weekdays`", """
            a recurring trip: `HH:MM` local on those weekdays (default every day)
            """),
        .entry("`arriveAt`", "a one-off trip: an instant; a trip has either this or `arriveBy`"),
        .entry("`travelMinutes`", "required, 0 to 1440: the travel time until observations say otherwise"),
        .entry("`bufferMinutes`", "0 to 720; default `settings.commute.defaultBufferMinutes`"),
        .entry("`enabled`", "default true"),
        .entry("`timeZone`", """
            an IANA zone name: the trip pauses (no leave-time, no check-in) while the zone in use, settings.json's \
            or the system's, is another
            """),
        .entry("`observations`", "a list of past journeys: `departedAt` (instant) and `minutes` (1 to 1440)"),
        .paragraph("""
            "Time to Leave" comes at the arrival minus the predicted travel time minus the buffer. The prediction \
            is the 80th percentile (nearest rank) of the observations of the 56 days before that arrival that \
            departed on the same kind of day (weekday or weekend) within 60 minutes of the usual departure; with \
            fewer than three of those, of all observations of the 56 days; with none, `travelMinutes`. The 56 \
            days end at the arrival, not at the clock, so a leave-time changes only when the observations do: an \
            old journey never moves this morning's reminder into the past. A planned reminder moves \
            only when the prediction moves it by more than 2 minutes, and `nudge status` says what each trip's \
            prediction rests on. `nudge trip depart` (or Leaving now on the \
            reminder) and `nudge trip arrive` (or I'm here on "Arrived at Office?") record a journey; a departure \
            before the reminder keeps it from coming.
            """),
        .subsection("streaks.json"),
        .entry("`games`", """
            `id`, `name` (required), `streak` (0 or more, used as given; when absent nudge counts it from the \
            plays: the consecutive local dates with a play, ending today if played today, else yesterday) and \
            `url` (optional: http, https or an app's own scheme, opened by Play Now)
            """),
        .entry("`plays`", "`game` (an id of `games`) and `at` (instant)"),
        .entry("`achievements`", "`id`, `title`, `description` and `unlockedAt` (instant)"),
        .entry("`imports`", "`id`, `game`, `importedAt` (instant) and `summary`"),
        .paragraph("""
            At most one "Streaks at risk" reminder comes a day, at `settings.streaks.time` or the learned time, and \
            only when a game with a streak above 0 has no play that local day: a streak of 0 is never at risk. A \
            play or import must name a game of `games`; `nudge play GAME --add` adds an unknown one. Each \
            achievement and each import \
            is announced once. `nudge import` reads the share texts of Wordle, Connections, The Mini and Strands; \
            a text given with `--game` and no puzzle number is one import per different result of the day \
            (`chess-2026-11-23`, `chess-2026-11-23-2`), the same text again none.
            """),
        .subsection("plan.json"),
        .paragraph("""
            `generatedAt`, `timeZone`, `budget` (`pending`, `limit`, `status`: `healthy`, `warning`, `critical` or \
            `atLimit`, and a `message`), `pending` (the next occurrence of each source, sorted by `fireAt`, then \
            `id`), `deferred` (what the budget left out, short and one to a line: `id`, `kind`, `source`, \
            `fireAt`, `priority`, `title` and `"reason": "budget"`; it enters `pending`, whole, as soon as there \
            is room) and `nextWakeAt`: the earliest instant after `generatedAt` at which a run would deliver, \
            record or plan something new, or null when nothing is ahead — a record's `fireAt`, pending or \
            deferred (after quiet hours moved it; snoozes and prayer timers too), the start of the first day \
            beyond the eight days planned, the learned streak time's recomputation, a play or trip observation \
            dated ahead or leaving its history, and a minute after a delivery the desktop or the command failed to \
            show. Runs only then and after each change of a file, the clock or the zone deliver what runs every \
            minute deliver, each at its second. The same files, state and `--now` give the same bytes. Each \
            pending record has:
            """),
        .entry("`id`", "the occurrence id"),
        .entry("`kind`", NotificationKind.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")),
        .entry("`source`", "the id of the pet, trip, alarm, game, achievement or import it comes from"),
        .entry("`fireAt`, `expiresAt`", "when it is due, and after which delivering it is pointless"),
        .entry("`title`, `body`", "the text you read"),
        .entry("`priority`", Priority.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")),
        .entry("`category`, `actions`", "its category and the actions it offers (see `nudge act`)"),
        .entry("`sound`, `badge`", "from `settings.notifications`"),
        .entry("`deepLink`", "`nudge://FAMILY/SOURCE`, such as `nudge://laundry/snowy`"),
    ] + state + [
        .subsection("outbox.jsonl"),
        .paragraph("""
            One JSON object per line and delivery: the record plus `deliveredAt` (UTC) and `lateSeconds` (0 when \
            on time). nudge only appends to it; rotating, truncating or deleting it never causes a second \
            delivery.
            """),
    ]

    static let environment: [ManualBlock] = [
        .entry("`NUDGE_DATA`", "the data directory, when `--data` is not given"),
        .entry("`XDG_DATA_HOME`", "the default data directory is `$XDG_DATA_HOME/nudge`; unset, `~/.local/share/nudge`"),
        .entry("`XDG_STATE_HOME`", """
            the default data directory's own files (plan, state, outbox, lock) are in `$XDG_STATE_HOME/nudge`; \
            unset, `~/.local/state/nudge`. A directory named by `--data` or `NUDGE_DATA` keeps them in itself
            """),
        .entry("`XDG_CONFIG_HOME`", """
            `nudge init --systemd` writes the user units `nudge.service`, `nudge-alarm.service`, `nudge.path` and \
            `nudge-hourly.timer` to `$XDG_CONFIG_HOME/systemd/user/`; unset, `~/.config/systemd/user/` (each run \
            arms the transient `nudge.timer` itself)
            """),
        .entry("`XDG_DATA_DIRS`, `XDG_CONFIG_DIRS`", """
            with `/usr/lib/systemd/user` and `/etc/systemd/user`, where units installed for all users are: \
            `nudge init --systemd` writes none of a name found there
            """),
        .entry("`TZDIR`", "where the zone files are; unset, `/usr/share/zoneinfo`"),
        .entry("`TZ`", """
            the zone when `settings.timeZone` is not set: an IANA name, or a POSIX rule nudge can read exactly; \
            otherwise `nudge check` and `nudge status` warn and name the zone used instead
            """),
        .entry("`DBUS_SESSION_BUS_ADDRESS`", """
            the session bus that desktop notifications go through. cron sets none; nudge then uses \
            `$XDG_RUNTIME_DIR/bus`, else `/run/user/UID/bus`, if it is a socket of yours. Without a bus a desktop \
            delivery fails with "no desktop session bus: not logged in to a desktop?" and is tried again later.
            """),
        .entry("`XDG_RUNTIME_DIR`", "where the session bus is looked for when its address is not set"),
        .entry("`NUDGE_ID`, `NUDGE_KIND`, `NUDGE_TITLE`, `NUDGE_BODY`, `NUDGE_DEEPLINK`, `NUDGE_PRIORITY`", """
            given to `deliver.command`: the fields of the record being delivered
            """),
        .entry("`NUDGE_BADGE`", "given to `deliver.command`: the badge count, this notification included"),
    ]

    static let examples: [ManualBlock] = [
        .paragraph("A starter data directory, checked, then planned once:"),
        .example("""
            nudge init
            nudge check
            nudge run && nudge plan
            """),
        .paragraph("The crontab line (`crontab -e`); nudge locks the data directory itself:"),
        .example("* * * * * $HOME/.local/bin/nudge run --quiet --linger 59"),
        .paragraph("Installing the shell completion (it also offers the pets, games and trips of the data directory "
            + "and the ids of recent deliveries) and this page for one user:"),
        .example("""
            nudge completions bash > ~/.local/share/bash-completion/completions/nudge
            nudge completions fish > ~/.config/fish/completions/nudge.fish
            nudge man > ~/.local/share/man/man1/nudge.1
            """),
    ]

    static let seeAlso = ["crontab(5)", "systemd.timer(5)"]

    /// One key of settings.json: its path, what it takes, its default (from `Settings()`) and what it does.
    private static func setting(_ key: String, _ type: String, _ value: Any, _ meaning: String) -> SettingText {
        SettingText(keys: key.split(separator: ",").map { String($0).trimmingWhitespace }, type: type,
                    defaultValue: "\(value)", meaning: meaning)
    }
}

/// One row of settings.json's keys: its keys, the values it takes, its default and what it does.
struct SettingText {
    let keys: [String]
    let type: String
    let defaultValue: String
    let meaning: String

    /// As the manual lists it: "`quietHours.start`, `quietHours.end` (HH:MM; default none)".
    var block: ManualBlock {
        .entry(keys.map { "`\($0)`" }.joined(separator: ", ") + " (\(type); default \(defaultValue))", meaning)
    }

    /// As docs/files.md's table has it: "| `maxPending` | 1 to 10000 (64) | the budget: … |".
    var markdownRow: String {
        "| " + keys.map { "`\($0)`" }.joined(separator: ", ") + " | \(type) (\(defaultValue)) | \(meaning) |"
    }
}
