import XCTest
@testable import NudgeCore

/// After a clock set back, what the memory of handled occurrences answers (docs/promises.md, exactly once): the
/// same before and after pruning, for snoozes and timers an action made after the corrected clock's time, for a
/// snooze's number, and for a one-off whose source left the files and came back. Literal instants, UTC.
final class PlannerSetBackMemoryTests: XCTestCase {
    private let utc = Fixtures.utc
    private func at(_ text: String) -> Date { Fixtures.instant(text) }

    private func settings() -> Settings {
        var settings = Fixtures.settings(zone: "UTC")
        settings.streaks.enabled = false
        settings.personalized.enabled = false
        return settings
    }

    private func run(_ household: Household, _ state: RunState, _ now: String) -> PlanResult {
        Planner.plan(household, previous: state, now: at(now), zone: utc, previousZone: utc)
    }

    /// The household with alarm a1 at 08:00, the state after runs at 07:00 and 08:00:30 of `day` delivered it,
    /// and the alarm as delivered.
    private func alarmDelivered(on day: String) -> (Household, RunState, NudgeCore.Notification) {
        let household = Household(settings: settings(), alarms: [Fixtures.alarm("a1", at: "08:00")])
        let before = Fixtures.state(lastRun: "\(day)T06:59:00Z", zone: "UTC")
        let state = Fixtures.runs(household, from: before, previousZone: utc, zone: utc,
                                  ["\(day)T07:00:00Z", "\(day)T08:00:30Z"]).state
        return (household, state, run(household, before, "\(day)T08:00:00Z").deliveries[0].notification)
    }

    /// The alarm of 08:00 delivered, snoozed at 09:00 until 09:05, missed by the run at 12:00; then the clock is
    /// back at 08:30. The snooze was made after that time: it keeps its missed outcome and never rings.
    func testASnoozeMadeAfterTheCorrectedClocksTimeKeepsItsMissedOutcome() {
        let household = Household(settings: settings(), alarms: [Fixtures.alarm("a1", at: "08:00")])
        let before = Fixtures.state(lastRun: "2027-01-10T06:59:00Z", zone: "UTC")
        let morning = Fixtures.runs(household, from: before, previousZone: utc, zone: utc,
                                    ["2027-01-10T07:00:00Z", "2027-01-10T08:00:30Z"])
        XCTAssertEqual(morning.delivered, ["alarm.prayer:a1:2027-01-10"])
        var state = morning.state
        let alarm = run(household, before, "2027-01-10T08:00:00Z").deliveries[0].notification
        guard case .made(let snooze) = SnoozeRule.apply(to: alarm, minutes: 5, now: at("2027-01-10T09:00:00Z"),
                                                        state: &state, existing: []) else {
            return XCTFail("not snoozed")
        }
        let noon = run(household, state, "2027-01-10T12:00:00Z")
        XCTAssertEqual(noon.missed.map(\.id), [snooze.id])
        let back = Fixtures.runs(household, from: noon.state, previousZone: utc, zone: utc,
                                 ["2027-01-10T08:30:00Z", "2027-01-10T09:05:00Z", "2027-01-10T09:30:00Z"])
        XCTAssertEqual(back.delivered, [])
        XCTAssertEqual(back.state.missedTotal, noon.state.missedTotal)
    }

    /// The same snooze, pruned from the snoozes and its outcome pruned to its compact form days later, before the
    /// clock is set back to the day before it was made (found by the soak, seed 20261123): nothing can make it ring
    /// again, so its missed outcome stays, and the next snooze of the alarm takes a number of its own.
    func testAPrunedSnoozeKeepsItsOutcomeAndItsNumberAfterASetBackBeforeItWasMade() {
        let (household, delivered, alarm) = alarmDelivered(on: "2027-01-10")
        var state = delivered
        guard case .made(let first) = SnoozeRule.apply(to: alarm, minutes: 5, now: at("2027-01-10T09:00:00Z"),
                                                       state: &state, existing: []) else {
            return XCTFail("not snoozed")
        }
        let later = Fixtures.runs(household, from: state, previousZone: utc, zone: utc,
                                  ["2027-01-10T12:00:00Z", "2027-01-13T12:00:00Z"])
        XCTAssertEqual(later.missed.first, first.id, "then the alarms of the 11th to the 13th")
        XCTAssertEqual(later.state.userActions.snoozes, [], "pruned from the snoozes")
        XCTAssertNil(later.state.memory.ledger[first.id], "pruned from the ledger")
        var back = run(household, later.state, "2027-01-09T12:00:00Z").state
        XCTAssertTrue(back.memory.isHandled(first.id), "its outcome kept")
        XCTAssertEqual(back.missedTotal, 1, "the snooze's; the alarms of the 11th to the 13th are due again")
        guard case .made(let second) = SnoozeRule.apply(to: alarm, minutes: 5, now: at("2027-01-09T12:01:00Z"),
                                                        state: &back, existing: []) else {
            return XCTFail("not snoozed")
        }
        XCTAssertEqual(second.id, "alarm.prayer:a1:2027-01-10:snooze-2")
    }

    /// A snooze made before the corrected clock's time still rings again once the clock comes back before it:
    /// the rule is about when the action was made.
    func testASnoozeMadeBeforeTheCorrectedClocksTimeIsDueAgain() {
        let (household, delivered, alarm) = alarmDelivered(on: "2027-01-10")
        var state = delivered
        guard case .made(let snooze) = SnoozeRule.apply(to: alarm, minutes: 60, now: at("2027-01-10T08:01:00Z"),
                                                        state: &state, existing: []) else {
            return XCTFail("not snoozed")
        }
        let noon = run(household, state, "2027-01-10T12:00:00Z")
        XCTAssertEqual(noon.missed.map(\.id), [snooze.id])
        let back = Fixtures.runs(household, from: noon.state, previousZone: utc, zone: utc,
                                 ["2027-01-10T08:30:00Z", "2027-01-10T09:01:00Z"])
        XCTAssertEqual(back.delivered, [snooze.id])
    }

    /// A snooze missed inside an excursion, pruned from the snoozes while its outcome is remembered: the next
    /// snooze of the same notification gets a number of its own, and rings.
    func testASecondSnoozeNeverTakesTheNumberOfOneTheMemoryStillHolds() {
        let (household, delivered, alarm) = alarmDelivered(on: "2027-03-19")
        var state = delivered
        guard case .made(let first) = SnoozeRule.apply(to: alarm, minutes: 1, now: at("2027-03-17T12:00:00Z"),
                                                       state: &state, existing: []) else {
            return XCTFail("not snoozed")
        }
        let missed = Fixtures.runs(household, from: state, previousZone: utc, zone: utc,
                                   ["2027-03-17T12:00:10Z", "2027-03-17T20:00:00Z", "2027-03-19T18:00:00Z"])
        XCTAssertTrue(missed.missed.contains(first.id))
        XCTAssertEqual(missed.state.userActions.snoozes, [], "pruned from the snoozes")
        XCTAssertTrue(missed.state.memory.isHandled(first.id), "its outcome remembered")
        state = missed.state
        guard case .made(let second) = SnoozeRule.apply(to: alarm, minutes: 1, now: at("2027-03-19T20:00:00Z"),
                                                        state: &state, existing: []) else {
            return XCTFail("not snoozed")
        }
        XCTAssertNotEqual(second.id, first.id)
        let later = Fixtures.runs(household, from: state, previousZone: utc, zone: utc, ["2027-03-19T20:01:00Z"])
        XCTAssertEqual(later.delivered, [second.id])
    }

    /// A health warning missed, pruned once a wash cycle took its place; the cycle removed by hand and the clock
    /// set back to two hours after the warning's time: it stays missed (and is not counted again).
    func testAMissedOneOffWhoseSourceLeftAndCameBackStaysMissedAfterASetBack() {
        let snowy = Pet(id: "p1", name: "Snowy", lastCompletedAt: at("2027-07-07T08:19:00Z"))
        var washing = snowy
        washing.cycle = LaundryCycle(id: "c-1", stage: .wash, startedAt: at("2027-07-16T12:00:30Z"))
        let idle = Household(settings: settings(), pets: [snowy])
        let busy = Household(settings: settings(), pets: [washing])
        let before = Fixtures.state(lastRun: "2027-07-13T11:59:00Z", zone: "UTC")
        let away = Fixtures.runs(idle, from: before, previousZone: utc, zone: utc,
                                 ["2027-07-13T12:00:00Z", "2027-07-16T12:00:00Z"])
        let warning = "laundry.health:p1:2027-07-07T08:19:00Z"
        XCTAssertEqual(away.missed, [warning])
        let cycle = Fixtures.runs(busy, from: away.state, previousZone: utc, zone: utc,
                                  ["2027-07-16T12:01:00Z", "2027-07-18T12:00:00Z"])
        let back = Fixtures.runs(idle, from: cycle.state, previousZone: utc, zone: utc,
                                 ["2027-07-14T12:00:00Z", "2027-07-14T12:01:00Z"])
        XCTAssertEqual(back.delivered, [])
        XCTAssertEqual(back.missed, [])
        XCTAssertEqual(back.state.missedTotal, away.state.missedTotal)
    }

    /// A dry stage seen by the first run ever, whose `dryMinutes` were raised later: a set back between its
    /// recorded fireAt and its new one leaves it seen, before its ledger entry is pruned and after.
    func testASeenOneOffIsJudgedByItsRecordedFireAtBeforeAndAfterPruning() {
        func household(dryMinutes: Int) -> Household {
            Household(settings: settings(), pets: [
                Pet(id: "p1", name: "Snowy", dryMinutes: dryMinutes,
                    cycle: LaundryCycle(id: "c-1", stage: .dry, startedAt: at("2027-05-01T08:00:00Z")))])
        }
        let first = Planner.plan(household(dryMinutes: 60), previous: nil, now: at("2027-05-01T12:00:00Z"),
                                 zone: utc)
        let dried = "laundry.dryComplete:p1:c-1"
        XCTAssertTrue(first.state.memory.isHandled(dried))
        // 60 → 7,000 minutes: the stage now completes at 2027-05-06T04:40:00Z.
        let raised = household(dryMinutes: 7_000)
        let kept = Fixtures.runs(raised, from: first.state, previousZone: utc, zone: utc, ["2027-05-01T12:01:00Z"])
        let pruned = Fixtures.runs(raised, from: first.state, previousZone: utc, zone: utc,
                                   ["2027-05-01T12:01:00Z", "2027-05-08T12:00:00Z"])
        XCTAssertNil(pruned.state.memory.ledger[dried], "the ledger entry is pruned")
        for state in [kept.state, pruned.state] {
            let back = Fixtures.runs(raised, from: state, previousZone: utc, zone: utc,
                                     ["2027-05-04T12:00:00Z", "2027-05-06T04:41:00Z"])
            XCTAssertEqual(back.delivered, [])
        }
    }
}
