import FoundationEssentials

/// `nudge status`: the last run, the budget, missed deliveries and file errors, as text or JSON.
public enum StatusReport {
    /// What `status` shows besides state.json, read by the shell.
    public struct Extras: Sendable {
        /// The warning lines for unknown keys of every user file, each with the key it probably meant (docs/promises.md).
        var fileWarnings: [String]
        /// Why the zone is not exactly what `TZ` asks for (docs/promises.md, never at the wrong hour); nil when it is.
        var zoneWarning: String?
        /// The last deliveries from the outbox, oldest first (ten: docs/design.md, "Acting on a delivery").
        var recentDeliveries: [Delivery]
        /// Each game's streak today, given in streaks.json or derived from its plays (docs/files.md, "streaks.json").
        var streaks: [GameStreak]
        /// Each enabled trip's predicted travel time and what it rests on (docs/files.md, "trips.json"), in file order.
        var travel: [(trip: Trip, basis: TravelPrediction.Basis)]
        /// The alarms following a prayer that cannot ring today, and why (docs/prayer-times.md;
        /// `PrayerTimetable.silentAlarms`).
        var silentPrayerAlarms: [String]
        /// Where the person's files and nudge's own live (docs/files.md, "Where nudge keeps its own files"); nil
        /// leaves the line out.
        package var places: FilePlaces?

        public init(fileWarnings: [String] = [], zoneWarning: String? = nil, recentDeliveries: [Delivery] = [],
                    streaks: [GameStreak] = [], travel: [(trip: Trip, basis: TravelPrediction.Basis)] = [],
                    silentPrayerAlarms: [String] = []) {
            self.fileWarnings = fileWarnings
            self.zoneWarning = zoneWarning
            self.recentDeliveries = recentDeliveries
            self.streaks = streaks
            self.travel = travel
            self.silentPrayerAlarms = silentPrayerAlarms
        }
    }

    /// What `status` says when no run has been recorded yet.
    static let noRunText = "No run yet — run `nudge run` (every minute: `nudge init --systemd`, or cron)."

    /// The report, section by section: warnings, the last run, today's streaks, travel and prayers, the counts and
    /// missed deliveries, the desktop's retries, the last deliveries, the files.
    public static func text(_ state: RunState?, settings: Settings, extras: Extras = Extras(), now: Date,
                            zone: Zone) -> String {
        var lines = (extras.fileWarnings + [extras.zoneWarning].compactMap { $0 }).map { "Warning: \($0)" }
        let placeLines = extras.places.map { [$0.description] } ?? []
        guard let state else { return (lines + [noRunText] + placeLines).joined(separator: "\n") }
        let clock = WallClock(zone: zone)
        lines += lastRunLines(state, settings: settings, now: now, clock: clock, zone: zone)
        lines += todayLines(state, extras: extras, now: now, clock: clock, zone: zone)
        lines += totalLines(state, clock: clock)
        lines += desktopLines(state, clock: clock)
        lines += calendarLines(state, settings: settings, clock: clock)
        lines += recentDeliveryLines(extras.recentDeliveries, clock: clock)
        lines += fileLines(state)
        lines += placeLines
        return lines.joined(separator: "\n")
    }

    /// Whether notifications are off, when the last run was (and whether that is too long ago), the budget.
    private static func lastRunLines(_ state: RunState, settings: Settings, now: Date, clock: WallClock,
                                     zone: Zone) -> [String] {
        var lines: [String] = []
        if !settings.notifications.enabled {
            lines.append("Notifications are switched OFF (settings.json notifications.enabled): due ones are "
                + "recorded, not delivered (\(state.lastSuppressed) at the last run)")
        }
        if let lastRun = state.lastRunCommandAt ?? state.lastRunAt {
            lines.append("Last run: \(TextFormat.localDateTime(lastRun, clock)) "
                + "(\(TextFormat.relative(lastRun, from: now))), zone "
                + "\(ZoneOrigin.describe(state.timeZone ?? zone.identifier, settingsZone: settings.timeZone)); "
                + "delivered \(state.lastDelivered), missed \(state.lastMissed)")
            StaleRun.warning(lastRunAt: lastRun, now: now, wokenBySystemd: state.wokenBySystemd)
                .map { lines.append($0) }
        } else {
            lines.append(noRunText)  // `nudge test` or an editing command wrote state before any run
        }
        if let budget = state.lastBudget {
            lines.append("Budget: \(budget.pending)/\(budget.limit) \(budget.level.rawValue) — \(budget.message)")
        }
        return lines
    }

    /// Streaks, each trip's travel time (and whether it is paused), the journeys under way, the streak reminder's
    /// time and the prayer alarms that cannot ring today.
    private static func todayLines(_ state: RunState, extras: Extras, now: Date, clock: WallClock,
                                   zone: Zone) -> [String] {
        var lines: [String] = []
        if !extras.streaks.isEmpty {
            lines.append("Streaks: " + streaksText(extras.streaks))
        }
        for (trip, basis) in extras.travel {
            lines.append("Travel to \(trip.destination) (\(trip.id)): \(basis.description)")
            if let home = trip.timeZone, trip.isPaused(in: zone) {
                lines.append("  paused: its zone is \(home) and you are in \(zone.identifier); its leave-times and "
                    + "check-ins resume when settings.json's timeZone is \(home) again")
            }
        }
        for departure in state.departures {
            lines.append("On the way: \(departure.trip) since \(TextFormat.localStamp(departure.at, clock)) "
                + "(`nudge trip arrive \(departure.trip)` when you get there)")
        }
        if let smart = state.smartReminder {
            lines.append("Streak reminder: \(smartText(smart, clock: clock, now: now))")
        }
        if !extras.silentPrayerAlarms.isEmpty {
            lines.append("Prayer alarms that cannot ring today (\(clock.localDate(of: now))):")
            lines += extras.silentPrayerAlarms.map { "  \($0)" }
        }
        return lines
    }

    /// The badge, the totals and the last ten missed deliveries.
    private static func totalLines(_ state: RunState, clock: WallClock) -> [String] {
        var lines = ["Badge: \(state.badge) (cleared by `nudge ack`)", "Delivered in all: \(state.deliveredTotal)",
                     "Missed in all: \(state.missedTotal)"]
        for record in state.recentMissed.suffix(10) {
            lines.append("  \(TextFormat.localDateTime(record.fireAt, clock))  \(record.title) "
                + "(\(record.kind), \(record.reason.rawValue))")
        }
        return lines
    }

    /// The deliveries the desktop channels still retry, their last failures, and the clicks not applied.
    private static func desktopLines(_ state: RunState, clock: WallClock) -> [String] {
        var lines: [String] = []
        if !state.channelQueue.deliveries.isEmpty {
            let channels = Set(state.channelQueue.deliveries.flatMap(\.channels))
            let names = DeliveryChannel.allCases.filter(channels.contains).map(\.name).joined(separator: ", ")
            lines.append("Desktop: \(state.channelQueue.deliveries.count) delivery(ies) waiting to be retried "
                + "(\(names))")
        }
        if !state.channelQueue.failures.isEmpty {
            lines.append("Desktop delivery failures, and retries that got through (latest last):")
            lines += state.channelQueue.failures.suffix(5).map { "  \($0)" }
        }
        let clicks = state.unappliedClicks.clicks.suffix(5)
        if !clicks.isEmpty {
            lines.append(unappliedClicksHeading)
            for click in clicks {
                let clicked = TextFormat.localStamp(click.clickedAt, clock)
                lines.append("  \(clicked)  \"\(click.label)\" on \(click.title): \(click.reason)")
                lines.append("    `nudge act \(click.id) \(click.action)` applies it now")
            }
        }
        return lines
    }

    /// The calendar (docs/calendar.md): the events nudge keeps there, whether they match the plan (a run with
    /// nothing to change sends nothing, so the last change written is the last request), and the failure that
    /// keeps them from it now.
    static func calendarLines(_ state: RunState, settings: Settings, clock: WallClock) -> [String] {
        guard let calendar = settings.deliverCalendar else { return [] }
        let memory = state.calendar
        let written = memory.lastMatchAt.map { " (last change written \(TextFormat.localDateTime($0, clock)))" } ?? ""
        let kept = "Calendar: \(memory.keptCount) event(s) kept in \(calendar.url)"
        guard let failure = memory.failure else { return [kept + ", in step with the plan" + written] }
        return [kept + written, "  the last run could not match it: \(failure)"]
    }

    /// Above the desktop clicks that could not be applied (docs/desktop.md, "A click that cannot be applied at once").
    static let unappliedClicksHeading = "Desktop clicks not applied (latest last):"

    /// The last deliveries with their ids, for `nudge snooze` and `nudge act`.
    private static func recentDeliveryLines(_ deliveries: [Delivery], clock: WallClock) -> [String] {
        guard !deliveries.isEmpty else { return [] }
        return ["Last deliveries (newest last; `nudge snooze ID` and `nudge act ID ACTION` take an id, "
            + "a unique prefix of it, or `last`):"] + deliveryRows(deliveries, clock: clock)
    }

    /// Whether every file was valid at the last run, or each error and what the run did about it.
    private static func fileLines(_ state: RunState) -> [String] {
        guard !state.fileErrors.isEmpty else { return ["Files: all valid at the last run"] }
        // What the run did about each, as it said: a last good version, or nothing from the file or entry.
        return ["Files with errors at the last run:"] + state.fileErrors.map { "  \($0)" }
            + state.fileNotes.map { "  \($0)" }
    }

    /// "Wordle 12 (given), Connections 3 (derived from plays)".
    static func streaksText(_ streaks: [GameStreak]) -> String {
        var text = ""
        for streak in streaks {
            if !text.isEmpty { text += ", " }
            text += "\(streak.game.name) \(streak.value) (\(streak.isDerived ? "derived from plays" : "given"))"
        }
        return text
    }

    /// One row per delivery: local time, id, title, aligned on the id.
    static func deliveryRows(_ deliveries: [Delivery], clock: WallClock) -> [String] {
        let width = deliveries.map(\.notification.id.count).max() ?? 0
        return deliveries.map { delivery in
            let record = delivery.notification
            return "  \(TextFormat.localStamp(delivery.deliveredAt, clock))  "
                + "\(TextFormat.column(record.id, width))  \(record.title)"
        }
    }

    /// "18:30, learned from the 19:00–21:00 window (62% of 40 plays), computed Sat 21 Nov 10:00 (2 h ago)".
    static func smartText(_ smart: SmartReminder, clock: WallClock, now: Date) -> String {
        let result = smart.result
        let start = TextFormat.pad(result.windowStartHour)
        let end = TextFormat.pad((result.windowStartHour + 2) % 24)
        return "\(result.time), learned from the \(start):00–\(end):00 window (\(result.coveragePercent)% of "
            + "\(result.playCount) plays), computed \(TextFormat.localStamp(smart.computedAt, clock)) "
            + "(\(TextFormat.relative(smart.computedAt, from: now)))"
    }

    /// The report as one object, the nested ones made by the functions below; with no state, only `lastRunAt`
    /// (null), whether notifications are on and the warnings.
    public static func json(_ state: RunState?, settings: Settings, extras: Extras = Extras(), now: Date) -> JSONValue {
        let warnings = warningMembers(settings: settings, extras: extras) + (extras.places?.jsonMembers ?? [])
        guard let state else { return .object([JSONMember("lastRunAt", .null)] + warnings) }
        let lastRun = state.lastRunCommandAt ?? state.lastRunAt
        var members = [
            JSONMember("lastRunAt", state.lastRunAt.map { .string(RFC3339.format($0)) } ?? .null),
            JSONMember("lastRunCommandAt", state.lastRunCommandAt.map { .string(RFC3339.format($0)) } ?? .null),
            JSONMember("stale", .bool(lastRun.flatMap {
                StaleRun.warning(lastRunAt: $0, now: now, wokenBySystemd: state.wokenBySystemd)
            } != nil)),
        ]
        members += warnings
        members += [
            JSONMember("timeZone", state.timeZone.map(JSONValue.string) ?? .null),
            JSONMember("timeZoneOrigin", .string(ZoneOrigin(settingsZone: settings.timeZone).rawValue)),
            JSONMember("lastDelivered", .number(String(state.lastDelivered))),
            JSONMember("lastMissed", .number(String(state.lastMissed))),
            JSONMember("deliveredTotal", .number(String(state.deliveredTotal))),
            JSONMember("missedTotal", .number(String(state.missedTotal))),
            JSONMember("recentMissed", .array(state.recentMissed.map(missedJSON))),
            JSONMember("recentDeliveries", .array(extras.recentDeliveries.map(deliveryJSON))),
            JSONMember("silentPrayerAlarms", .array(extras.silentPrayerAlarms.map(JSONValue.string))),
            JSONMember("streaks", .array(extras.streaks.map(streakJSON))),
            JSONMember("travel", .array(extras.travel.map { travelJSON($0.trip, $0.basis) })),
            JSONMember("departures", .array(state.departures.map(departureJSON))),
            JSONMember("fileErrors", .array(state.fileErrors.map(JSONValue.string))),
            JSONMember("fileNotes", .array(state.fileNotes.map(JSONValue.string))),
            JSONMember("badge", .number(String(state.badge))),
            JSONMember("lastSuppressed", .number(String(state.lastSuppressed))),
            JSONMember("commandRetries", .number(String(state.channelQueue.deliveries.count))),
            JSONMember("commandFailures", .array(state.channelQueue.failures.map(JSONValue.string))),
            JSONMember("unappliedClicks", .array(state.unappliedClicks.clicks.map(unappliedClickJSON))),
        ]
        if let calendar = settings.deliverCalendar {
            members.append(JSONMember("calendar", .object([
                JSONMember("url", .string(calendar.url)),
                JSONMember("events", .number(String(state.calendar.keptCount))),
                JSONMember("lastMatchAt", state.calendar.lastMatchAt.map { .string(RFC3339.format($0)) } ?? .null),
                JSONMember("failure", state.calendar.failure.map(JSONValue.string) ?? .null),
            ])))
        }
        if let smart = state.smartReminder {
            members.append(JSONMember("smartReminder", smartReminderJSON(smart)))
        }
        if let budget = state.lastBudget {
            members.append(JSONMember("budget", budgetJSON(budget)))
        }
        return .object(members)
    }

    /// `notificationsEnabled`, the warnings of settings.json alone, those of every file, and the zone's.
    private static func warningMembers(settings: Settings, extras: Extras) -> [JSONMember] {
        let settingsWarnings = extras.fileWarnings.filter { $0.hasPrefix(UserFile.settings.fileName + ":") }
        return [
            JSONMember("notificationsEnabled", .bool(settings.notifications.enabled)),
            JSONMember("settingsWarnings", .array(settingsWarnings.map(JSONValue.string))),
            JSONMember("fileWarnings", .array(extras.fileWarnings.map(JSONValue.string))),
            JSONMember("zoneWarning", extras.zoneWarning.map(JSONValue.string) ?? .null),
        ]
    }

    private static func missedJSON(_ record: MissedRecord) -> JSONValue {
        .object([
            JSONMember("id", .string(record.id)),
            JSONMember("kind", .string(record.kind)),
            JSONMember("title", .string(record.title)),
            JSONMember("fireAt", .string(RFC3339.format(record.fireAt))),
            JSONMember("reason", .string(record.reason.rawValue)),
        ])
    }

    private static func unappliedClickJSON(_ click: UnappliedClick) -> JSONValue {
        .object([
            JSONMember("id", .string(click.id)),
            JSONMember("title", .string(click.title)),
            JSONMember("action", .string(click.action)),
            JSONMember("label", .string(click.label)),
            JSONMember("clickedAt", .string(RFC3339.format(click.clickedAt))),
            JSONMember("reason", .string(click.reason)),
        ])
    }

    private static func deliveryJSON(_ delivery: Delivery) -> JSONValue {
        .object([
            JSONMember("id", .string(delivery.notification.id)),
            JSONMember("kind", .string(delivery.notification.kind.rawValue)),
            JSONMember("title", .string(delivery.notification.title)),
            JSONMember("deliveredAt", .string(RFC3339.format(delivery.deliveredAt))),
        ])
    }

    private static func streakJSON(_ streak: GameStreak) -> JSONValue {
        .object([
            JSONMember("game", .string(streak.game.id)),
            JSONMember("streak", .number(String(streak.value))),
            JSONMember("derived", .bool(streak.isDerived)),
        ])
    }

    private static func travelJSON(_ trip: Trip, _ basis: TravelPrediction.Basis) -> JSONValue {
        .object([
            JSONMember("trip", .string(trip.id)),
            JSONMember("minutes", .number(String(basis.minutes))),
            JSONMember("basis", .string(basis.description)),
        ])
    }

    private static func departureJSON(_ departure: Departure) -> JSONValue {
        .object([
            JSONMember("trip", .string(departure.trip)),
            JSONMember("at", .string(RFC3339.format(departure.at))),
        ])
    }

    private static func smartReminderJSON(_ smart: SmartReminder) -> JSONValue {
        .object([
            JSONMember("time", .string(smart.result.time.description)),
            JSONMember("windowStartHour", .number(String(smart.result.windowStartHour))),
            JSONMember("coveragePercent", .number(String(smart.result.coveragePercent))),
            JSONMember("playCount", .number(String(smart.result.playCount))),
            JSONMember("computedAt", .string(RFC3339.format(smart.computedAt))),
        ])
    }

    private static func budgetJSON(_ budget: BudgetStatus) -> JSONValue {
        .object([
            JSONMember("pending", .number(String(budget.pending))),
            JSONMember("limit", .number(String(budget.limit))),
            JSONMember("status", .string(budget.level.rawValue)),
            JSONMember("message", .string(budget.message)),
        ])
    }
}
