import XCTest
@testable import NudgeCore

/// The channel queue (docs/promises.md): what the desktop and the command still owe, retried until shown or
/// expired, and the failures `status` shows.
final class ChannelQueueTests: XCTestCase {
    private func at(_ text: String) -> Date { Fixtures.instant(text) }

    /// Fajr on the 21st as a delivery records it: due 04:30Z, expires 05:00Z.
    private func fajr() throws -> NudgeCore.Notification {
        let clock = WallClock(zone: Fixtures.berlin)
        var occurrence = try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                                            settings: Settings(), clock: clock))
        occurrence.recurrence = .once  // records in state keep no recurrence: a delivered one is done
        return occurrence
    }

    private func delivery(_ notification: NudgeCore.Notification, badge: Int = 0) -> Delivery {
        Delivery(notification: notification, deliveredAt: notification.fireAt, badge: badge)
    }

    func testADeliveryIsQueuedOnceAndOnlyForSomeChannel() throws {
        let alarm = try fajr()
        var queue = ChannelQueue()
        queue.enqueue(delivery(alarm), channels: [])
        XCTAssertTrue(queue.isEmpty, "no channel: nothing owed")
        queue.enqueue(delivery(alarm), channels: [.desktop, .command])
        queue.enqueue(delivery(alarm, badge: 1), channels: [.command])
        XCTAssertEqual(queue.deliveries, [QueuedDelivery(delivery: delivery(alarm), channels: [.desktop, .command])])
    }

    func testAChannelSwitchedOffLeavesEveryDeliveryAndOneWithNoChannelLeftLeavesTheQueue() throws {
        let alarm = try fajr()
        var other = alarm
        other.id = "alarm.prayer:isha:2026-11-21"
        var queue = ChannelQueue()
        queue.enqueue(delivery(alarm), channels: [.desktop, .command])
        queue.enqueue(delivery(other), channels: [.desktop])
        queue.keepOnly(channels: [.command])
        XCTAssertEqual(queue.deliveries, [QueuedDelivery(delivery: delivery(alarm), channels: [.command])])
        queue.keepOnly(channels: [])
        XCTAssertTrue(queue.isEmpty)
    }

    func testAFailureStaysWithItsCountAndReasonAndASuccessClearsItsChannelOnly() throws {
        let alarm = try fajr()
        var queue = ChannelQueue()
        queue.enqueue(delivery(alarm), channels: [.desktop, .command])
        queue.recordAttempt("unknown:id:x", channel: .desktop, error: "exit 1", now: at("2026-11-21T04:30:00Z"))
        XCTAssertEqual(queue.failures, [], "an attempt at nothing queued changes nothing")

        queue.recordAttempt(alarm.id, channel: .desktop, error: "no desktop session bus",
                            now: at("2026-11-21T04:30:00Z"))
        queue.recordAttempt(alarm.id, channel: .command, error: nil, now: at("2026-11-21T04:30:00Z"))
        XCTAssertEqual(queue.deliveries.map(\.channels), [[.desktop]])
        XCTAssertEqual(queue.deliveries.map(\.attempts), [1])
        XCTAssertEqual(queue.deliveries.map(\.lastError), ["no desktop session bus"])
        XCTAssertEqual(queue.failures, [
            "2026-11-21T04:30:00Z \(alarm.id): desktop notification failed: no desktop session bus",
            "2026-11-21T04:30:00Z \(alarm.id): desktop command got through after 1 failed attempt(s)",
        ], "attempts count every channel's failures")
    }

    func testCommandQueueRetriesUntilExpiryThenGivesUp() throws {
        let alarm = try fajr()
        var state = RunState()
        _ = state.deliver(alarm, now: at("2026-11-21T04:30:00Z"), channels: [.command])
        XCTAssertEqual(state.channelQueue.deliveriesToTry(now: at("2026-11-21T04:30:00Z")).count, 1)
        state.channelQueue.recordAttempt(alarm.id, error: "notify-send exited with status 1",
                                         now: at("2026-11-21T04:30:00Z"))
        XCTAssertEqual(state.channelQueue.deliveries.first?.attempts, 1)
        // Each failure carries its time, for `status` (docs/design.md, "The desktop").
        XCTAssertEqual(state.channelQueue.failures,
                       ["2026-11-21T04:30:00Z \(alarm.id): desktop command failed: notify-send exited with status 1"])
        XCTAssertEqual(state.channelQueue.deliveriesToTry(now: at("2026-11-21T05:00:00Z")).count, 1, "at expiry")
        XCTAssertEqual(state.channelQueue.deliveriesToTry(now: at("2026-11-21T05:00:01Z")).count, 0)
        XCTAssertEqual(state.channelQueue.deliveries, [])
        XCTAssertEqual(state.channelQueue.failures.last, "2026-11-21T05:00:01Z \(alarm.id): desktop command gave up "
                        + "after 1 failed attempt(s), the notification expired (notify-send exited with status 1)")
    }

    func testEachChannelLeavesTheQueueWhenItShowedTheDeliveryAndALateSuccessIsNoted() throws {
        let alarm = try fajr()
        var state = RunState()
        let now = at("2026-11-21T04:30:00Z")
        _ = state.deliver(alarm, now: now, channels: [.desktop, .command])
        state.channelQueue.recordAttempt(alarm.id, channel: .desktop, error: "no desktop session bus", now: now)
        state.channelQueue.recordAttempt(alarm.id, channel: .command, error: nil, now: now)
        XCTAssertEqual(state.channelQueue.deliveries.map(\.channels), [[.desktop]], "only the desktop is left to retry")
        let later = at("2026-11-21T04:31:00Z")
        state.channelQueue.recordAttempt(alarm.id, channel: .desktop, error: nil, now: later)
        XCTAssertEqual(state.channelQueue.deliveries, [])
        XCTAssertEqual(state.channelQueue.failures.last,
                       "2026-11-21T04:31:00Z \(alarm.id): desktop notification got through after 1 failed attempt(s)")
    }

    /// stderr, which cron mails each run, says a failure when it first happens and when it ends; each retry in
    /// between only goes to `status` (docs/promises.md).
    func testAFailureIsSaidWhenItStartsAndWhenItEnds() throws {
        let alarm = try fajr()
        var state = RunState()
        var said: [String] = []
        _ = state.deliver(alarm, now: at("2026-11-21T04:30:00Z"), channels: [.desktop])
        for (minute, error) in [("30", "no desktop session bus"), ("31", "no desktop session bus"), ("32", nil)] {
            let now = at("2026-11-21T04:\(minute):00Z")
            for queued in state.channelQueue.deliveriesToTry(now: now) {
                queued.reportLine(.desktop, error: error).map { said.append($0) }
                state.channelQueue.recordAttempt(alarm.id, channel: .desktop, error: error, now: now)
            }
        }
        XCTAssertEqual(said, [
            "desktop notification failed for \(alarm.id): no desktop session bus; retried on the next runs until "
                + "2026-11-21T05:00:00Z (said once: `nudge status` shows the retries)",
            "desktop notification got through for \(alarm.id) after 2 failed attempts",
        ])
        XCTAssertEqual(state.channelQueue.failures.count, 3, "status has each attempt")

        _ = state.deliver(alarm, now: at("2026-11-21T04:40:00Z"), channels: [.desktop])
        let queued = state.channelQueue.deliveriesToTry(now: at("2026-11-21T04:40:00Z"))[0]
        state.channelQueue.recordAttempt(alarm.id, channel: .desktop, error: "exited with status 1",
                                         now: at("2026-11-21T04:40:00Z"))
        XCTAssertNotNil(queued.reportLine(.desktop, error: "exited with status 1"))
        let expired = state.channelQueue.dropExpired(now: at("2026-11-21T05:00:01Z"))
        XCTAssertEqual(expired.compactMap(\.expiredLine), [
            "desktop notification gave up on \(alarm.id): it expired at 2026-11-21T05:00:00Z after 1 failed attempt "
                + "(exited with status 1)",
        ])
    }

    func testOnlyTheLatestFailuresAreKept() throws {
        let alarm = try fajr()
        var queue = ChannelQueue()
        queue.enqueue(delivery(alarm), channels: [.command])
        for second in 0..<(ChannelQueue.recentFailureLimit + 5) {
            queue.recordAttempt(alarm.id, error: "exit \(second)", now: at("2026-11-21T04:30:00Z"))
        }
        XCTAssertEqual(queue.failures.count, ChannelQueue.recentFailureLimit)
        XCTAssertEqual(queue.failures.first, "2026-11-21T04:30:00Z \(alarm.id): desktop command failed: exit 5")
        XCTAssertEqual(queue.deliveries.map(\.attempts), [ChannelQueue.recentFailureLimit + 5],
                       "the attempts are counted whatever the list keeps")
    }

    /// `nudge test` reports a failed test at once: taken off the queue, it is neither retried nor noted as given up.
    func testADroppedDeliveryLeavesNoFailure() throws {
        let alarm = try fajr()
        var queue = ChannelQueue()
        queue.enqueue(delivery(alarm), channels: [.desktop])
        queue.drop(alarm.id)
        XCTAssertTrue(queue.isEmpty)
        XCTAssertEqual(queue.dropExpired(now: at("2026-11-22T00:00:00Z")), [])
        XCTAssertEqual(queue.failures, [])
    }

    /// The queue's members of state.json keep the names they had when only the command was queued.
    func testItsJSONKeepsTheCommandNamesAndRoundTripsByteForByte() throws {
        let alarm = try fajr()
        var queue = ChannelQueue()
        queue.enqueue(delivery(alarm, badge: 2), channels: [.desktop, .command])
        queue.recordAttempt(alarm.id, channel: .desktop, error: "exit 1: \"quoted\"", now: at("2026-11-21T04:31:00Z"))
        var out = PrettyJSONWriter()
        out.open("{")
        queue.write(to: &out)
        out.close("}")
        let written = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.finish())) as? [String: Any])
        XCTAssertEqual(written.keys.sorted(), ["commandFailures", "commandQueue"])
        let entry = try XCTUnwrap((written["commandQueue"] as? [[String: Any]])?.first)
        XCTAssertEqual(entry.keys.sorted(), ["attempts", "badge", "channels", "delivery", "lastError"])
        XCTAssertEqual(entry["channels"] as? [String], ["desktop", "command"])
        XCTAssertEqual(entry["badge"] as? Int, 2)
        XCTAssertEqual(entry["lastError"] as? String, "exit 1: \"quoted\"")
        XCTAssertEqual(written["commandFailures"] as? [String],
                       ["2026-11-21T04:31:00Z \(alarm.id): desktop notification failed: exit 1: \"quoted\""])

        var state = RunState()
        state.channelQueue = queue
        let decoded = try RunState.decode(state.fileContent)
        XCTAssertEqual(decoded.channelQueue, queue)
        XCTAssertEqual(decoded.fileContent, state.fileContent)
    }

    func testAQueuedDeliveryThatIsNotOneIsReportedWithItsPath() {
        let text = #"{"version": 1, "commandQueue": [{"delivery": 3}]}"#
        XCTAssertThrowsError(try RunState.decode(Array(text.utf8))) { error in
            XCTAssertEqual("\(error)", "state.json: commandQueue[0]: is not a queued desktop-command delivery")
        }
    }
}
