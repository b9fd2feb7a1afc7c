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
}
