import XCTest
@testable import NudgeCore

final class ChannelStartTests: XCTestCase {
    private let startedAt = Fixtures.instant("2026-11-21T08:00:00Z")

    private func start(limit: TimeInterval? = 10) -> ChannelStart {
        ChannelStart(id: "alarm.prayer:fajr:2026-11-21", channel: .command, attempts: 0, pid: 4242,
                     startTime: 123_456, bootID: "boot-a", startedAt: startedAt, limit: limit)
    }

    private func attempt(attempts: Int = 0, channels: [DeliveryChannel] = [.desktop, .command]) -> QueuedDelivery {
        let alarm = AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                         settings: Fixtures.settings(), clock: WallClock(zone: Fixtures.berlin))!
        return QueuedDelivery(delivery: Delivery(notification: alarm, deliveredAt: alarm.fireAt), channels: channels,
                              attempts: attempts)
    }

    func testAProgramStillWithinItsTimeIsLeftAloneAndOnePastItIsStopped() {
        XCTAssertEqual(start().fate(bootID: "boot-a", isRunning: true, runningFor: 5), .running)
        XCTAssertEqual(start().fate(bootID: "boot-a", isRunning: true, runningFor: 11),
                       .overdue)
        XCTAssertEqual(start(limit: nil).fate(bootID: "boot-a", isRunning: true, runningFor: 3600),
                       .running, "the click waiter has no limit: it ends at the notification's expiry")
    }

    func testTheNotedOutcomeIsRecordedInsteadOfStartingTheProgramAgain() {
        var succeeded = start()
        succeeded.outcome = ""
        XCTAssertEqual(succeeded.fate(bootID: "boot-b", isRunning: false, runningFor: 0), .succeeded)
        var failed = start()
        failed.outcome = "record.sh exited with status 1"
        XCTAssertEqual(failed.fate(bootID: "boot-a", isRunning: false, runningFor: 0),
                       .failed("record.sh exited with status 1"), "a failure is retried like any failure")
        var shown = start(limit: nil)
        shown.shown = true
        shown.outcome = "nudge exited with status 1"
        XCTAssertEqual(shown.fate(bootID: "boot-a", isRunning: false, runningFor: 0), .succeeded,
                       "a waiter that showed its notification delivered it, however it ended")
    }

    func testWithoutAnOutcomeAProgramGoneOrFromAnotherBootIsStartedAgain() {
        XCTAssertEqual(start().fate(bootID: "boot-a", isRunning: false, runningFor: 0), .startAgain)
        XCTAssertEqual(start().fate(bootID: "boot-b", isRunning: true, runningFor: 0), .startAgain,
                       "a restart may have stopped it before it did its work")
    }

    func testANoteConcernsOnlyTheQueuedDeliveryAsItStands() {
        XCTAssertTrue(start().concerns(attempt()))
        XCTAssertFalse(start().concerns(attempt(attempts: 1)), "a failure was recorded after it started")
        XCTAssertFalse(start().concerns(attempt(channels: [.desktop])), "the command already got it")
    }

    func testTheNoteRoundTripsAndADamagedOneReadsAsNone() {
        var noted = start()
        noted.outcome = "x exited with status 2"
        noted.shown = true
        XCTAssertEqual(ChannelStart(fileContent: noted.fileContent), noted)
        XCTAssertEqual(ChannelStart(fileContent: start(limit: nil).fileContent), start(limit: nil))
        XCTAssertNil(ChannelStart(fileContent: Array(start().fileContent.prefix(20))))
        XCTAssertNotEqual(ChannelStart.noteName(id: noted.id, channel: .command, attempts: 0),
                          ChannelStart.noteName(id: noted.id, channel: .desktop, attempts: 0))
    }
}
