import XCTest
@testable import NudgeCore

final class RunStateTests: XCTestCase {
    private func sampleState() -> RunState {
        var state = RunState()
        state.lastRunAt = Fixtures.instant("2026-11-21T08:00:00Z")
        state.timeZone = "Europe/Berlin"
        state.zoneWarning = "TZ=\"CET-1CEST,M3.5.0,M10.5.0/3\" is a POSIX rule nudge cannot follow exactly"
        state.memory = DeliveryMemory(ledger: [
            "alarm.prayer:fajr:2026-11-21": LedgerEntry(
                outcome: .delivered, kind: "alarm.prayer", fireAt: Fixtures.instant("2026-11-21T04:30:00Z"),
                expiresAt: Fixtures.instant("2026-11-21T05:00:00Z"), at: Fixtures.instant("2026-11-21T04:30:00Z")),
            "laundry.washComplete:luna:c-2": LedgerEntry(
                outcome: .seen, kind: "laundry.washComplete", fireAt: Fixtures.instant("2026-11-21T07:45:00Z"),
                expiresAt: Fixtures.instant("2026-11-21T13:45:00Z"), at: Fixtures.instant("2026-11-21T08:00:00Z")),
        ])
        state.outboxBytes = 1234
        state.deliveredTotal = 7
        state.missedTotal = 1
        state.recentMissed = [MissedRecord(id: "alarm.prayer:isha:2026-11-20", kind: "alarm.prayer",
                                           title: "Night Prayer Time", fireAt: Fixtures.instant("2026-11-20T17:30:00Z"),
                                           reason: .expired, recordedAt: Fixtures.instant("2026-11-20T19:00:00Z"))]
        state.fileErrors = ["alarms.json: alarms[0].time: \"25:00\" is not a time (HH:MM)"]
        state.lastGood = [.alarms: "0123456789abcdef"]
        state.lastBudget = BudgetStatus(pending: 3, limit: 64)
        state.lastDelivered = 1
        state.lastMissed = 0
        let alarm = Fixtures.alarm()
        state.userActions.timers = [PrayerTimerRule.timer(for: alarm, date: "2026-11-21",
                                                          now: Fixtures.instant("2026-11-21T04:31:00Z"),
                                                          settings: Settings())]
        state.recordAction(.startTimer, on: "alarm.prayer:fajr:2026-11-21", now: Fixtures.instant("2026-11-21T04:31:00Z"))
        if var occurrence = AlarmRule.occurrence(of: alarm, on: Fixtures.date("2026-11-21"), settings: Settings(),
                                                 clock: WallClock(zone: Fixtures.berlin)) {
            occurrence.recurrence = .once  // records in state keep no recurrence: a delivered one is done
            _ = state.deliver(occurrence, now: Fixtures.instant("2026-11-21T04:30:00Z"), channels: [.desktop, .command])
        }
        return state
    }

    func testTimersActionsAndQueuedChannelsRoundTrip() throws {
        let decoded = try RunState.decode(sampleState().fileContent)
        XCTAssertEqual(decoded.userActions.timers.map(\.id), ["alarm.timerDone:fajr:2026-11-21"])
        XCTAssertEqual(decoded.userActions.applied["alarm.prayer:fajr:2026-11-21"]?["START_TIMER"],
                       Fixtures.instant("2026-11-21T04:31:00Z"))
        XCTAssertEqual(decoded.channelQueue.deliveries.map(\.channels), [[.desktop, .command]])
    }

    func testAQueueWrittenBeforeTheDesktopChannelIsForTheCommand() throws {
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sampleState().fileContent)) as? [String: Any])
        var queue = try XCTUnwrap(object["commandQueue"] as? [[String: Any]])
        queue[0]["channels"] = nil
        object["commandQueue"] = queue
        let old = try JSONSerialization.data(withJSONObject: object)
        XCTAssertEqual(try RunState.decode(Array(old)).channelQueue.deliveries.map(\.channels), [[.command]])
    }

    func testStateRoundTripsThroughItsFile() throws {
        let state = sampleState()
        let decoded = try RunState.decode(state.fileContent)
        XCTAssertEqual(decoded, state)
        XCTAssertEqual(decoded.fileContent, state.fileContent)
    }

    /// `sampleState` with every remaining member set, so the writer's every branch is read back.
    private func fullState() throws -> RunState {
        var state = sampleState()
        state.latestRunAt = Fixtures.instant("2026-11-21T08:00:30Z")
        var deliveredDates = DeliveredDates()
        deliveredDates.insert(id: "alarm.prayer:fajr:2026-11-19")
        deliveredDates.insert(id: "alarm.prayer:fajr:2026-11-20")
        deliveredDates.insert(id: "alarm.prayer:fajr:2026-11-22")
        deliveredDates.insert(id: "commute.leave:office:2026-11-23")
        var settledDates = SettledDates()
        settledDates.insert(id: "alarm.prayer:isha:2026-11-19", fireAt: Fixtures.instant("2026-11-19T16:45:00Z"))
        settledDates.insert(id: "alarm.prayer:fajr:2026-11-20", fireAt: Fixtures.instant("2026-11-19T23:30:00Z"),
                            missed: true)
        var settledOneOffs = SettledOneOffs()
        settledOneOffs.insert(id: "streak.achievement:a-0:unlocked", fireAt: Fixtures.instant("2026-11-19T10:00:00Z"),
                              missed: false)
        settledOneOffs.insert(id: "laundry.dryComplete:snowy:c-0", fireAt: Fixtures.instant("2026-11-19T09:00:00Z"),
                              missed: true)
        state.memory = DeliveryMemory(
            ledger: state.memory.ledger,
            deliveredIDs: ["streak.achievement:a-1:unlocked", "laundry.washComplete:snowy:c-1"],
            settledOneOffs: settledOneOffs, deliveredDates: deliveredDates, settledDates: settledDates)
        state.outboxLastLine = "00ff00ff00ff00ff"
        state.noteCalendar(CalendarMemory(
            url: "https://dav.example.org/cal/sam/nudge/",
            kept: [.init(uid: "alarm.prayer:fajr:2026-11-22@nudge", etag: "\"abc\"", hash: "0123456789abcdef",
                         start: Fixtures.instant("2026-11-22T04:30:00Z")),
                   .init(uid: "laundry.washComplete:snowy:c-1@nudge", etag: nil, hash: "fedcba9876543210",
                         start: Fixtures.instant("2026-11-21T11:15:00Z"))],
            lastMatchAt: Fixtures.instant("2026-11-21T08:00:00Z"), failure: "cannot connect to dav.example.org"))
        state.badge = 2
        state.lastSuppressed = 1
        state.userActions.snoozes = state.userActions.timers
        state.channelQueue.deliveries[0].attempts = 2
        state.channelQueue.deliveries[0].lastError = "exit 1: \"quoted\" and \\ backslash\nsecond line"
        state.channelQueue = ChannelQueue(deliveries: state.channelQueue.deliveries,
                                          failures: ["notify: exit 3", "Zoë ❄️"])
        state.unappliedClicks = UnappliedClicks(clicks: [UnappliedClick(
            id: "laundry.washComplete:snowy:c-5", title: "Wash Complete!", action: "COMPLETE_ACTION",
            label: "Start Dryer", clickedAt: Fixtures.instant("2026-11-21T08:46:00Z"),
            reason: "retried until the notification expired at 2026-11-21T14:45:00Z: laundry.json:1:68: \"x\"")])
        state.plannedLeaveTimes = ["office": Fixtures.instant("2026-11-23T07:10:00Z"),
                                   "dentist": Fixtures.instant("2026-11-24T12:55:00Z")]
        state.smartReminder = SmartReminder(
            result: SmartReminderTime.Result(time: try XCTUnwrap(WallTime(hour: 19, minute: 30)), windowStartHour: 18,
                                             coveragePercent: 80, playCount: 12),
            computedAt: Fixtures.instant("2026-11-21T03:00:00Z"))
        return state
    }

    func testEveryMemberRoundTripsThroughTheFile() throws {
        let state = try fullState()
        XCTAssertEqual(try RunState.decode(state.fileContent), state)
    }

    /// The file is written member by member; its layout must be `JSONValue.prettyText`'s, the one every other
    /// file nudge writes has: re-laying out its own parse changes no byte.
    func testTheFileIsLaidOutAsPrettyText() throws {
        for state in [RunState(), sampleState(), try fullState()] {
            let content = state.fileContent
            let relaidOut = Array((try JSONParser.parse(content).prettyText + "\n").utf8)
            XCTAssertEqual(String(decoding: content, as: UTF8.self), String(decoding: relaidOut, as: UTF8.self))
        }
    }

    /// `stateKeys`, which the manual and docs/files.md list, are the members the file is written with, in order.
    func testTheFileIsWrittenWithTheStateKeysInOrder() throws {
        var state = try fullState()
        state.lastRunCommandAt = Fixtures.instant("2026-11-21T08:00:00Z")
        state.lastSystemdRunAt = state.lastRunCommandAt
        state.fileNotes = ["alarms.json: using the last good version"]
        let text = String(decoding: state.fileContent, as: UTF8.self)
        let members = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }
            .map { $0.dropFirst(3).prefix { $0 != "\"" } }.map(String.init)
        XCTAssertEqual(members, RunState.stateKeys)
        XCTAssertEqual(Set(members).count, members.count)
    }

    func testLedgerIsWrittenSortedById() throws {
        let text = String(decoding: sampleState().fileContent, as: UTF8.self)
        let alarm = try XCTUnwrap(text.range(of: "alarm.prayer:fajr"))
        let laundry = try XCTUnwrap(text.range(of: "laundry.washComplete:luna"))
        XCTAssertLessThan(alarm.lowerBound, laundry.lowerBound)
    }

    func testDamagedStateIsAnErrorWithItsPlace() throws {
        let problem = try XCTUnwrap(decodingProblem(Array("{\"version\": 1,\n\"ledger\": [}".utf8)),
                                    "a damaged state.json must not decode")
        XCTAssertEqual(problem.file, "state.json")
        XCTAssertEqual(problem.place, .position(line: 2, column: 12))
    }

    func testADateListThatIsNotOneIsAnErrorAtItsKeyPath() throws {
        for (member, expected) in [("deliveredDates", "a list of dates"),
                                   ("settledDates", "a list of dates with their instants")] {
            let text = #"{"version": 1, "\#(member)": {"alarm.prayer:fajr": "2026-03-21@noon"}}"#
            let problem = try XCTUnwrap(decodingProblem(Array(text.utf8)), member)
            XCTAssertEqual(problem.description, "state.json: \(member).alarm.prayer:fajr: is not \(expected)")
        }
    }

    func testStateFromANewerNudgeIsRefused() throws {
        let problem = try XCTUnwrap(decodingProblem(Array(#"{"version": 2}"#.utf8)), "a newer format must be refused")
        XCTAssertEqual(problem.description, "state.json: version: 2 was written by a newer nudge (this one reads version 1)")
    }

    /// The problem `RunState.decode` throws for `data`; nil when it decodes.
    private func decodingProblem(_ data: [UInt8]) throws -> DataProblem? {
        do {
            _ = try RunState.decode(data)
            return nil
        } catch let problem as DataProblem {
            return problem
        }
    }
}
