import Foundation
import XCTest

/// A clock set back and forth any distance, any number of times (docs/promises.md, exactly once; issue 27): never a
/// second delivery, never a replay of what was seen, missed or suppressed, and the age limit of `snooze` and
/// `act` measured from the expiry. Each test is a sequence of `nudge` commands with `--now`.
final class ClockExcursionTests: DataDirectoryTestCase {
    private let wash = "laundry.washComplete:snowy:c-1"

    /// Case 1: a wash delivered during an excursion behind the latest run, the clock forward (still behind it)
    /// far enough to prune its entry, then back again: the old recall from the outbox ran once per step back.
    func testAWashDeliveredBehindTheLatestRunIsNotDeliveredAgainAfterASecondStepBack() throws {
        try dir.write("settings.json", Fixture.settings())
        assertRun(try dir.run(at: "2026-03-10T12:00:00Z"), delivers: [])
        // Back to the 5th; a wash started there finishes at 11:00 and is delivered once.
        assertRun(try dir.run(at: "2026-03-05T10:00:00Z"), delivers: [])
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-03-05T10:15:00Z"))
        assertRun(try dir.run(at: "2026-03-05T10:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-03-05T11:00:00Z"), delivers: [wash])
        // Forward to the 8th, still behind the 10th: the entry expired more than two days ago.
        assertRun(try dir.run(at: "2026-03-08T12:00:00Z"), delivers: [])
        // Back to 13:00 on the 5th, the wash unexpired by that clock.
        assertRun(try dir.run(at: "2026-03-05T13:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-03-05T13:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [wash])
    }

    /// Case 2: an achievement recorded as seen by the first run, the ledger pruned days later, the clock back to
    /// where the achievement is unexpired: it stays unannounced.
    func testWhatTheFirstRunSawIsNeverAnnouncedAfterTheClockGoesBackPastThePruning() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("streaks.json", """
            { "games": [ { "id": "wordle", "name": "Wordle" } ],
              "achievements": [ { "id": "a-1", "title": "Centurion", "description": "100 days",
                                  "unlockedAt": "2026-02-23T09:00:00Z" } ] }
            """)
        assertRun(try dir.run(at: "2026-02-24T12:00:00Z"), delivers: [])   // first run: seen
        assertRun(try dir.run(at: "2026-03-05T12:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-02-25T12:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-02-25T12:01:00Z"), delivers: [])
        XCTAssertFalse(dir.exists("outbox.jsonl"))
    }

    /// Case 2: a wash recorded as missed, pruned, and the clock set back to inside its time to ring.
    func testAMissedWashStaysMissedAfterTheClockGoesBackPastThePruning() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-02-24T11:30:00Z"))  // done 12:15
        assertRun(try dir.run(at: "2026-02-24T12:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-02-27T12:00:00Z"), delivers: [],
                  tellsMissed: "Wash Complete! (Tue 24 Feb 12:15)")   // expired at 18:15 on the 24th
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 1)
        assertRun(try dir.run(at: "2026-03-03T12:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-02-24T13:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-02-24T13:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs().count, 1, "the digest that told it, and nothing else")
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 1)
    }

    /// Case 3: "too old to snooze" is measured from the expiry, not from whether a run pruned the entry.
    func testSnoozingTwoAndAHalfDaysAfterTheExpiryIsTooOldWithOrWithoutARunBetween() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-03-05T10:15:00Z"))  // done 11:00
        assertRun(try dir.run(at: "2026-03-05T10:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-03-05T11:00:00Z"), delivers: [wash])     // expires 17:00
        let other = try copyOfDirectory()
        let late = "2026-03-08T05:00:00Z"                                           // 2.5 days after 17:00
        let withoutRun = try dir.nudge("snooze", now: late, wash)
        XCTAssertEqual(withoutRun.status, 65, withoutRun.summary)
        XCTAssertTrue(withoutRun.stderr.contains("too long ago to snooze"), withoutRun.summary)
        assertRun(try other.run(at: late), delivers: [])
        let afterRun = try other.nudge("snooze", now: late, wash)
        XCTAssertEqual(afterRun.status, 65, afterRun.summary)
        XCTAssertTrue(afterRun.stderr.contains("too long ago to snooze"), afterRun.summary)
        // Within the two days it works, whether or not a run came between.
        let inTime = try dir.nudge("snooze", now: "2026-03-07T16:00:00Z", wash)
        XCTAssertEqual(inTime.status, 0, inTime.summary)
    }

    /// The alarm of a date rung a month ago, the clock set back to that morning: its 05:30 passes again silently,
    /// while the days the clock ran ahead over ring at their time.
    func testAnAlarmRungWeeksAgoNeverRingsAgainWhileWhatTheClockSkippedRings() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "05:30", durationMinutes: 60))
        let first = "alarm.prayer:fajr:2026-03-01"
        assertRun(try dir.run(at: "2026-03-01T05:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-03-01T05:30:00Z"), delivers: [first])
        // The clock jumps 40 days ahead and runs there a while, then is set back to the true morning.
        assertRun(try dir.run(at: "2026-04-10T05:00:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (Mon 09 Mar 05:30), Morning Prayer Time (Tue 10 Mar 05:30), "
                      + "Morning Prayer Time (Wed 11 Mar 05:30), Morning Prayer Time (Thu 12 Mar 05:30), "
                      + "Morning Prayer Time (Fri 13 Mar 05:30) and 27 more")
        assertRun(try dir.run(at: "2026-04-10T05:30:00Z"), delivers: ["alarm.prayer:fajr:2026-04-10"])
        assertRun(try dir.run(at: "2026-04-12T06:00:00Z"), delivers: ["alarm.prayer:fajr:2026-04-12"],
                  tellsMissed: "Morning Prayer Time (Sat 11 Apr 05:30)")
        // The outbox is rotated away meanwhile (logrotate, compressed): state.json alone must know.
        let rotated = try dir.outboxIDs()
        try dir.remove("outbox.jsonl")
        assertRun(try dir.run(at: "2026-03-01T05:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-03-01T05:30:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-03-02T05:30:00Z"), delivers: ["alarm.prayer:fajr:2026-03-02"])
        // Forward to the 10th of April: its alarm rang already; the 11th's did not and rings.
        assertRun(try dir.run(at: "2026-04-10T05:30:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-04-11T05:30:00Z"), delivers: ["alarm.prayer:fajr:2026-04-11"])
        assertRun(try dir.run(at: "2026-04-12T05:30:00Z"), delivers: [])
        let ids = try rotated + dir.outboxIDs()
        XCTAssertEqual(ids.count, Set(ids).count, "no id twice: \(ids)")
    }

    /// A prayer missed in Berlin while the clock ran days ahead, its ledger entry pruned there; the clock is
    /// corrected to that evening, after Berlin's 19:45, and the person is in New York, where 19:45 is still
    /// ahead. The date was missed and stays so (one per local date; docs/promises.md), although New York's instant of
    /// that date is one no run has seen. The next date, which the wrong clock skipped, rings at New York's time.
    func testADateMissedInOneZoneStaysMissedAfterTheClockIsCorrectedInAnother() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("alarms.json", Fixture.alarm(time: "19:45", durationMinutes: 60))
        assertRun(try dir.run(at: "2026-03-21T10:00:00Z"), delivers: [])
        // The 21st to the 24th missed (and told), pruned.
        assertRun(try dir.run(at: "2026-03-25T00:00:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (Sat 21 Mar 19:45), Morning Prayer Time (Sun 22 Mar 19:45), "
                      + "Morning Prayer Time (Mon 23 Mar 19:45), Morning Prayer Time (Tue 24 Mar 19:45)")
        assertRun(try dir.run(at: "2026-03-21T20:00:00Z"), delivers: [])    // Berlin's 19:45 (18:45Z) passed
        try dir.write("settings.json", Fixture.settings(timeZone: "America/New_York"))
        assertRun(try dir.run(at: "2026-03-21T20:01:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-03-21T23:44:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-03-21T23:45:00Z"), delivers: [])    // New York's 19:45 of the 21st
        assertRun(try dir.run(at: "2026-03-22T23:44:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-03-22T23:45:00Z"), delivers: ["alarm.prayer:fajr:2026-03-22"])
    }

    /// Case 4: Sydney falls back at 03:00 on 4 April 2027 (16:00Z on the 3rd); quiet hours 21:15–02:30. An
    /// achievement unlocked at 02:10 in the second pass of the repeated hour waits for the second 02:30, never
    /// the first, 40 minutes before it happened (docs/design.md, "What a run plans").
    func testQuietHoursInTheRepeatedHourNeverAnnounceAnAchievementBeforeItHappened() throws {
        try dir.write("settings.json", """
            { "timeZone": "Australia/Sydney", "quietHours": { "start": "21:15", "end": "02:30" } }
            """)
        assertRun(try dir.run(at: "2027-04-03T16:00:00Z"), delivers: [])
        try dir.write("streaks.json", """
            { "games": [], "achievements": [ { "id": "a-1", "title": "Night owl", "description": "Up late",
                                               "unlockedAt": "2027-04-03T16:10:00Z" } ] }
            """)
        assertRun(try dir.run(at: "2027-04-03T16:10:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-04-03T16:29:00Z"), delivers: [])
        let result = try dir.run(at: "2027-04-03T16:30:00Z")
        assertRun(result, delivers: ["streak.achievement:a-1:unlocked"])
        XCTAssertEqual(result.jsonLines().first?["fireAt"] as? String, "2027-04-03T16:30:00Z")
    }

    /// A snooze of a wash whose cycle was stopped is dropped, neither delivered nor missed (docs/design.md,
    /// "What a run plans"); a snooze of an alarm that is disabled is held and rings once it is enabled again before it
    /// expires.
    func testASnoozeOfSomethingGoneIsDroppedAndOfSomethingDisabledHeld() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-03-05T10:15:00Z"))  // done 11:00
        try dir.write("alarms.json", Fixture.alarm(time: "11:00", durationMinutes: 120))
        let alarm = "alarm.prayer:fajr:2026-03-05"
        assertRun(try dir.run(at: "2026-03-05T10:59:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-03-05T11:00:00Z"), delivers: [alarm, wash])
        XCTAssertEqual(try dir.nudge("snooze", now: "2026-03-05T11:01:00Z", wash).status, 0)
        XCTAssertEqual(try dir.nudge("snooze", now: "2026-03-05T11:01:00Z", alarm).status, 0)   // 11:06
        XCTAssertEqual(try dir.nudge("laundry", now: "2026-03-05T11:02:00Z", "stop", "snowy").status, 0)
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": "11:00", "durationMinutes": 120,
                            "enabled": false } ] }
            """)
        assertRun(try dir.run(at: "2026-03-05T11:20:00Z"), delivers: [])
        try dir.write("alarms.json", Fixture.alarm(time: "11:00", durationMinutes: 120))
        assertRun(try dir.run(at: "2026-03-05T11:30:00Z"), delivers: [alarm + ":snooze-1"])
        assertRun(try dir.run(at: "2026-03-06T10:00:00Z"), delivers: [])
        let status = try dir.status()
        XCTAssertEqual(status["missedTotal"] as? Int, 0, "the wash's snooze was dropped, not missed")
        XCTAssertEqual(try dir.outboxIDs(), [alarm, wash, alarm + ":snooze-1"])
    }

    /// A cycle named after a clock set back to the second an earlier cycle started: its stages are new
    /// occurrences, delivered once each, never taken for the earlier cycle's delivered ones.
    func testACycleStartedAgainAtTheSameSecondAfterASetBackGetsANewIDAndRings() throws {
        let first = try startAWashAtEight()
        assertRun(try dir.run(at: "2026-11-21T08:46:00Z"), delivers: ["laundry.washComplete:snowy:\(first)"])
        XCTAssertEqual(try laundry("fold", "snowy", now: "2026-11-21T09:00:00Z").status, 0)
        // The clock goes back to 08:00:00 and a wash starts again.
        let started = try laundry("start", "snowy", "wash", now: "2026-11-21T08:00:00Z")
        XCTAssertEqual(started.stdout, "Snowy: wash started at 2026-11-21 08:00 (done at 08:45, cycle \(first)-2).\n",
                       started.summary)
        assertRun(try dir.run(at: "2026-11-21T08:46:00Z"), delivers: ["laundry.washComplete:snowy:\(first)-2"])
        XCTAssertEqual(try dir.outboxIDs(), ["laundry.washComplete:snowy:\(first)",
                                             "laundry.washComplete:snowy:\(first)-2"])
    }

    /// The same when the delivery is known only from a run that died before saving state.json, and whose outbox
    /// lines were then rotated to outbox.jsonl.1: the next run would recover them, so the name is used.
    func testACycleNamedAgainAfterARunThatDiedAndARotatedOutboxRings() throws {
        let first = try startAWashAtEight()
        let stateBefore = try dir.text("state.json")
        assertRun(try dir.run(at: "2026-11-21T08:46:00Z"), delivers: ["laundry.washComplete:snowy:\(first)"])
        try dir.write("state.json", stateBefore)     // the run died before saving it
        try FileManager.default.moveItem(at: dir.fileURL("outbox.jsonl"), to: dir.fileURL("outbox.jsonl.1"))
        try dir.write("laundry.json", #"{"pets": [{"id": "snowy", "name": "Snowy"}]}"#)
        let started = try laundry("start", "snowy", "wash", now: "2026-11-21T08:00:00Z")
        XCTAssertTrue(started.stdout.hasSuffix("cycle \(first)-2).\n"), started.summary)
        assertRun(try dir.run(at: "2026-11-21T08:46:00Z"), delivers: ["laundry.washComplete:snowy:\(first)-2"])
    }

    /// A stage recorded missed (the clock hours ahead), the cycle stopped with the clock set back before its
    /// time to ring: that run forgets the missed record (docs/promises.md), so the wash started next at that second
    /// takes the name back, and rings. (Started before any such run, it is named `-2`, and rings too.)
    func testAWashStartedAgainAtTheSameSecondAsAMissedOneRings() throws {
        let first = try startAWashAtEight()
        assertRun(try dir.run(at: "2026-11-21T14:46:00Z"), delivers: [],
                  tellsMissed: "Wash Complete! (08:45)")   // expired at 14:45
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 1)
        XCTAssertEqual(try laundry("stop", "snowy", now: "2026-11-21T08:00:00Z").status, 0)
        XCTAssertEqual(try laundry("start", "snowy", "wash", now: "2026-11-21T08:00:00Z").status, 0)
        assertRun(try dir.run(at: "2026-11-21T08:46:00Z"), delivers: ["laundry.washComplete:snowy:\(first)"])
    }

    /// A first run on 2027-06-19, then one with the clock three days ahead (06-23T13:25Z), Snowy without a cycle.
    private func runThreeDaysAheadWithAPetAndNoCycle() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", #"{"pets": [{"id": "snowy", "name": "Snowy"}]}"#)
        assertRun(try dir.run(at: "2027-06-19T00:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-06-23T13:25:00Z"), delivers: [])
    }

    /// Issue 37: the clock runs three days ahead, is corrected, and a wash that finished at 13:15 is written by
    /// hand afterwards. No run has seen it, and it is unexpired by the corrected clock: it is announced at once
    /// (docs/promises.md), whatever the runs three days ahead settled.
    func testAWashWrittenAfterTheClockCameBackAlreadyFinishedIsAnnouncedAtOnce() throws {
        try runThreeDaysAheadWithAPetAndNoCycle()
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2027-06-20T12:30:00Z", cycleID: "c3"))
        let corrected = try dir.run(at: "2027-06-20T13:30:00Z")
        assertRun(corrected, delivers: ["laundry.washComplete:snowy:c3"])
        XCTAssertEqual(corrected.jsonLines().first?["lateSeconds"] as? Int, 900)
        assertRun(try dir.run(at: "2027-06-20T13:31:00Z"), delivers: [])
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 0)
    }

    /// Issue 37, the second replay: a dryer started at 16:35 is written by hand after the clock came back from the
    /// 3rd to 18:00 on the 2nd. Its completion (17:35, expiring 23:35, before the run on the 3rd) is announced with
    /// its fold reminder (18:05, expiring on the 3rd after that run), not left out because a span ended after it.
    func testADryerWrittenAfterTheClockCameBackAnnouncesItsCompletionWithItsFoldReminder() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", #"{"pets": [{"id": "snowy", "name": "Snowy"}]}"#)
        assertRun(try dir.run(at: "2027-03-01T00:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-03-03T12:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-03-02T18:00:00Z"), delivers: [])
        try dir.write("laundry.json", """
            { "pets": [ { "id": "snowy", "name": "Snowy",
                          "cycle": { "id": "c-7", "stage": "dry", "startedAt": "2027-03-02T16:35:00Z" } } ] }
            """)
        assertRun(try dir.run(at: "2027-03-02T18:35:00Z"),
                  delivers: ["laundry.dryComplete:snowy:c-7", "laundry.foldReminder:snowy:c-7"])
        assertRun(try dir.run(at: "2027-03-02T18:36:00Z"), delivers: [])
    }

    /// The same for a one-off trip written after the clock came back: its leave-time (14:10, expiring at the
    /// arrival, 14:30) rings at once, although its id names a date as an alarm's does.
    func testALeaveTimeOfATripWrittenAfterTheClockCameBackRingsAtOnce() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("trips.json", #"{"trips": []}"#)
        assertRun(try dir.run(at: "2027-06-19T00:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-06-23T13:25:00Z"), delivers: [])
        try dir.write("trips.json", """
            { "trips": [ { "id": "dentist", "destination": "Dentist", "arriveAt": "2027-06-20T14:30:00Z",
                           "travelMinutes": 20, "bufferMinutes": 0 } ] }
            """)
        assertRun(try dir.run(at: "2027-06-20T14:15:00Z"), delivers: ["commute.leave:dentist:2027-06-20"])
        assertRun(try dir.run(at: "2027-06-20T14:16:00Z"), delivers: [])
    }

    /// What was already expired when it appeared stays silent after a clock set back into its time to ring: a
    /// wash written while the clock ran ahead, passed over by that run, is neither announced nor counted missed
    /// once the clock comes back, also after its record has left the ledger. A clock set back before its fireAt
    /// makes it due at that time again (docs/promises.md).
    func testAWashPassedOverAsExpiredStaysSilentAfterASetBackIntoItsTimeAndRingsAfterOneBeforeIt() throws {
        try runThreeDaysAheadWithAPetAndNoCycle()
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2027-06-20T12:30:00Z", cycleID: "c3"))
        assertRun(try dir.run(at: "2027-06-23T13:26:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-06-26T13:26:00Z"), delivers: [])    // its record leaves the ledger
        let other = try copyOfDirectory()
        assertRun(try dir.run(at: "2027-06-20T13:30:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-06-20T13:31:00Z"), delivers: [])
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 0)
        assertRun(try other.run(at: "2027-06-20T13:00:00Z"), delivers: [])
        assertRun(try other.run(at: "2027-06-20T13:15:00Z"), delivers: ["laundry.washComplete:snowy:c3"])
    }

    /// Snowy without a cycle, a first run at 07:59, then `nudge laundry start snowy wash` at 08:00:00: the
    /// cycle's id.
    private func startAWashAtEight() throws -> String {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", #"{"pets": [{"id": "snowy", "name": "Snowy"}]}"#)
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])
        XCTAssertEqual(try laundry("start", "snowy", "wash", now: "2026-11-21T08:00:00Z").status, 0)
        return "c-20261121T080000Z"
    }

    /// `nudge laundry ARGUMENTS… --data DIR --now NOW`.
    private func laundry(_ arguments: String..., now: String) throws -> NudgeResult {
        try NudgeProcess.run(["laundry"] + arguments + ["--data", dir.path, "--now", now], workingDirectory: dir.url)
    }

    // MARK: - After the clock came back (the memory of what was handled)

    /// Alarm `a1` at 08:00 delivered; snoozed at 09:00 for 5 minutes; missed by the run at 12:00; then the clock
    /// back at 08:30. The snooze was made after that time: it keeps its outcome, is not planned and never rings.
    func testASnoozeMadeAfterTheCorrectedClocksTimeDoesNotRingAgain() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", id: "a1"))
        assertRun(try dir.run(at: "2027-01-10T07:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-01-10T08:00:30Z"), delivers: ["alarm.prayer:a1:2027-01-10"])
        let snooze = try dir.nudge("snooze", now: "2027-01-10T09:00:00Z", "alarm.prayer:a1:2027-01-10",
                                   "--minutes", "5")
        XCTAssertEqual(snooze.status, 0, snooze.summary)
        assertRun(try dir.run(at: "2027-01-10T12:00:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (09:05)")
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 1)
        assertRun(try dir.run(at: "2027-01-10T08:30:00Z"), delivers: [])
        XCTAssertFalse(try dir.plannedIDs().contains("alarm.prayer:a1:2027-01-10:snooze-1"))
        assertRun(try dir.run(at: "2027-01-10T09:05:00Z"), delivers: [])
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 1)
    }

    /// Alarm `a1` of the 19th delivered; the clock back two days; snoozed there (snooze-1), missed; the clock
    /// forward to the 19th, where snooze-1 leaves the snoozes while its outcome is remembered. The next snooze
    /// says another id, and rings when it says.
    func testASecondSnoozeAfterASetBackTakesAFreshIdAndRings() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", id: "a1"))
        let alarm = "alarm.prayer:a1:2027-03-19"
        assertRun(try dir.run(at: "2027-03-19T07:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-03-19T08:00:10Z"), delivers: [alarm])
        let first = try dir.nudge("snooze", now: "2027-03-17T12:00:00Z", alarm, "--minutes", "1")
        XCTAssertTrue(first.stdout.contains(alarm + ":snooze-1"), first.summary)
        _ = try dir.run(at: "2027-03-17T20:00:00Z")
        _ = try dir.run(at: "2027-03-19T18:00:00Z")
        let second = try dir.nudge("snooze", now: "2027-03-19T20:00:00Z", alarm, "--minutes", "1")
        XCTAssertEqual(second.status, 0, second.summary)
        XCTAssertFalse(second.stdout.contains(alarm + ":snooze-1"), second.summary)
        XCTAssertTrue(second.stdout.contains(alarm + ":snooze-2"), second.summary)
        assertRun(try dir.run(at: "2027-03-19T20:01:00Z"), delivers: [alarm + ":snooze-2"])
    }

    /// Snowy's health warning of 14 July 10:00 missed; a wash cycle written (the warning no longer produced) and
    /// run past two days; the cycle removed and the clock back to 12:00 on the 14th: the warning stays missed.
    func testAMissedWarningWhoseSourceLeftAndCameBackDoesNotRingAfterASetBack() throws {
        try dir.write("settings.json", Fixture.settings())
        let idle = #"{"pets": [{"id": "p1", "name": "Snowy", "lastCompletedAt": "2027-07-07T08:19:00Z"}]}"#
        try dir.write("laundry.json", idle)
        assertRun(try dir.run(at: "2027-07-13T12:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-07-16T12:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 1)
        try dir.write("laundry.json", """
            {"pets": [{"id": "p1", "name": "Snowy", "lastCompletedAt": "2027-07-07T08:19:00Z",
                       "cycle": {"id": "c-1", "stage": "wash", "startedAt": "2027-07-16T12:00:30Z"}}]}
            """)
        _ = try dir.run(at: "2027-07-16T12:01:00Z")
        _ = try dir.run(at: "2027-07-18T12:00:00Z")
        try dir.write("laundry.json", idle)
        assertRun(try dir.run(at: "2027-07-14T12:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2027-07-14T12:01:00Z"), delivers: [])
        XCTAssertFalse(try dir.outboxIDs().contains("laundry.health:p1:2027-07-07T08:19:00Z"))
    }
}
