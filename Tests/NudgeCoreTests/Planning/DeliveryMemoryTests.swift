import XCTest
@testable import NudgeCore

final class DeliveryMemoryTests: XCTestCase {
    private func at(_ text: String) -> Date { Fixtures.instant(text) }

    /// A one-off (its id stored as text), like a laundry stage.
    private func oneOff(_ id: String, fireAt: String, expiresAt: String) -> NudgeCore.Notification {
        NudgeCore.Notification(id: id, kind: .washComplete, source: "snowy", fireAt: at(fireAt),
                               expiresAt: at(expiresAt), title: "Washer done", body: "", priority: .medium,
                               category: "", actions: [], sound: false, badge: false, recurrence: .once)
    }

    /// A daily alarm's occurrence on `date`, its id kept as the date, as the planner makes it.
    private func fajr(_ date: String, fireAt: String, expiresAt: String) -> NudgeCore.Notification {
        NudgeCore.Notification(
            identity: .init(kind: .prayer, source: "fajr", stored: .dated(Fixtures.date(date))), fireAt: at(fireAt),
            expiresAt: at(expiresAt), title: "Fajr", body: "", priority: .critical, category: "", actions: [],
            sound: true, badge: false, recurrence: .once)
    }

    /// The planner's question: what `isHandled` answers for `candidate`.
    private func ask(_ memory: DeliveryMemory, _ candidate: NudgeCore.Notification) -> Bool {
        let filter = memory.handledFilter(capacity: 4)
        return memory.isHandled(candidate, source: Notification.Identity.SourceKey(candidate.source), filter: filter)
    }

    /// One-offs pruned as settled, each at its own fireAt, seen (not missed).
    private func settled(_ oneOffs: [NudgeCore.Notification]) -> SettledOneOffs {
        var settled = SettledOneOffs()
        for oneOff in oneOffs { settled.insert(id: oneOff.id, fireAt: oneOff.fireAt, missed: false) }
        return settled
    }

    func testEachOfTheFiveMemoriesAnswersHandled() {
        let inLedger = oneOff("laundry.washComplete:snowy:c-1", fireAt: "2026-11-21T08:00:00Z",
                              expiresAt: "2026-11-21T14:00:00Z")
        let deliveredOneOff = oneOff("laundry.washComplete:snowy:c-2", fireAt: "2026-11-19T08:00:00Z",
                                     expiresAt: "2026-11-19T14:00:00Z")
        let seenOneOff = oneOff("laundry.washComplete:snowy:c-3", fireAt: "2026-11-18T08:00:00Z",
                                expiresAt: "2026-11-18T14:00:00Z")
        let deliveredDate = fajr("2026-11-19", fireAt: "2026-11-19T04:30:00Z", expiresAt: "2026-11-19T05:00:00Z")
        let settledDate = fajr("2026-11-20", fireAt: "2026-11-20T04:31:00Z", expiresAt: "2026-11-20T05:01:00Z")
        var deliveredDates = DeliveredDates()
        deliveredDates.insert(id: deliveredDate.id)
        var settledDates = SettledDates()
        settledDates.insert(id: settledDate.id, fireAt: settledDate.fireAt, missed: true)
        var memory = DeliveryMemory(deliveredIDs: [deliveredOneOff.id], settledOneOffs: settled([seenOneOff]),
                                    deliveredDates: deliveredDates, settledDates: settledDates)
        memory.record(inLedger, .delivered, at: at("2026-11-21T08:00:00Z"))

        for oneOff in [inLedger, deliveredOneOff, seenOneOff] {
            XCTAssertTrue(ask(memory, oneOff), oneOff.id)
            XCTAssertTrue(memory.isHandled(oneOff.id), oneOff.id)
        }
        XCTAssertTrue(ask(memory, deliveredDate))
        XCTAssertTrue(memory.isHandled(deliveredDate.id))
        XCTAssertTrue(ask(memory, settledDate))
        let unknown = fajr("2026-11-21", fireAt: "2026-11-21T04:30:00Z", expiresAt: "2026-11-21T05:00:00Z")
        XCTAssertFalse(ask(memory, unknown))
        XCTAssertFalse(memory.isHandled(unknown.id))
        XCTAssertEqual([inLedger, deliveredOneOff, seenOneOff, deliveredDate, settledDate].map(\.id)
                        .filter(memory.wasDelivered), [inLedger.id, deliveredOneOff.id, deliveredDate.id])
    }

    /// The ledger is asked first: a dated occurrence in it is handled even when no date remembers it, and an entry
    /// recorded after the run's filter was made is found by `isHandled(_:)`.
    func testTheLedgerIsAskedFirstAndRecordUnlessHandledRecordsOnce() {
        let today = fajr("2026-11-21", fireAt: "2026-11-21T04:30:00Z", expiresAt: "2026-11-21T05:00:00Z")
        var memory = DeliveryMemory()
        XCTAssertTrue(memory.recordUnlessHandled(today, .suppressed, at: at("2026-11-21T04:30:00Z")))
        XCTAssertFalse(memory.recordUnlessHandled(today, .departed, at: at("2026-11-21T04:31:00Z")))
        XCTAssertEqual(memory.ledger[today.id]?.outcome, .suppressed)
        XCTAssertTrue(ask(memory, today))
        XCTAssertFalse(memory.wasDelivered(today.id))
        XCTAssertTrue(memory.recordDeliveryUnlessRecorded(today, deliveredAt: at("2026-11-21T04:32:00Z")))
        XCTAssertFalse(memory.recordDeliveryUnlessRecorded(today, deliveredAt: at("2026-11-21T04:33:00Z")))
        XCTAssertEqual(memory.ledger[today.id],
                       LedgerEntry(outcome: .delivered, kind: "alarm.prayer", fireAt: at("2026-11-21T04:30:00Z"),
                                   expiresAt: at("2026-11-21T05:00:00Z"), at: at("2026-11-21T04:32:00Z")))
    }

    /// Every outcome is kept for good once pruned, also of a one-off whose source left the files: it can come back
    /// (a cycle removed by hand, a file restored), and a clock set back can then reach its time again.
    func testAPrunedEntryStillAnswersHandledThroughItsIdOrItsDate() {
        let washed = oneOff("laundry.washComplete:snowy:c-1", fireAt: "2026-11-21T08:00:00Z",
                            expiresAt: "2026-11-21T14:00:00Z")
        let seen = oneOff("laundry.washComplete:snowy:c-0", fireAt: "2026-11-20T08:00:00Z",
                          expiresAt: "2026-11-20T14:00:00Z")
        let gone = oneOff("laundry.washComplete:luna:c-9", fireAt: "2026-11-20T08:00:00Z",
                          expiresAt: "2026-11-20T14:00:00Z")
        let rang = fajr("2026-11-21", fireAt: "2026-11-21T04:30:00Z", expiresAt: "2026-11-21T05:00:00Z")
        let missed = fajr("2026-11-20", fireAt: "2026-11-20T04:30:00Z", expiresAt: "2026-11-20T05:00:00Z")
        var memory = DeliveryMemory()
        memory.record(washed, .delivered, at: at("2026-11-21T08:00:00Z"))
        memory.record(seen, .seen, at: at("2026-11-21T08:00:00Z"))
        memory.record(gone, .delivered, at: at("2026-11-20T08:00:00Z"))
        memory.record(rang, .delivered, at: at("2026-11-21T04:30:00Z"))
        memory.record(missed, .missed, at: at("2026-11-21T08:00:00Z"))

        var early = memory
        early.prune(now: at("2026-11-23T13:59:00Z"))
        XCTAssertEqual(early.ledger.keys.sorted(), [washed.id])
        XCTAssertEqual(early.deliveredIDs, [gone.id])

        memory.prune(now: at("2026-11-24T00:00:00Z"))
        XCTAssertEqual(memory.ledger, [:])
        XCTAssertEqual(memory.deliveredIDs, [washed.id, gone.id])
        XCTAssertEqual(Set(memory.settledOneOffs.ids), [seen.id])
        XCTAssertTrue(memory.deliveredDates.contains(id: rang.id))
        XCTAssertTrue(memory.settledDates.contains(id: missed.id))
        for handled in [washed, seen, gone, rang, missed] {
            XCTAssertTrue(memory.isHandled(handled.id), handled.id)
            XCTAssertTrue(ask(memory, handled), handled.id)
        }
        XCTAssertTrue(memory.wasDelivered(washed.id))
        XCTAssertTrue(memory.wasDelivered(rang.id))
        XCTAssertFalse(memory.wasDelivered(seen.id))
        XCTAssertFalse(memory.wasDelivered(missed.id))
    }

    /// Pruning changes no answer: an occurrence handled before its ledger entry is pruned is handled after, by
    /// `isHandled(_:)` as by the planner's question, whatever its outcome, one-off or dated.
    func testIsHandledAnswersTheSameBeforeAndAfterPruning() {
        let outcomes: [LedgerEntry.Outcome] = [.delivered, .seen, .missed, .suppressed, .departed]
        var memory = DeliveryMemory()
        var occurrences: [NudgeCore.Notification] = []
        for (day, outcome) in zip(17..., outcomes) {
            let date = "2026-11-\(day)"
            let dated = fajr(date, fireAt: "\(date)T04:30:00Z", expiresAt: "\(date)T05:00:00Z")
            let oneOff = oneOff("laundry.washComplete:snowy:c-\(day)", fireAt: "\(date)T08:00:00Z",
                                expiresAt: "\(date)T14:00:00Z")
            for occurrence in [dated, oneOff] {
                memory.record(occurrence, outcome, at: at("\(date)T09:00:00Z"))
                occurrences.append(occurrence)
            }
        }
        var pruned = memory
        pruned.prune(now: at("2026-11-25T00:00:00Z"))
        XCTAssertEqual(pruned.ledger.keys.filter(DeliveredDates.isDated), [], "every dated entry went to a date")
        for occurrence in occurrences {
            let name = "\(occurrence.id), \(memory.ledger[occurrence.id]?.outcome.rawValue ?? "")"
            XCTAssertTrue(memory.isHandled(occurrence.id), name)
            XCTAssertTrue(ask(pruned, occurrence), "the planner: " + name)
            XCTAssertTrue(pruned.isHandled(occurrence.id), "isHandled: " + name)
        }
    }

    /// A clock that ran ahead to the 23rd recorded the 22nd's alarm as missed and the 21st's as delivered; set back
    /// to the 21st at 06:00Z, the 22nd reopens (and is reported as not missed after all), the delivery stays.
    func testReopenAfterAClockSetBackForgetsOutcomesStillAheadButKeepsDeliveries() {
        let delivered = fajr("2026-11-21", fireAt: "2026-11-21T04:30:00Z", expiresAt: "2026-11-21T05:00:00Z")
        let aheadMissed = fajr("2026-11-22", fireAt: "2026-11-22T04:30:00Z", expiresAt: "2026-11-22T05:00:00Z")
        let aheadDelivered = fajr("2026-11-23", fireAt: "2026-11-23T04:30:00Z", expiresAt: "2026-11-23T05:00:00Z")
        let pastSeen = oneOff("laundry.washComplete:snowy:c-1", fireAt: "2026-11-21T05:00:00Z",
                              expiresAt: "2026-11-21T11:00:00Z")
        let aheadSeen = oneOff("laundry.washComplete:snowy:c-2", fireAt: "2026-11-22T05:00:00Z",
                               expiresAt: "2026-11-22T11:00:00Z")
        var memory = DeliveryMemory(settledOneOffs: settled([pastSeen, aheadSeen]))
        memory.record(delivered, .delivered, at: at("2026-11-21T04:30:00Z"))
        memory.record(aheadMissed, .missed, at: at("2026-11-23T06:00:00Z"))
        memory.record(aheadDelivered, .delivered, at: at("2026-11-23T04:30:00Z"))
        let planned = [pastSeen.id: pastSeen.fireAt, aheadSeen.id: aheadSeen.fireAt,
                       aheadMissed.id: aheadMissed.fireAt]

        let forgotten = memory.reopen(after: at("2026-11-21T06:00:00Z")) { planned[$0] }

        XCTAssertEqual(forgotten, [aheadMissed.id])
        XCTAssertFalse(memory.isHandled(aheadMissed.id))
        XCTAssertFalse(memory.isHandled(aheadSeen.id))
        XCTAssertTrue(memory.isHandled(pastSeen.id))
        XCTAssertTrue(memory.wasDelivered(delivered.id))
        XCTAssertTrue(memory.wasDelivered(aheadDelivered.id), "a delivery really happened")
    }

    /// The same, for a date already pruned into `settledDates`.
    func testReopenReachesASettledDate() {
        let missed = fajr("2026-11-22", fireAt: "2026-11-22T04:30:00Z", expiresAt: "2026-11-22T05:00:00Z")
        var memory = DeliveryMemory()
        memory.record(missed, .missed, at: at("2026-11-25T00:00:00Z"))
        memory.prune(now: at("2026-11-25T00:00:00Z"))
        XCTAssertTrue(memory.settledDates.contains(id: missed.id))

        XCTAssertEqual(memory.reopen(after: at("2026-11-22T04:29:00Z")) { _ in nil }, [missed.id])
        XCTAssertFalse(ask(memory, missed))
    }

    /// The memory's members of state.json, written last in a fixed order, and read back to the same bytes.
    func testItsJSONRoundTripsByteForByte() throws {
        let rang = fajr("2026-11-21", fireAt: "2026-11-21T04:30:00Z", expiresAt: "2026-11-21T05:00:00Z")
        var deliveredDates = DeliveredDates()
        deliveredDates.insert(id: "alarm.prayer:fajr:2026-11-19")
        deliveredDates.insert(id: "alarm.prayer:fajr:2026-11-20")
        var settledDates = SettledDates()
        settledDates.insert(id: "alarm.prayer:isha:2026-11-19", fireAt: at("2026-11-19T16:45:00Z"), missed: true)
        var settledOneOffs = SettledOneOffs()
        settledOneOffs.insert(id: "laundry.dryComplete:snowy:c-0", fireAt: at("2026-11-18T09:00:00Z"), missed: false)
        settledOneOffs.insert(id: "laundry.dryComplete:luna:c-0", fireAt: at("2026-11-18T10:00:00Z"), missed: true)
        var memory = DeliveryMemory(deliveredIDs: ["streak.achievement:a-1:unlocked"], settledOneOffs: settledOneOffs,
                                    deliveredDates: deliveredDates, settledDates: settledDates)
        memory.record(rang, .delivered, at: at("2026-11-21T04:30:10Z"))
        var out = PrettyJSONWriter()
        out.open("{")
        memory.write(to: &out)
        out.close("}")
        let text = String(decoding: out.finish(), as: UTF8.self)
        XCTAssertEqual(text, """
            {
              "ledger": {
                "alarm.prayer:fajr:2026-11-21": {
                  "outcome": "delivered",
                  "kind": "alarm.prayer",
                  "fireAt": "2026-11-21T04:30:00Z",
                  "expiresAt": "2026-11-21T05:00:00Z",
                  "at": "2026-11-21T04:30:10Z"
                }
              },
              "deliveredIDs": [
                "streak.achievement:a-1:unlocked"
              ],
              "settledIDs": {
                "laundry.dryComplete:luna:c-0": "!2026-11-18T10:00:00Z",
                "laundry.dryComplete:snowy:c-0": "@2026-11-18T09:00:00Z"
              },
              "deliveredDates": {
                "alarm.prayer:fajr": "2026-11-19/2026-11-20"
              },
              "settledDates": {
                "alarm.prayer:isha": "2026-11-19!16:45"
              }
            }

            """)

        var state = RunState()
        state.memory = memory
        let decoded = try RunState.decode(state.fileContent)
        XCTAssertEqual(decoded.memory, memory)
        XCTAssertEqual(decoded.fileContent, state.fileContent)
    }

    func testAnEntryThatIsNotOneIsReportedWithItsPath() {
        let text = #"{"version": 1, "ledger": {"alarm.prayer:fajr:2026-11-21": {"outcome": "rang"}}, "#
            + #""settledIDs": [3]}"#
        XCTAssertThrowsError(try RunState.decode(Array(text.utf8))) { error in
            XCTAssertTrue("\(error)".contains("settledIDs"), "the ids are read before the ledger: \(error)")
        }
    }

    /// A state.json of an earlier version listed the seen one-offs by id alone: each is read as seen long ago,
    /// handled, and no set back reopens it.
    func testTheEarlierListOfSeenOneOffsIsReadAsSeenLongAgo() throws {
        let text = #"{"version": 1, "settledIDs": ["laundry.dryComplete:snowy:c-0"]}"#
        var memory = try RunState.decode(Array(text.utf8)).memory
        XCTAssertTrue(memory.isHandled("laundry.dryComplete:snowy:c-0"))
        XCTAssertEqual(memory.reopen(after: at("2026-11-18T00:00:00Z")) { _ in at("2026-11-19T00:00:00Z") }, [])
        XCTAssertTrue(memory.isHandled("laundry.dryComplete:snowy:c-0"))
    }
}
