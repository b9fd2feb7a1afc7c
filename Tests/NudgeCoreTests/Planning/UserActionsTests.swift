import XCTest
@testable import NudgeCore

/// What the person asked for (docs/design.md, "Acting on a delivery"): snoozes, prayer timers and the actions
/// applied, kept as long as acting on their delivery is.
final class UserActionsTests: XCTestCase {
    private func at(_ text: String) -> Date { Fixtures.instant(text) }

    /// Fajr's timer started at `startedAt` (15 minutes, then 30 to expire).
    private func timer(startedAt: String) -> NudgeCore.Notification {
        PrayerTimerRule.timer(for: Fixtures.alarm(), date: "2026-11-21", now: at(startedAt), settings: Settings())
    }

    private let wash = NudgeCore.Notification(
        id: "laundry.washComplete:snowy:c-1", kind: .washComplete, source: "snowy",
        fireAt: Fixtures.instant("2026-11-21T08:15:00Z"), expiresAt: Fixtures.instant("2026-11-21T14:15:00Z"),
        title: "Wash Complete!", body: "Snowy is ready for the dryer!", priority: .critical,
        category: "TIMER_COMPLETE", actions: ["COMPLETE_ACTION", "SNOOZE_ACTION"], sound: true, badge: true,
        recurrence: .once)

    /// An action is remembered once per delivery: applied again (a snooze moved), its time is the latest.
    func testAnActionIsRecordedOncePerDelivery() {
        var actions = UserActions()
        actions.record(.snoozeAction, on: wash.id, now: at("2026-11-21T08:16:00Z"))
        actions.record(.complete, on: wash.id, now: at("2026-11-21T08:17:00Z"))
        actions.record(.snoozeAction, on: wash.id, now: at("2026-11-21T08:18:00Z"))
        XCTAssertEqual(actions.applied, [wash.id: ["SNOOZE_ACTION": at("2026-11-21T08:18:00Z"),
                                                   "COMPLETE_ACTION": at("2026-11-21T08:17:00Z")]])
    }

    /// Through `nudge act`: the action is recorded, and the same action again is "Nothing to do".
    func testASecondApplicationOfTheSameActionIsNothingToDo() throws {
        let household = Household(settings: Fixtures.settings(), alarms: [Fixtures.alarm()])
        let prayer = try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                                        settings: Settings(), clock: WallClock(zone: Fixtures.berlin)))
        var state = RunState()
        _ = state.deliver(prayer, now: prayer.fireAt, channels: [])
        let clock = WallClock(zone: Fixtures.berlin)
        let now = at("2026-11-21T04:31:00Z")
        let first = try ActionResolver.resolve(.startTimer, on: prayer, household: household, state: state, now: now,
                                               clock: clock)
        guard case .apply(.startTimer(let timer)) = first else { return XCTFail("\(first)") }
        state.userActions.timers.append(timer)
        state.recordAction(.startTimer, on: prayer.id, now: now)
        let again = try ActionResolver.resolve(.startTimer, on: prayer, household: household, state: state,
                                               now: at("2026-11-21T04:32:00Z"), clock: clock)
        XCTAssertEqual(again, .nothing("START_TIMER was already applied to \(prayer.id) at 2026-11-21 05:31: "
                                       + "nothing changed"))
        XCTAssertEqual(state.userActions.applied[prayer.id]?.count, 1)
    }

    /// Snoozes and timers stay until two days after they expired, the span `act` accepts; the actions applied
    /// stay while their delivery's ledger entry does.
    func testPruningKeepsSnoozesAndTimersTwoDaysPastExpiryAndActionsWithTheirDelivery() {
        let snooze = SnoozeRule.snooze(wash, minutes: 10, now: at("2026-11-21T08:16:00Z"), existing: [])
        let started = timer(startedAt: "2026-11-21T04:31:00Z")  // expires 05:16Z
        var actions = UserActions(snoozes: [snooze], timers: [started], applied: [:])
        actions.record(.snoozeAction, on: wash.id, now: at("2026-11-21T08:16:00Z"))
        actions.record(.startTimer, on: "alarm.prayer:fajr:2026-11-21", now: at("2026-11-21T04:31:00Z"))

        var early = actions
        early.prune(now: at("2026-11-23T05:16:00Z")) { _ in true }
        XCTAssertEqual(early, actions, "two days after the timer expired, to the second: kept")

        var later = actions
        later.prune(now: at("2026-11-23T05:16:01Z")) { $0 == self.wash.id }
        XCTAssertEqual(later.timers, [])
        XCTAssertEqual(later.snoozes, [snooze], "expires at 14:26Z")
        XCTAssertEqual(Array(later.applied.keys), [wash.id], "the prayer's ledger entry is gone, and its action")

        later.prune(now: at("2026-11-23T14:26:01Z")) { _ in false }
        XCTAssertEqual(later, UserActions())
    }

    func testItsJSONRoundTripsByteForByte() throws {
        var actions = UserActions()
        actions.record(.startTimer, on: "alarm.prayer:fajr:2026-11-21", now: at("2026-11-21T04:31:00Z"))
        actions.record(.snoozeAction, on: wash.id, now: at("2026-11-21T08:16:00Z"))
        actions.record(.complete, on: wash.id, now: at("2026-11-21T08:20:00Z"))
        var out = PrettyJSONWriter()
        out.open("{")
        actions.write(to: &out)
        out.close("}")
        XCTAssertEqual(String(decoding: out.finish(), as: UTF8.self), """
            {
              "snoozes": [],
              "timers": [],
              "appliedActions": {
                "alarm.prayer:fajr:2026-11-21": {
                  "START_TIMER": "2026-11-21T04:31:00Z"
                },
                "laundry.washComplete:snowy:c-1": {
                  "COMPLETE_ACTION": "2026-11-21T08:20:00Z",
                  "SNOOZE_ACTION": "2026-11-21T08:16:00Z"
                }
              },
              "actionsMadeAt": {}
            }

            """)

        actions.keep(snooze: SnoozeRule.snooze(wash, minutes: 10, now: at("2026-11-21T08:16:00Z"), existing: []),
                     madeAt: at("2026-11-21T08:16:00Z"))
        actions.start(timer: timer(startedAt: "2026-11-21T04:31:00Z"), madeAt: at("2026-11-21T04:31:00Z"))
        XCTAssertEqual(actions.madeAt.count, 2)
        var state = RunState()
        state.userActions = actions
        let decoded = try RunState.decode(state.fileContent)
        XCTAssertEqual(decoded.userActions, actions)
        XCTAssertEqual(decoded.fileContent, state.fileContent)
    }

    func testASnoozeThatIsNotARecordIsReportedWithItsPath() {
        let text = #"{"version": 1, "snoozes": [{"id": "x"}]}"#
        XCTAssertThrowsError(try RunState.decode(Array(text.utf8))) { error in
            XCTAssertEqual("\(error)", "state.json: snoozes[0]: is not a notification record")
        }
    }
}
