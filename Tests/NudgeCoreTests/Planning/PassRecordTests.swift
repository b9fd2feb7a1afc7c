import XCTest
@testable import NudgeCore

/// What a pass records of itself in the state it leaves (docs/design.md, "One run"): a run notes its time and what
/// it delivered; a re-plan after an edit leaves `status` reporting the last run; both keep what the shell read.
final class PassRecordTests: XCTestCase {
    private let household = Household(settings: Fixtures.settings(), alarms: [Fixtures.alarm("fajr", at: "05:30")])
    private let now = Fixtures.instant("2026-11-21T04:30:00Z")  // fajr, 05:30 in Berlin

    private func previous() -> RunState {
        var state = Fixtures.state(lastRun: "2026-11-21T04:29:00Z")
        state.lastRunCommandAt = Fixtures.instant("2026-11-21T04:29:00Z")
        state.lastDelivered = 3
        state.lastMissed = 2
        state.lastSuppressed = 1
        return state
    }

    func testARunNotesItsTimeAndWhatItDelivered() {
        let result = Planner.plan(household, previous: previous(), now: now, zone: Fixtures.berlin,
                                  pass: PassRecord(kind: .run(systemd: true)))
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(result.state.lastRunCommandAt, now)
        XCTAssertEqual(result.state.lastSystemdRunAt, now)
        XCTAssertEqual([result.state.lastDelivered, result.state.lastMissed, result.state.lastSuppressed], [1, 0, 0])
    }

    func testARunByCronLeavesTheLastSystemdRunAlone() {
        var earlier = previous()
        earlier.lastSystemdRunAt = Fixtures.instant("2026-11-21T04:00:00Z")
        let result = Planner.plan(household, previous: earlier, now: now, zone: Fixtures.berlin,
                                  pass: PassRecord(kind: .run(systemd: false)))
        XCTAssertEqual(result.state.lastRunCommandAt, now)
        XCTAssertEqual(result.state.lastSystemdRunAt, Fixtures.instant("2026-11-21T04:00:00Z"))
    }

    func testAReplanAfterAnEditDeliversButStatusGoesOnReportingTheLastRun() {
        let result = Planner.plan(household, previous: previous(), now: now, zone: Fixtures.berlin,
                                  pass: PassRecord(kind: .replanAfterEdit))
        XCTAssertEqual(result.deliveries.map(\.notification.id), ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(result.state.lastRunAt, now, "the next pass falls due after this one")
        XCTAssertEqual(result.state.lastRunCommandAt, Fixtures.instant("2026-11-21T04:29:00Z"))
        XCTAssertEqual([result.state.lastDelivered, result.state.lastMissed, result.state.lastSuppressed], [3, 2, 1])
    }

    func testTheFirstPassEverIsReportedEvenWhenItIsAReplan() {
        let result = Planner.plan(household, previous: nil, now: now, zone: Fixtures.berlin,
                                  pass: PassRecord(kind: .replanAfterEdit))
        XCTAssertNil(result.state.lastRunCommandAt)
        XCTAssertEqual(result.state.lastDelivered, result.deliveries.count)
    }

    func testEveryPassKeepsWhatTheShellReadAndAccountsForItsOutboxLines() {
        let pass = PassRecord(kind: .replanAfterEdit, fileErrors: ["alarms.json:3:12: expected a time"],
                              fileNotes: ["alarms.json: alarms[1] is not planned until it is fixed"],
                              zoneWarning: "TZ is a POSIX rule")
        var earlier = previous()
        earlier.fileErrors = ["an old problem"]
        earlier.outboxBytes = 100
        let result = Planner.plan(household, previous: earlier, now: now, zone: Fixtures.berlin, pass: pass)
        XCTAssertEqual(result.state.fileErrors, pass.fileErrors)
        XCTAssertEqual(result.state.fileNotes, pass.fileNotes)
        XCTAssertEqual(result.state.zoneWarning, pass.zoneWarning)
        XCTAssertEqual(result.outboxLines, result.deliveries.map(\.outboxLine).joined())
        XCTAssertEqual(result.state.outboxBytes, 100 + result.outboxLines.utf8.count)
    }
}
