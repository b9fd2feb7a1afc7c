import XCTest
@testable import NudgeCore

final class ChannelStartTests: XCTestCase {
    private let start = ChannelStart(id: "alarm.prayer:fajr:2026-11-21", channel: .command, attempts: 0, pid: 4242,
                                     startTime: 123_456, bootID: "boot-a")

    private func attempt(attempts: Int = 0, channels: [DeliveryChannel] = [.desktop, .command]) -> CommandAttempt {
        let alarm = AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                         settings: Fixtures.settings(), clock: WallClock(zone: Fixtures.berlin))!
        return CommandAttempt(delivery: Delivery(notification: alarm, deliveredAt: alarm.fireAt), channels: channels,
                              attempts: attempts)
    }

    func testAStartedProgramIsNeverStartedAgainOnTheSameBoot() {
        XCTAssertEqual(start.fate(bootID: "boot-a", isRunning: true), .running)
        XCTAssertEqual(start.fate(bootID: "boot-a", isRunning: false), .finished)
        XCTAssertEqual(start.fate(bootID: "boot-b", isRunning: false), .lostWithTheMachine,
                       "a restart may have stopped it before it did its work")
    }

    func testANoteConcernsOnlyTheQueuedDeliveryAsItStands() {
        XCTAssertTrue(start.concerns(attempt()))
        XCTAssertFalse(start.concerns(attempt(attempts: 1)), "a failure was recorded after it started")
        XCTAssertFalse(start.concerns(attempt(channels: [.desktop])), "the command already got it")
    }

    func testTheNoteRoundTripsAndADamagedOneReadsAsNone() {
        XCTAssertEqual(ChannelStart(fileContent: start.fileContent), start)
        XCTAssertNil(ChannelStart(fileContent: start.fileContent.prefix(20)))
        XCTAssertEqual(ChannelStart.noteName(id: start.id, channel: .command, attempts: 0),
                       ChannelStart.noteName(id: start.id, channel: .command, attempts: 0))
        XCTAssertNotEqual(ChannelStart.noteName(id: start.id, channel: .command, attempts: 0),
                          ChannelStart.noteName(id: start.id, channel: .desktop, attempts: 0))
    }
}
