import XCTest
@testable import NudgeCore

/// The whole of `nudge status` and `nudge status --json`, byte for byte, for a state with every section and for
/// the states before any run: what a change to how the report is made must leave as it is.
final class StatusReportOutputTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)

    private func prayer(on date: String) -> NudgeCore.Notification {
        AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date(date), settings: Fixtures.settings(),
                             clock: clock)!
    }

    /// A state with every section `status` has: missed, retries, failures, a click not applied, file errors and
    /// notes, budget, smart reminder, departures; notifications off, the last run stale.
    private func richState() -> RunState {
        var state = Fixtures.state(lastRun: "2026-11-21T06:00:00Z")
        state.lastRunCommandAt = Fixtures.instant("2026-11-21T06:30:00Z")
        state.lastDelivered = 2
        state.lastMissed = 1
        state.lastSuppressed = 3
        state.deliveredTotal = 120
        state.missedTotal = 12
        state.badge = 4
        state.lastBudget = BudgetStatus(pending: 55, limit: 64)
        state.recentMissed = (1...12).map { day in
            MissedRecord(id: "alarm.prayer:fajr:2026-11-\(10 + day)", kind: "alarm.prayer", title: "Morning Prayer",
                         fireAt: prayer(on: "2026-11-\(10 + day)").fireAt, reason: day == 12 ? .superseded : .expired,
                         recordedAt: Fixtures.instant("2026-11-21T06:00:00Z"))
        }
        let delivery = Delivery(notification: prayer(on: "2026-11-21"), deliveredAt: prayer(on: "2026-11-21").fireAt)
        state.channelQueue = ChannelQueue(
            deliveries: [QueuedDelivery(delivery: delivery, channels: [.command]),
                         QueuedDelivery(delivery: delivery, channels: [.desktop], attempts: 2)],
            failures: (1...6).map { "desktop command failed for attempt \($0): exit 1" })
        state.fileErrors = ["alarms.json:3:7: error: alarms[0].time: expected HH:MM, found \"25:00\""]
        state.fileNotes = ["alarms.json: the last good version is used"]
        state.smartReminder = SmartReminder(
            result: SmartReminderTime.Result(time: Fixtures.time("18:30"), windowStartHour: 19, coveragePercent: 62,
                                             playCount: 40),
            computedAt: Fixtures.instant("2026-11-21T04:00:00Z"))
        state.departures = [Departure(trip: "office", at: Fixtures.instant("2026-11-21T06:10:00Z"))]
        state.unappliedClicks = UnappliedClicks(clicks: [UnappliedClick(
            id: "laundry.washComplete:snowy:c-5", title: "Wash Complete!", action: "COMPLETE_ACTION",
            label: "Start Dryer", clickedAt: Fixtures.instant("2026-11-21T06:46:00Z"),
            reason: "retried until the notification expired at 2026-11-21T07:45:00Z: laundry.json:1:68: error: "
                + "trailing comma")])
        return state
    }

    private func richExtras() -> StatusReport.Extras {
        var cabin = Trip(id: "cabin", destination: "Cabin", schedule: .recurring(arriveBy: Fixtures.time("09:00"),
                                                                              weekdays: [.sat]),
                         travelMinutes: 90)
        cabin.timeZone = "America/New_York"
        let office = Trip(id: "office", destination: "Office",
                          schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: [.mon, .fri]),
                          travelMinutes: 25)
        let deliveries = ["2026-11-20", "2026-11-21"].map { date in
            Delivery(notification: prayer(on: date), deliveredAt: prayer(on: date).fireAt)
        }
        return StatusReport.Extras(
            fileWarnings: ["settings.json: deliver.comand: unknown key (ignored; did you mean command?)",
                           "trips.json: trips[0].bufer: unknown key (ignored; did you mean buffer?)"],
            zoneWarning: "TZ=\"CET-1CEST\" is a POSIX rule nudge cannot follow exactly",
            recentDeliveries: deliveries,
            streaks: [GameStreak(game: Game(id: "wordle", name: "Wordle"), value: 12, isDerived: false),
                      GameStreak(game: Game(id: "connections", name: "Connections"), value: 3, isDerived: true)],
            travel: [(office, TravelPrediction.Basis(sample: .similar, count: 6, minutes: 31)),
                     (cabin, TravelPrediction.Basis(sample: .estimate, count: 0, minutes: 90))],
            silentPrayerAlarms: ["fajr: the sun does not rise low enough"])
    }

    func testStatusTextOfARichStateIsPinned() {
        var settings = Fixtures.settings()
        settings.notifications.enabled = false
        let text = StatusReport.text(richState(), settings: settings, extras: richExtras(),
                                     now: Fixtures.instant("2026-11-21T08:00:00Z"), zone: Fixtures.berlin)
        XCTAssertEqual(text, """
            Warning: settings.json: deliver.comand: unknown key (ignored; did you mean command?)
            Warning: trips.json: trips[0].bufer: unknown key (ignored; did you mean buffer?)
            Warning: TZ="CET-1CEST" is a POSIX rule nudge cannot follow exactly
            Notifications are switched OFF (settings.json notifications.enabled): due ones are recorded, not \
            delivered (3 at the last run)
            Last run: 2026-11-21 07:30 (1 h 30 min ago), zone Europe/Berlin (settings.json); delivered 2, missed 1
            Warning: the last run was 1 h 30 min ago — the cron job or timer that runs `nudge run` every minute may \
            not be running. Check it with `crontab -l` (or `systemctl --user list-timers 'nudge*'` when systemd runs \
            nudge).
            Budget: 55/64 warning — Approaching notification limit. Consider completing some cycles.
            Streaks: Wordle 12 (given), Connections 3 (derived from plays)
            Travel to Office (office): 80th percentile of 6 similar trips in the last 8 weeks: 31 min
            Travel to Cabin (cabin): no trips recorded in the last 8 weeks, so travelMinutes: 90 min
              paused: its zone is America/New_York and you are in Europe/Berlin; its leave-times and check-ins \
            resume when settings.json's timeZone is America/New_York again
            On the way: office since Sat 21 Nov 07:10 (`nudge trip arrive office` when you get there)
            Streak reminder: 18:30, learned from the 19:00–21:00 window (62% of 40 plays), computed Sat 21 Nov 05:00 \
            (4 h ago)
            Prayer alarms that cannot ring today (2026-11-21):
              fajr: the sun does not rise low enough
            Badge: 4 (cleared by `nudge ack`)
            Delivered in all: 120
            Missed in all: 12
              2026-11-13 05:30  Morning Prayer (alarm.prayer, expired)
              2026-11-14 05:30  Morning Prayer (alarm.prayer, expired)
              2026-11-15 05:30  Morning Prayer (alarm.prayer, expired)
              2026-11-16 05:30  Morning Prayer (alarm.prayer, expired)
              2026-11-17 05:30  Morning Prayer (alarm.prayer, expired)
              2026-11-18 05:30  Morning Prayer (alarm.prayer, expired)
              2026-11-19 05:30  Morning Prayer (alarm.prayer, expired)
              2026-11-20 05:30  Morning Prayer (alarm.prayer, expired)
              2026-11-21 05:30  Morning Prayer (alarm.prayer, expired)
              2026-11-22 05:30  Morning Prayer (alarm.prayer, superseded)
            Desktop: 2 delivery(ies) waiting to be retried (desktop notification, desktop command)
            Desktop delivery failures, and retries that got through (latest last):
              desktop command failed for attempt 2: exit 1
              desktop command failed for attempt 3: exit 1
              desktop command failed for attempt 4: exit 1
              desktop command failed for attempt 5: exit 1
              desktop command failed for attempt 6: exit 1
            Desktop clicks not applied (latest last):
              Sat 21 Nov 07:46  "Start Dryer" on Wash Complete!: retried until the notification expired at \
            2026-11-21T07:45:00Z: laundry.json:1:68: error: trailing comma
                `nudge act laundry.washComplete:snowy:c-5 COMPLETE_ACTION` applies it now
            Last deliveries (newest last; `nudge snooze ID` and `nudge act ID ACTION` take an id, a unique prefix of \
            it, or `last`):
              Fri 20 Nov 05:30  alarm.prayer:fajr:2026-11-20  Morning Prayer Time
              Sat 21 Nov 05:30  alarm.prayer:fajr:2026-11-21  Morning Prayer Time
            Files with errors at the last run:
              alarms.json:3:7: error: alarms[0].time: expected HH:MM, found "25:00"
              alarms.json: the last good version is used
            """)
    }

    func testStatusJSONOfARichStateIsPinned() {
        var settings = Fixtures.settings()
        settings.notifications.enabled = false
        var state = richState()
        state.recentMissed = Array(state.recentMissed.suffix(2))  // the JSON lists them all, not the last ten
        let json = StatusReport.json(state, settings: settings, extras: richExtras(),
                                     now: Fixtures.instant("2026-11-21T08:00:00Z"))
        XCTAssertEqual(json.prettyText, """
            {
              "lastRunAt": "2026-11-21T06:00:00Z",
              "lastRunCommandAt": "2026-11-21T06:30:00Z",
              "stale": true,
              "notificationsEnabled": false,
              "settingsWarnings": [
                "settings.json: deliver.comand: unknown key (ignored; did you mean command?)"
              ],
              "fileWarnings": [
                "settings.json: deliver.comand: unknown key (ignored; did you mean command?)",
                "trips.json: trips[0].bufer: unknown key (ignored; did you mean buffer?)"
              ],
              "zoneWarning": "TZ=\\"CET-1CEST\\" is a POSIX rule nudge cannot follow exactly",
              "timeZone": "Europe/Berlin",
              "timeZoneOrigin": "settings.json",
              "lastDelivered": 2,
              "lastMissed": 1,
              "deliveredTotal": 120,
              "missedTotal": 12,
              "recentMissed": [
                {
                  "id": "alarm.prayer:fajr:2026-11-21",
                  "kind": "alarm.prayer",
                  "title": "Morning Prayer",
                  "fireAt": "2026-11-21T04:30:00Z",
                  "reason": "expired"
                },
                {
                  "id": "alarm.prayer:fajr:2026-11-22",
                  "kind": "alarm.prayer",
                  "title": "Morning Prayer",
                  "fireAt": "2026-11-22T04:30:00Z",
                  "reason": "superseded"
                }
              ],
              "recentDeliveries": [
                {
                  "id": "alarm.prayer:fajr:2026-11-20",
                  "kind": "alarm.prayer",
                  "title": "Morning Prayer Time",
                  "deliveredAt": "2026-11-20T04:30:00Z"
                },
                {
                  "id": "alarm.prayer:fajr:2026-11-21",
                  "kind": "alarm.prayer",
                  "title": "Morning Prayer Time",
                  "deliveredAt": "2026-11-21T04:30:00Z"
                }
              ],
              "silentPrayerAlarms": [
                "fajr: the sun does not rise low enough"
              ],
              "streaks": [
                {
                  "game": "wordle",
                  "streak": 12,
                  "derived": false
                },
                {
                  "game": "connections",
                  "streak": 3,
                  "derived": true
                }
              ],
              "travel": [
                {
                  "trip": "office",
                  "minutes": 31,
                  "basis": "80th percentile of 6 similar trips in the last 8 weeks: 31 min"
                },
                {
                  "trip": "cabin",
                  "minutes": 90,
                  "basis": "no trips recorded in the last 8 weeks, so travelMinutes: 90 min"
                }
              ],
              "departures": [
                {
                  "trip": "office",
                  "at": "2026-11-21T06:10:00Z"
                }
              ],
              "fileErrors": [
                "alarms.json:3:7: error: alarms[0].time: expected HH:MM, found \\"25:00\\""
              ],
              "fileNotes": [
                "alarms.json: the last good version is used"
              ],
              "badge": 4,
              "lastSuppressed": 3,
              "commandRetries": 2,
              "commandFailures": [
                "desktop command failed for attempt 1: exit 1",
                "desktop command failed for attempt 2: exit 1",
                "desktop command failed for attempt 3: exit 1",
                "desktop command failed for attempt 4: exit 1",
                "desktop command failed for attempt 5: exit 1",
                "desktop command failed for attempt 6: exit 1"
              ],
              "unappliedClicks": [
                {
                  "id": "laundry.washComplete:snowy:c-5",
                  "title": "Wash Complete!",
                  "action": "COMPLETE_ACTION",
                  "label": "Start Dryer",
                  "clickedAt": "2026-11-21T06:46:00Z",
                  "reason": "retried until the notification expired at 2026-11-21T07:45:00Z: laundry.json:1:68: \
            error: trailing comma"
                }
              ],
              "smartReminder": {
                "time": "18:30",
                "windowStartHour": 19,
                "coveragePercent": 62,
                "playCount": 40,
                "computedAt": "2026-11-21T04:00:00Z"
              },
              "budget": {
                "pending": 55,
                "limit": 64,
                "status": "warning",
                "message": "Approaching notification limit. Consider completing some cycles."
              }
            }
            """)
    }

    /// A state written before any run (by `nudge test` or an editing command), and no state at all.
    func testStatusOfAStateWithoutARunAndOfNoStateIsPinned() {
        let now = Fixtures.instant("2026-11-21T08:00:00Z")
        var state = RunState()
        state.badge = 1
        XCTAssertEqual(StatusReport.text(state, settings: Settings(), now: now, zone: Fixtures.berlin), """
            No run yet — run `nudge run` (every minute: `nudge init --systemd`, or cron).
            Badge: 1 (cleared by `nudge ack`)
            Delivered in all: 0
            Missed in all: 0
            Files: all valid at the last run
            """)
        XCTAssertEqual(StatusReport.json(state, settings: Settings(), now: now).prettyText, """
            {
              "lastRunAt": null,
              "lastRunCommandAt": null,
              "stale": false,
              "notificationsEnabled": true,
              "settingsWarnings": [],
              "fileWarnings": [],
              "zoneWarning": null,
              "timeZone": null,
              "timeZoneOrigin": "system",
              "lastDelivered": 0,
              "lastMissed": 0,
              "deliveredTotal": 0,
              "missedTotal": 0,
              "recentMissed": [],
              "recentDeliveries": [],
              "silentPrayerAlarms": [],
              "streaks": [],
              "travel": [],
              "departures": [],
              "fileErrors": [],
              "fileNotes": [],
              "badge": 1,
              "lastSuppressed": 0,
              "commandRetries": 0,
              "commandFailures": [],
              "unappliedClicks": []
            }
            """)
        XCTAssertEqual(StatusReport.text(nil, settings: Settings(), now: now, zone: Fixtures.berlin), """
            No run yet — run `nudge run` (every minute: `nudge init --systemd`, or cron).
            """)
        XCTAssertEqual(StatusReport.json(nil, settings: Settings(), now: now).prettyText, """
            {
              "lastRunAt": null,
              "notificationsEnabled": true,
              "settingsWarnings": [],
              "fileWarnings": [],
              "zoneWarning": null
            }
            """)
    }
}
