import NudgeCore

/// The manual's FILE FORMATS: the keys of each file; docs/files.md shows the user files' keys from here.
extension ManualText {
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
}
