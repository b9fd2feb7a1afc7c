import XCTest
@testable import NudgeCore

/// The wakes a run arms in the systemd user manager, and what `nudge check` says about waking the machine
/// (docs/systemd.md).
final class SystemdWakeTests: XCTestCase {
    /// A 03:00 low message and critical alarms at 04:00 and 05:30, planned at 00:00Z.
    private func plan(nextWake: String?) -> Plan {
        var settings = Fixtures.settings(zone: "UTC")
        settings.personalized.enabled = true
        settings.personalized.firstName = "Sam"
        settings.personalized.time = Fixtures.time("03:00")
        let household = Household(settings: settings, alarms: [Fixtures.alarm("fajr", at: "05:30"), Fixtures.alarm("tahajjud", at: "04:00")])
        var plan = Planner.plan(household, previous: Fixtures.state(lastRun: "2026-11-20T23:59:00Z", zone: "UTC"),
                                now: Fixtures.instant("2026-11-21T00:00:00Z"), zone: Fixtures.utc).plan
        plan.nextWakeAt = nextWake.map { Fixtures.instant($0) }
        return plan
    }

    func testTheWakeIsTheNextWakeOnAWholeSecondAndCalendarTimesAreUTC() throws {
        let wake = try XCTUnwrap(SystemdWake(plan: plan(nextWake: "2026-11-21T03:00:00Z"), canWakeMachine: false))
        XCTAssertEqual(wake.at, Fixtures.instant("2026-11-21T03:00:00Z"))
        XCTAssertNil(wake.alarmAt, "no WakeSystem= timer where the machine cannot wake: it would never run")
        // A retry a minute after a run at a fraction of a second is rounded up, never early.
        let retry = Fixtures.instant("2026-10-25T00:59:59Z").addingTimeInterval(0.25)
        XCTAssertEqual(SystemdWake.calendar(retry), "2026-10-25 01:00:00 UTC")
        XCTAssertNil(SystemdWake(plan: plan(nextWake: nil), canWakeMachine: true), "nothing ahead: nothing armed")
    }

    func testWhereTheMachineCanWakeTheAlarmTimerIsAtTheNextCriticalRecord() throws {
        let planned = plan(nextWake: "2026-11-21T03:00:00Z")
        let wake = try XCTUnwrap(SystemdWake(plan: planned, canWakeMachine: true))
        XCTAssertEqual(wake.at, Fixtures.instant("2026-11-21T03:00:00Z"), "the low message still wakes nudge")
        XCTAssertEqual(wake.alarmAt, Fixtures.instant("2026-11-21T04:00:00Z"),
                       "the suspended machine wakes for the first alarm, not for the low message before it")
    }

    func testTheTimerPropertiesAreWhatSystemdRunSends() {
        let properties = SystemdWake.timerProperties(at: Fixtures.instant("2026-11-21T04:00:00Z"), wakeSystem: true)
        XCTAssertEqual(properties.map(\.0), ["Description", "OnCalendar", "AccuracyUSec", "RemainAfterElapse",
                                              "WakeSystem"])
        XCTAssertEqual(properties[1].1, .string("2026-11-21 04:00:00 UTC"))
        XCTAssertEqual(properties[2].1, .uint64(1_000_000), "AccuracySec=1s: to the second")
        XCTAssertEqual(properties[3].1, .boolean(false), "forgotten once elapsed, so the next run can arm it again")
        XCTAssertEqual(properties[4].1, .boolean(true))
        let message = SystemdManagerBus.startTransientUnit("nudge.timer", properties: properties)
        XCTAssertEqual(message.body.map(\.signature), ["s", "s", "a(sv)", "a(sa(sv))"])
        XCTAssertEqual(try DBusMessage.decode(message.encoded()).body, message.body, "uint64 round-trips")
    }

    func testCheckSaysWhetherCriticalAlarmsWakeTheMachineAndWhyNot() {
        let wakeAlarm: UInt64 = 1 << 35
        XCTAssertEqual(WakeCapability(alarmClock: true, managerCapabilities: wakeAlarm | 1), .canWake)
        XCTAssertEqual(WakeCapability(alarmClock: false, managerCapabilities: wakeAlarm), .noAlarmClock)
        XCTAssertEqual(WakeCapability(alarmClock: true, managerCapabilities: nil), .noManager)
        XCTAssertEqual(WakeCapability(alarmClock: true, managerCapabilities: 0), .managerWithoutCapability)
        XCTAssertTrue(WakeCapability.managerWithoutCapability.checkLine
            .hasPrefix("a user manager without CAP_WAKE_ALARM cannot wake a suspended machine: grant it with"))
        XCTAssertTrue(WakeCapability.canWake.checkLine.hasPrefix("critical alarms wake this machine"))
        let status = "Name:\tsystemd\nCapInh:\t0000000000000000\nCapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n"
        XCTAssertEqual(WakeCapability.effectiveCapabilities(status: status), 0x1ff_ffff_ffff)
        XCTAssertNil(WakeCapability.effectiveCapabilities(status: "Name:\tx\n"))
    }
}

/// Whether the systemd units wake nudge, as `state.json` remembers it (docs/systemd.md).
final class WokenBySystemdTests: XCTestCase {
    func testARunByHandLeavesItAndTwoHoursOfCronEndIt() {
        var state = RunState()
        XCTAssertFalse(state.wokenBySystemd)
        state.lastSystemdRunAt = Fixtures.instant("2026-11-21T08:00:00Z")
        state.lastRunCommandAt = state.lastSystemdRunAt
        XCTAssertTrue(state.wokenBySystemd)
        state.lastRunCommandAt = Fixtures.instant("2026-11-21T08:20:00Z")  // `nudge run` typed in a terminal
        XCTAssertTrue(state.wokenBySystemd, "a snooze after a run by hand is still armed")
        state.lastRunCommandAt = Fixtures.instant("2026-11-21T10:00:01Z")  // cron, every minute since
        XCTAssertFalse(state.wokenBySystemd)
        let text = String(decoding: state.fileContent, as: UTF8.self)
        XCTAssertTrue(text.contains(#""lastSystemdRunAt": "2026-11-21T08:00:00Z""#), text)
        XCTAssertEqual(try RunState.decode(state.fileContent).lastSystemdRunAt, state.lastSystemdRunAt)
    }
}
