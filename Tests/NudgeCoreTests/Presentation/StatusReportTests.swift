import XCTest
@testable import NudgeCore

/// What `nudge status`, `nudge plan` and the delivery line tell a person (docs/design.md, "Acting on a delivery";
/// docs/systemd.md, "When a run is stale").
final class StatusReportTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)

    private func prayer(on date: String) -> NudgeCore.Notification {
        AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date(date), settings: Fixtures.settings(),
                             clock: clock)!
    }

    private func state(lastRunAt: String) -> RunState {
        var state = RunState()
        state.lastRunAt = Fixtures.instant(lastRunAt)
        state.timeZone = "Europe/Berlin"
        return state
    }

    func testDeliveryLineEndsWithTheIdAndTheActionsThatDoSomething() {
        let delivery = Delivery(notification: prayer(on: "2026-11-21"),
                                deliveredAt: Fixtures.instant("2026-11-21T04:30:00Z"))
        XCTAssertEqual(DeliveryLine.text(delivery, clock: clock),
                       "[2026-11-21 05:30] Morning Prayer Time — Take 15 minutes to pray (critical, alarm.prayer) "
                       + "→ nudge act alarm.prayer:fajr:2026-11-21 START_TIMER|SNOOZE")
    }

    func testDeliveryLineSaysLateFromThirtySecondsInSecondsThenMinutes() {
        let alarm = prayer(on: "2026-11-21")
        func details(deliveredAt: String) -> String {
            let line = DeliveryLine.text(Delivery(notification: alarm, deliveredAt: Fixtures.instant(deliveredAt)),
                                         clock: clock)
            return String(line[line.firstIndex(of: "(")!...line.firstIndex(of: ")")!])
        }
        XCTAssertEqual(details(deliveredAt: "2026-11-21T04:30:29Z"), "(critical, alarm.prayer)")
        XCTAssertEqual(details(deliveredAt: "2026-11-21T04:30:30Z"), "(critical, alarm.prayer, 30 s late)")
        XCTAssertEqual(details(deliveredAt: "2026-11-21T04:30:41Z"), "(critical, alarm.prayer, 41 s late)")
        XCTAssertEqual(details(deliveredAt: "2026-11-21T04:33:59Z"), "(critical, alarm.prayer, 3 min late)")
    }

    func testDeliveryLineOfANotificationWithoutActionsOffersSnooze() {
        let test = TestRule.notification(now: Fixtures.instant("2026-11-21T08:00:00Z"), settings: Settings())
        let line = DeliveryLine.text(Delivery(notification: test, deliveredAt: test.fireAt), clock: clock)
        XCTAssertTrue(line.hasSuffix("→ nudge snooze \(test.id)"), line)
    }

    func testStaleRunIsNamedAfterFiveMinutesOnly() {
        let lastRun = Fixtures.instant("2026-11-21T08:00:00Z")
        XCTAssertNil(StaleRun.warning(lastRunAt: lastRun, now: Fixtures.instant("2026-11-21T08:05:00Z")))
        XCTAssertNil(StaleRun.warning(lastRunAt: lastRun, now: Fixtures.instant("2026-11-21T07:00:00Z")),
                     "a clock set back is not a stopped timer")
        let warning = StaleRun.warning(lastRunAt: lastRun, now: Fixtures.instant("2026-11-22T22:44:00Z"))
        XCTAssertEqual(warning, "Warning: the last run was 38 h 44 min ago — the cron job or timer that runs "
                       + "`nudge run` every minute may not be running. Check it with `crontab -l` "
                       + "(or `systemctl --user list-timers 'nudge*'` when systemd runs nudge).")
    }

    /// Under systemd nudge runs when something is due and at least hourly (docs/systemd.md): an hour without a
    /// run is no sign of trouble; a wake that did not come, five minutes on, is.
    func testUnderSystemdARunIsStaleFiveMinutesAfterTheWakeThatDidNotCome() {
        let lastRun = Fixtures.instant("2026-11-21T08:00:00Z")
        func warning(_ now: String, nextWake: String?) -> String? {
            StaleRun.warning(lastRunAt: lastRun, now: Fixtures.instant(now), wokenBySystemd: true,
                             nextWakeAt: nextWake.map { Fixtures.instant($0) })
        }
        XCTAssertNil(warning("2026-11-21T09:05:00Z", nextWake: nil), "the hourly run is 5 min late: not yet")
        XCTAssertNotNil(warning("2026-11-21T09:05:01Z", nextWake: nil))
        XCTAssertNil(warning("2026-11-21T08:35:00Z", nextWake: "2026-11-21T08:30:00Z"))
        XCTAssertEqual(warning("2026-11-21T08:40:00Z", nextWake: "2026-11-21T08:30:00Z"),
                       "Warning: the last run was 40 min ago and a run was due 10 min ago — the systemd units that "
                       + "wake nudge may not be running. Check them with `systemctl --user list-timers 'nudge*'`.")
    }

    func testStatusNamesAStaleLastRunRightAfterIt() {
        let text = StatusReport.text(state(lastRunAt: "2026-11-21T08:00:00Z"), settings: Settings(),
                                     now: Fixtures.instant("2026-11-21T09:00:00Z"), zone: Fixtures.berlin)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("Last run: 2026-11-21 09:00 (1 h ago)"), text)
        XCTAssertTrue(lines[1].hasPrefix("Warning: the last run was 1 h ago"), text)
        let fresh = StatusReport.text(state(lastRunAt: "2026-11-21T08:00:00Z"), settings: Settings(),
                                      now: Fixtures.instant("2026-11-21T08:01:00Z"), zone: Fixtures.berlin)
        XCTAssertFalse(fresh.contains("Warning"), fresh)
    }

    func testStatusListsTheLastDeliveriesWithTheirIds() {
        let deliveries = ["2026-11-20", "2026-11-21"].map { date in
            Delivery(notification: prayer(on: date), deliveredAt: prayer(on: date).fireAt)
        }
        let text = StatusReport.text(state(lastRunAt: "2026-11-21T08:00:00Z"), settings: Settings(),
                                     extras: .init(recentDeliveries: deliveries),
                                     now: Fixtures.instant("2026-11-21T08:00:00Z"), zone: Fixtures.berlin)
        XCTAssertTrue(text.contains("""
            Last deliveries (newest last; `nudge snooze ID` and `nudge act ID ACTION` take an id, a unique prefix \
            of it, or `last`):
              Fri 20 Nov 05:30  alarm.prayer:fajr:2026-11-20  Morning Prayer Time
              Sat 21 Nov 05:30  alarm.prayer:fajr:2026-11-21  Morning Prayer Time
            """), text)
        let json = StatusReport.json(state(lastRunAt: "2026-11-21T08:00:00Z"), settings: Settings(),
                                     extras: .init(recentDeliveries: deliveries),
                                     now: Fixtures.instant("2026-11-21T08:00:00Z"))
        XCTAssertEqual(json["recentDeliveries"]?.arrayValue?.compactMap { $0["id"]?.stringValue },
                       ["alarm.prayer:fajr:2026-11-20", "alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(json["stale"], JSONValue.bool(false))
    }

    func testUnknownSettingsKeysAreWarnedFirstEvenBeforeAnyRun() {
        let warnings = ["settings.json: deliver.comand: unknown key (ignored; did you mean command?)"]
        let text = StatusReport.text(nil, settings: Settings(), extras: .init(fileWarnings: warnings),
                                     now: Fixtures.instant("2026-11-21T08:00:00Z"), zone: Fixtures.berlin)
        XCTAssertEqual(text.split(separator: "\n").first.map(String.init),
                       "Warning: settings.json: deliver.comand: unknown key (ignored; did you mean command?)")
        let json = StatusReport.json(nil, settings: Settings(), extras: .init(fileWarnings: warnings),
                                     now: Fixtures.instant("2026-11-21T08:00:00Z"))
        XCTAssertEqual(json["settingsWarnings"], .array(warnings.map(JSONValue.string)))
    }

    func testAZoneWarningIsShownNearTheTopAndInJSON() {
        var state = RunState()
        state.lastRunAt = Fixtures.instant("2026-11-21T07:59:00Z")
        let warning = "TZ=\"CET-1CEST,M3.5.0,M10.5.0/3\" is a POSIX rule nudge cannot follow exactly"
        let text = StatusReport.text(state, settings: Settings(), extras: .init(zoneWarning: warning),
                                     now: Fixtures.instant("2026-11-21T08:00:00Z"), zone: Fixtures.berlin)
        XCTAssertEqual(text.split(separator: "\n").first.map(String.init), "Warning: " + warning)
        let json = StatusReport.json(state, settings: Settings(), extras: .init(zoneWarning: warning),
                                     now: Fixtures.instant("2026-11-21T08:00:00Z"))
        XCTAssertEqual(json["zoneWarning"], .string(warning))
        XCTAssertEqual(StatusReport.json(nil, settings: Settings(), now: Fixtures.instant("2026-11-21T08:00:00Z"))[
            "zoneWarning"], .null)
    }
}
