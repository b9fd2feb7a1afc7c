import XCTest
@testable import NudgeCore

/// The wakes a run arms in the systemd user manager, and what `nudge check` says about waking the machine
/// (docs/systemd.md).
final class SystemdWakeTests: XCTestCase {
    /// A 03:00 low message and critical alarms at 04:00 and 05:30.
    private let household: Household = {
        var settings = Fixtures.settings(zone: "UTC")
        settings.personalized.enabled = true
        settings.personalized.firstName = "Sam"
        settings.personalized.time = Fixtures.time("03:00")
        return Household(settings: settings, alarms: [Fixtures.alarm("fajr", at: "05:30"), Fixtures.alarm("tahajjud", at: "04:00")])
    }()

    /// The household planned at 00:00Z.
    private func planned() -> PlanResult {
        Planner.plan(household, previous: Fixtures.state(lastRun: "2026-11-20T23:59:00Z", zone: "UTC"),
                     now: Fixtures.instant("2026-11-21T00:00:00Z"), zone: Fixtures.utc)
    }

    func testTheWakeIsTheNextWakeOnAWholeSecondAndCalendarTimesAreUTC() throws {
        var plan = planned().plan
        XCTAssertEqual(SystemdWake.next(plan), Fixtures.instant("2026-11-21T03:00:00Z"))
        // A retry a minute after a run at a fraction of a second is rounded up, never early.
        let retry = Fixtures.instant("2026-10-25T00:59:59Z").addingTimeInterval(0.25)
        plan.nextWakeAt = retry
        XCTAssertEqual(SystemdWake.next(plan), Fixtures.instant("2026-10-25T01:00:00Z"))
        XCTAssertEqual(SystemdWake.calendar(retry), "2026-10-25 01:00:00 UTC")
        XCTAssertNil(SystemdWake(upcoming: [], canWakeMachine: true), "nothing ahead: nothing armed")
    }

    func testWhereTheMachineCanWakeTheAlarmTimerIsAtTheNextCriticalRecord() throws {
        XCTAssertEqual(SystemdWake.nextCritical(planned().plan), Fixtures.instant("2026-11-21T04:00:00Z"),
                       "the suspended machine wakes for the first alarm, not for the low message before it")
        let upcoming = [("03:00", false), ("04:00", true), ("05:30", true)].map {
            UpcomingWake(at: Fixtures.instant("2026-11-21T\($0.0):00Z"), isCritical: $0.1)
        }
        let wake = try XCTUnwrap(SystemdWake(upcoming: upcoming, canWakeMachine: true))
        XCTAssertEqual(wake.instants, upcoming.map(\.at), "the low message still wakes nudge")
        XCTAssertEqual(wake.alarmInstants, upcoming.dropFirst().map(\.at))
        XCTAssertEqual(try XCTUnwrap(SystemdWake(upcoming: upcoming, canWakeMachine: false)).alarmInstants, [],
                       "no WakeSystem= timer where the machine cannot wake: it would never run")
    }

    func testTheWakesAheadAreEachRunsNextWakePlannedAtTheOneBefore() throws {
        let result = planned()
        let upcoming = Planner.upcomingWakes(from: result.plan.nextWakeAt, state: result.state,
                                             household: household, zone: Fixtures.utc, count: 7)
        XCTAssertEqual(upcoming.map { RFC3339.format($0.at) }, [
            "2026-11-21T03:00:00Z", "2026-11-21T04:00:00Z", "2026-11-21T05:30:00Z",
            "2026-11-22T03:00:00Z", "2026-11-22T04:00:00Z", "2026-11-22T05:30:00Z", "2026-11-23T03:00:00Z",
        ], "beyond the records the plan holds, as the runs at those instants would plan them")
        XCTAssertEqual(upcoming.map(\.isCritical), [false, true, true, false, true, true, false])
        // The run at 03:00 finds the same schedule from its own plan.
        let at3 = Planner.plan(household, previous: result.state, now: upcoming[0].at, zone: Fixtures.utc)
        XCTAssertEqual(at3.plan.nextWakeAt, upcoming[1].at)
    }

    /// One `TimersCalendar` list of (`OnCalendar`, instant): the property `OnCalendar` makes the manager log
    /// "obsolete OnCalendar= transient property" once per instant at every arming.
    func testTheTimerPropertiesListEveryInstantInOneTimersCalendar() {
        let instants = ["2026-11-21T04:00:00Z", "2026-11-21T05:30:00Z"].map { Fixtures.instant($0) }
        let properties = SystemdWake.timerProperties(at: instants, wakeSystem: true)
        XCTAssertEqual(properties.map(\.0), ["Description", "TimersCalendar", "AccuracyUSec", "RemainAfterElapse",
                                              "WakeSystem"])
        XCTAssertEqual(properties[1].1, .array(element: "(ss)", [
            .structure([.string("OnCalendar"), .string("2026-11-21 04:00:00 UTC")]),
            .structure([.string("OnCalendar"), .string("2026-11-21 05:30:00 UTC")])]))
        XCTAssertEqual(properties[2].1, .uint64(1_000_000), "AccuracySec=1s: to the second")
        XCTAssertEqual(properties[3].1, .boolean(false), "forgotten once the last has elapsed")
        XCTAssertEqual(properties[4].1, .boolean(true))
        let message = SystemdManagerBus.startTransientUnit("nudge.timer", properties: properties)
        XCTAssertEqual(message.body.map(\.signature), ["s", "s", "a(sv)", "a(sa(sv))"])
        XCTAssertEqual(try DBusMessage.decode(message.encoded()).body, message.body, "uint64 round-trips")
    }

    /// The timer as the manager answers `GetAll` on it: calendars as it prints them back, the last trigger in µs.
    private func armed(_ calendars: [String], lastTrigger: String?, state: String = "active") -> ArmedTimer {
        let entries = calendars.map { DBusValue.structure([.string("OnCalendar"), .string($0), .uint64(0)]) }
        let trigger = lastTrigger.map { UInt64(Fixtures.instant($0).timeIntervalSince1970 * 1_000_000) + 3_000 } ?? 0
        return ArmedTimer(activeState: state, timer: ["TimersCalendar": .array(element: "(sst)", entries),
                                                      "LastTriggerUSec": .uint64(trigger)])
    }

    func testARunLeavesATimerThatWakesNudgeByItsNextWakeAndArmsOneThatWouldBeLateOrIsSpent() {
        let at = { (text: String) in Fixtures.instant(text) }
        let calendars = ["2026-11-21 03:00:00 UTC", "2026-11-21 04:00:00 UTC", "2026-11-21 05:30:00 UTC"]
        // Started by the 03:00 instant: the timer elapses next at 04:00, which the new plan asks for.
        let running = armed(calendars, lastTrigger: "2026-11-21T03:00:00Z")
        XCTAssertEqual(running.nextElapse, at("2026-11-21T04:00:00Z"))
        XCTAssertTrue(running.wakes(by: at("2026-11-21T04:00:00Z")), "an ordinary run arms nothing")
        XCTAssertTrue(running.wakes(by: at("2026-11-21T04:30:00Z")),
                      "a record removed by an edit costs one early run, which arms what comes after it")
        XCTAssertFalse(running.wakes(by: at("2026-11-21T03:40:00Z")), "a snooze before 04:00 is armed")
        XCTAssertNil(armed(calendars, lastTrigger: "2026-11-21T05:30:00Z").nextElapse, "spent: armed afresh")
        XCTAssertFalse(armed(calendars, lastTrigger: "2026-11-21T05:30:00Z").wakes(by: at("2026-11-22T03:00:00Z")))
        XCTAssertEqual(armed(calendars, lastTrigger: nil).nextElapse, at("2026-11-21T03:00:00Z"))
        XCTAssertFalse(armed(calendars, lastTrigger: nil, state: "failed").wakes(by: at("2026-11-21T04:00:00Z")),
                       "a failed timer is armed again")
        XCTAssertNil(armed(["*-*-* 04:00:00"], lastTrigger: nil).nextElapse, "a calendar nudge did not write")
        XCTAssertEqual(SystemdWake.instant(calendar: SystemdWake.calendar(at("2026-10-25T01:00:00Z"))),
                       at("2026-10-25T01:00:00Z"))
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
