import Foundation
import XCTest

/// `nudge run` end to end (docs/design.md, "When a notification is due"): what is delivered, when, and exactly once,
/// seen through stdout, `outbox.jsonl`, `plan.json` and `nudge status`.
final class RunDeliveryTests: DataDirectoryTestCase {
    private let wash = "laundry.washComplete:snowy:c-1"

    // MARK: - Laundry (one-off events)

    func testWashIsDeliveredExactlyOnceAcrossConsecutiveRuns() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))  // completes 08:15

        let before = try dir.run(at: "2026-11-21T08:14:00Z")
        assertRun(before, delivers: [])
        XCTAssertEqual(before.stderr, "")
        XCTAssertEqual(try dir.plannedIDs(), [wash])
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-11-21T08:15:00Z")

        let late = try dir.run(at: "2026-11-21T08:16:00Z")
        assertRun(late, delivers: [wash])
        let record = try XCTUnwrap(late.jsonLines().first)
        XCTAssertEqual(record["kind"] as? String, "laundry.washComplete")
        XCTAssertEqual(record["source"] as? String, "snowy")
        XCTAssertEqual(record["fireAt"] as? String, "2026-11-21T08:15:00Z")
        XCTAssertEqual(record["expiresAt"] as? String, "2026-11-21T14:15:00Z")
        XCTAssertEqual(record["deliveredAt"] as? String, "2026-11-21T08:16:00Z")
        XCTAssertEqual(record["lateSeconds"] as? Int, 60)
        XCTAssertEqual(record["title"] as? String, "Wash Complete!")
        XCTAssertEqual(record["body"] as? String, "Snowy is ready for the dryer!")
        XCTAssertEqual(record["priority"] as? String, "critical")
        XCTAssertEqual(record["category"] as? String, "TIMER_COMPLETE")
        XCTAssertEqual(record["actions"] as? [String], ["COMPLETE_ACTION", "SNOOZE_ACTION"])
        XCTAssertEqual(record["sound"] as? Bool, true)
        XCTAssertEqual(record["badge"] as? Bool, true)
        XCTAssertEqual(record["deepLink"] as? String, "nudge://laundry/snowy")
        XCTAssertEqual(try dir.plannedIDs(), [])

        assertRun(try dir.run(at: "2026-11-21T08:17:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])

        // The outbox line is the very object stdout printed, once.
        XCTAssertEqual(try dir.outboxLines(), late.stdoutLines)
        XCTAssertEqual(try dir.outboxLines().count, 1)
        let status = try dir.status()
        XCTAssertEqual(status["deliveredTotal"] as? Int, 1)
        XCTAssertEqual(status["missedTotal"] as? Int, 0)
        XCTAssertEqual(status["lastDelivered"] as? Int, 0)
        XCTAssertEqual(status["lastRunAt"] as? String, "2026-11-21T09:00:00Z")
    }

    func testStoppedCycleIsNeverDelivered() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))  // completes 08:15
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [wash])

        // The user stops the cycle before it completes.
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        assertRun(try dir.run(at: "2026-11-21T08:16:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [])
        assertRun(try dir.run(at: "2026-11-21T08:17:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxLines(), [])
        let status = try dir.status()
        XCTAssertEqual(status["deliveredTotal"] as? Int, 0)
        XCTAssertEqual(status["missedTotal"] as? Int, 0)
    }

    func testWashRecordedLateAfterItFinishedIsAnnouncedAtOnce() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: nil))
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])

        // Recorded at 08:01 with a start of 07:00: finished at 07:45, before the previous run.
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:00:00Z"))
        let result = try dir.run(at: "2026-11-21T08:01:00Z")
        assertRun(result, delivers: [wash])
        XCTAssertEqual(result.jsonLines().first?["lateSeconds"] as? Int, 960)
        assertRun(try dir.run(at: "2026-11-21T08:02:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [wash])
    }

    func testWashAtItsExpiryIsDeliveredAndOneSecondLaterIsMissed() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))  // 08:15, expires 14:15
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])
        let other = try copyOfDirectory()

        let atExpiry = try dir.run(at: "2026-11-21T14:15:00Z")
        assertRun(atExpiry, delivers: [wash])
        XCTAssertEqual(atExpiry.jsonLines().first?["lateSeconds"] as? Int, 21_600)

        assertRun(try other.run(at: "2026-11-21T14:15:01Z"), delivers: [],
                  tellsMissed: "Wash Complete! (08:15)")
        XCTAssertEqual(try other.outboxIDsButDigests(), [])
        let status = try other.status()
        XCTAssertEqual(status["missedTotal"] as? Int, 1)
        let missed = try XCTUnwrap(status["recentMissed"] as? [[String: Any]])
        XCTAssertEqual(missed.map { $0["id"] as? String }, [wash])
        XCTAssertEqual(missed.first?["reason"] as? String, "expired")
        XCTAssertEqual(missed.first?["fireAt"] as? String, "2026-11-21T08:15:00Z")
    }

    // MARK: - First run

    func testFirstRunDeliversNothingOlderThanNowButWhatIsDueExactlyNow() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", """
            { "pets": [
                { "id": "snowy", "name": "Snowy", "washMinutes": 45,
                  "cycle": { "id": "c-1", "stage": "wash", "startedAt": "2026-11-21T07:00:00Z" } },
                { "id": "biscuit", "name": "Biscuit", "washMinutes": 45,
                  "cycle": { "id": "c-2", "stage": "wash", "startedAt": "2026-11-21T07:45:00Z" } } ] }
            """)
        try dir.write("alarms.json", """
            { "alarms": [
                { "id": "fajr", "title": "Morning Prayer", "time": "08:00", "durationMinutes": 60 },
                { "id": "isha", "title": "Night Prayer", "time": "08:30", "durationMinutes": 60 } ] }
            """)
        XCTAssertFalse(dir.exists("state.json"))

        // snowy's wash (07:45) and fajr (08:00) are past and unexpired; biscuit's wash and isha are due at 08:30.
        let first = try dir.run(at: "2026-11-21T08:30:00Z")
        assertRun(first, delivers: ["alarm.prayer:isha:2026-11-21", "laundry.washComplete:biscuit:c-2"])
        XCTAssertEqual(first.jsonLines().map { $0["lateSeconds"] as? Int }, [0, 0])
        XCTAssertEqual(first.jsonLines().first?["title"] as? String, "Night Prayer Time")
        XCTAssertEqual(first.jsonLines().first?["body"] as? String, "Take 60 minutes to pray")

        // What the first run saw as already past is never announced later either.
        assertRun(try dir.run(at: "2026-11-21T08:31:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:45:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), ["alarm.prayer:isha:2026-11-21", "laundry.washComplete:biscuit:c-2"])
    }

    // MARK: - Daily alarms

    func testAlarmCreatedAfterItsTimeWaitsForTomorrow() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.noAlarms)
        assertRun(try dir.run(at: "2026-11-21T05:39:00Z"), delivers: [])

        // Created at 05:40 for 05:30.
        try dir.write("alarms.json", Fixture.alarm(time: "05:30"))
        assertRun(try dir.run(at: "2026-11-21T05:40:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-11-22T05:30:00Z")
        assertRun(try dir.run(at: "2026-11-21T05:41:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-22T05:29:00Z"), delivers: [])

        let tomorrow = try dir.run(at: "2026-11-22T05:30:00Z")
        assertRun(tomorrow, delivers: ["alarm.prayer:fajr:2026-11-22"])
        let record = try XCTUnwrap(tomorrow.jsonLines().first)
        XCTAssertEqual(record["lateSeconds"] as? Int, 0)
        XCTAssertEqual(record["title"] as? String, "Morning Prayer Time")
        XCTAssertEqual(record["body"] as? String, "Take 15 minutes to pray")
        XCTAssertEqual(record["category"] as? String, "PRAYER_ALARM")
        XCTAssertEqual(record["actions"] as? [String], ["START_TIMER", "SNOOZE"])
        XCTAssertEqual(record["expiresAt"] as? String, "2026-11-22T06:00:00Z")  // at least 30 minutes
        XCTAssertEqual(record["deepLink"] as? String, "nudge://alarm/fajr")
        XCTAssertEqual(try dir.outboxIDs(), ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 0)
    }

    func testAlarmCaughtUpTenMinutesLateWithinItsExpiryIsDeliveredWithLateSeconds600() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", durationMinutes: 30))
        assertRun(try dir.run(at: "2026-11-21T07:50:00Z"), delivers: [])

        let result = try dir.run(at: "2026-11-21T08:10:00Z")
        assertRun(result, delivers: ["alarm.prayer:fajr:2026-11-21"])
        let record = try XCTUnwrap(result.jsonLines().first)
        XCTAssertEqual(record["lateSeconds"] as? Int, 600)
        XCTAssertEqual(record["fireAt"] as? String, "2026-11-21T08:00:00Z")
        XCTAssertEqual(record["expiresAt"] as? String, "2026-11-21T08:30:00Z")
        XCTAssertEqual(record["deliveredAt"] as? String, "2026-11-21T08:10:00Z")
        assertRun(try dir.run(at: "2026-11-21T08:11:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxLines().count, 1)
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 0)
    }

    func testAlarmTwoHoursLatePastItsExpiryIsNotDeliveredButCountedMissed() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", durationMinutes: 30))
        assertRun(try dir.run(at: "2026-11-21T07:50:00Z"), delivers: [])

        assertRun(try dir.run(at: "2026-11-21T10:00:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (08:00)")
        XCTAssertEqual(try dir.outboxIDsButDigests(), [])
        var status = try dir.status()
        XCTAssertEqual(status["missedTotal"] as? Int, 1)
        XCTAssertEqual(status["lastMissed"] as? Int, 1)
        XCTAssertEqual(status["deliveredTotal"] as? Int, 1, "the digest")
        let missed = try XCTUnwrap(status["recentMissed"] as? [[String: Any]])
        XCTAssertEqual(missed.count, 1)
        XCTAssertEqual(missed.first?["id"] as? String, "alarm.prayer:fajr:2026-11-21")
        XCTAssertEqual(missed.first?["kind"] as? String, "alarm.prayer")
        XCTAssertEqual(missed.first?["fireAt"] as? String, "2026-11-21T08:00:00Z")
        XCTAssertEqual(missed.first?["reason"] as? String, "expired")

        // Counted once, not again by the next run.
        assertRun(try dir.run(at: "2026-11-21T10:01:00Z"), delivers: [])
        status = try dir.status()
        XCTAssertEqual(status["missedTotal"] as? Int, 1)
        XCTAssertEqual(status["lastMissed"] as? Int, 0)
    }

    func testAfterThreeDaysDownOnlyTheLatestAlarmOccurrenceIsDeliveredAndTheEarlierOnesCountAsMissed() throws {
        try dir.write("settings.json", Fixture.settings())
        // Each occurrence stays deliverable for a day.
        try dir.write("alarms.json", Fixture.alarm(time: "08:00", durationMinutes: 1440))
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])
        let later = try copyOfDirectory()

        // Back at 08:00 on the 24th: the 23rd is still unexpired, but only the 24th (the latest) rings; the
        // digest tells the two that expired (the 23rd, superseded by the 24th's ringing, is not listed).
        let back = try dir.run(at: "2026-11-24T08:00:00Z")
        assertRun(back, delivers: ["alarm.prayer:fajr:2026-11-24"],
                  tellsMissed: "Morning Prayer Time (Sat 21 Nov 08:00), Morning Prayer Time (Sun 22 Nov 08:00)")
        XCTAssertEqual(back.jsonLines().first?["lateSeconds"] as? Int, 0)
        var status = try dir.status()
        XCTAssertEqual(status["missedTotal"] as? Int, 3)
        var missed = try XCTUnwrap(status["recentMissed"] as? [[String: Any]])
        XCTAssertEqual(missed.map { $0["id"] as? String },
                       ["alarm.prayer:fajr:2026-11-21", "alarm.prayer:fajr:2026-11-22", "alarm.prayer:fajr:2026-11-23"])
        XCTAssertEqual(missed.map { $0["reason"] as? String }, ["expired", "expired", "superseded"])
        assertRun(try dir.run(at: "2026-11-24T08:01:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDsButDigests(), ["alarm.prayer:fajr:2026-11-24"])

        // Back an hour later instead: the 24th is delivered an hour late, the three before it expired.
        let hourLate = try later.run(at: "2026-11-24T09:00:00Z")
        assertRun(hourLate, delivers: ["alarm.prayer:fajr:2026-11-24"],
                  tellsMissed: "Morning Prayer Time (Sat 21 Nov 08:00), Morning Prayer Time (Sun 22 Nov 08:00), "
                      + "Morning Prayer Time (Mon 23 Nov 08:00)")
        XCTAssertEqual(hourLate.jsonLines().first?["lateSeconds"] as? Int, 3600)
        status = try later.status()
        XCTAssertEqual(status["missedTotal"] as? Int, 3)
        missed = try XCTUnwrap(status["recentMissed"] as? [[String: Any]])
        XCTAssertEqual(missed.map { $0["reason"] as? String }, ["expired", "expired", "expired"])
        XCTAssertEqual(try later.outboxIDsButDigests(), ["alarm.prayer:fajr:2026-11-24"])
    }

    func testChangedWashDurationMovesTheWashAndItIsStillDeliveredOnce() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))  // 08:15
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])

        // A longer programme: the same event, now at 08:30.
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z", washMinutes: 60))
        assertRun(try dir.run(at: "2026-11-21T08:16:00Z"), delivers: [])
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-11-21T08:30:00Z")
        let result = try dir.run(at: "2026-11-21T08:30:00Z")
        assertRun(result, delivers: [wash])
        XCTAssertEqual(result.jsonLines().first?["lateSeconds"] as? Int, 0)

        // Shortened again after delivery: the id names the event, so it is not delivered a second time.
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z", washMinutes: 50))
        assertRun(try dir.run(at: "2026-11-21T08:31:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [wash])
    }

    func testLaundryStagesFollowOneAnotherOneStageAhead() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))  // 08:15
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [wash])
        assertRun(try dir.run(at: "2026-11-21T08:15:00Z"), delivers: [wash])

        // Moved to the dryer at 08:20 (same cycle id): dry completes 09:20, the fold reminder follows at 09:50.
        try dir.write("laundry.json", """
            { "pets": [ { "id": "snowy", "name": "Snowy", "washMinutes": 45, "dryMinutes": 60,
                          "cycle": { "id": "c-1", "stage": "dry", "startedAt": "2026-11-21T08:20:00Z" } } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T08:21:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["laundry.dryComplete:snowy:c-1"])  // never two future stages

        let dry = try dir.run(at: "2026-11-21T09:20:00Z")
        assertRun(dry, delivers: ["laundry.dryComplete:snowy:c-1"])
        XCTAssertEqual(dry.jsonLines().first?["title"] as? String, "Dry Complete!")
        XCTAssertEqual(dry.jsonLines().first?["body"] as? String, "Time to fold Snowy's laundry!")
        XCTAssertEqual(try dir.plannedIDs(), ["laundry.foldReminder:snowy:c-1"])
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-11-21T09:50:00Z")

        let fold = try dir.run(at: "2026-11-21T09:50:00Z")
        assertRun(fold, delivers: ["laundry.foldReminder:snowy:c-1"])
        let record = try XCTUnwrap(fold.jsonLines().first)
        XCTAssertEqual(record["title"] as? String, "Still waiting to be folded")
        XCTAssertEqual(record["body"] as? String, "Snowy's laundry is done and waiting for you.")
        XCTAssertEqual(record["priority"] as? String, "medium")
        XCTAssertEqual(record["expiresAt"] as? String, "2026-11-22T09:50:00Z")
        XCTAssertEqual(try dir.outboxIDs(),
                       [wash, "laundry.dryComplete:snowy:c-1", "laundry.foldReminder:snowy:c-1"])
    }

    func testDisabledOrRemovedAlarmPlansAndDeliversNothing() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", """
            { "alarms": [
                { "id": "fajr", "title": "Morning Prayer", "time": "08:00", "enabled": false },
                { "id": "dhuhr", "title": "Noon Prayer", "time": "08:10" } ] }
            """)
        assertRun(try dir.run(at: "2026-11-21T07:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:dhuhr:2026-11-21"])
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])

        try dir.write("alarms.json", Fixture.noAlarms)  // dhuhr removed before 08:10
        assertRun(try dir.run(at: "2026-11-21T08:10:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [])
        XCTAssertEqual(try dir.outboxLines(), [])
    }

    // MARK: - Output

    func testHumanLineShowsLocalTimePriorityKindAndLateness() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))  // 08:15Z = 09:15 Berlin
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])

        let result = try NudgeProcess.run(["run", "--data", dir.path, "--now", "2026-11-21T08:20:00Z"])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdoutLines,
                       ["[2026-11-21 09:15] Wash Complete! — Snowy is ready for the dryer! "
                        + "(critical, laundry.washComplete, 5 min late) "
                        + "→ nudge act laundry.washComplete:snowy:c-1 COMPLETE_ACTION|SNOOZE_ACTION"])
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(try dir.outboxIDs(), [wash])
    }

    func testADelivery41SecondsLateSaysSoAndTheJSONHasTheExactSeconds() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])

        let result = try NudgeProcess.run(["run", "--data", dir.path, "--now", "2026-11-21T08:15:41Z"])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.stdout.contains("(critical, laundry.washComplete, 41 s late) →"), result.summary)
        let line = try XCTUnwrap(try dir.outboxLines().first)
        XCTAssertTrue(line.contains("\"lateSeconds\":41"), line)
    }

    func testQuietPrintsNothingButStillWritesTheOutbox() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        assertRun(try dir.run(at: "2026-11-21T07:59:00Z"), delivers: [])

        let result = try dir.run(at: "2026-11-21T08:00:00Z", "--quiet")
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(try dir.outboxIDs(), ["alarm.prayer:fajr:2026-11-21"])
    }

    // MARK: - Files

    func testDryRunChangesNoFileAndPrintsExactlyWhatTheRealRunPrints() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))  // 08:15
        try dir.write("alarms.json", Fixture.alarm(time: "08:16"))
        assertRun(try dir.run(at: "2026-11-21T08:10:00Z"), delivers: [])
        let before = try dir.snapshot()
        XCTAssertNotNil(before["state.json"])
        XCTAssertNotNil(before["plan.json"])

        let dry = try dir.run(at: "2026-11-21T08:16:00Z", "--dry-run")
        assertRun(dry, delivers: ["laundry.washComplete:snowy:c-1", "alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(dry.jsonLines().map { $0["lateSeconds"] as? Int }, [60, 0])
        let after = try dir.snapshot()
        XCTAssertEqual(Set(after.keys), Set(before.keys), "a dry run created or removed files")
        for (name, entry) in before {
            XCTAssertEqual(after[name], entry, "a dry run changed \(name)")
        }

        // A dry run twice is the same, and the real run prints exactly those lines.
        XCTAssertEqual(try dir.run(at: "2026-11-21T08:16:00Z", "--dry-run").stdout, dry.stdout)
        let real = try dir.run(at: "2026-11-21T08:16:00Z")
        XCTAssertEqual(real.status, 0, real.summary)
        XCTAssertEqual(real.stdout, dry.stdout)
        XCTAssertEqual(try dir.outboxLines(), dry.stdoutLines)
    }

    func testDryRunOnAFreshDirectoryCreatesNoFile() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:00"))
        let before = try dir.snapshot()

        let dry = try dir.run(at: "2026-11-21T08:00:00Z", "--dry-run")
        assertRun(dry, delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertEqual(try dir.snapshot(), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
                       ["alarms.json", "settings.json"])
    }

    func testFilesWrittenByNudgeHaveMode0600() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T07:30:00Z"))
        try dir.write("alarms.json", Fixture.alarm(time: "08:15"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: dir.fileURL("alarms.json").path)
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T08:15:00Z"),
                  delivers: ["alarm.prayer:fajr:2026-11-21", "laundry.washComplete:snowy:c-1"])

        let written = ["plan.json", "state.json", "outbox.jsonl", ".lock", ".last-good/settings.json",
                       ".last-good/laundry.json", ".last-good/alarms.json"]
        for name in written {
            XCTAssertTrue(dir.exists(name), "\(name) was not written")
            let mode = try dir.mode(name)
            XCTAssertEqual(mode, 0o600, "mode of \(name) is \(String(mode, radix: 8))")
        }
        // The user's own files keep their mode, and no temporary file is left behind.
        XCTAssertEqual(try dir.mode("alarms.json"), 0o644)
        let leftovers = try dir.snapshot().keys.filter { $0.contains(".tmp") }
        XCTAssertEqual(leftovers, [])
    }

    func testPlanIsByteIdenticalForTheSameInputsAndNow() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("laundry.json", """
            { "pets": [
                { "id": "snowy", "name": "Snowy", "washMinutes": 45, "dryMinutes": 60,
                  "cycle": { "id": "c-1", "stage": "wash", "startedAt": "2026-11-21T07:30:00Z" } },
                { "id": "biscuit", "name": "Biscuit", "washMinutes": 30, "dryMinutes": 50,
                  "cycle": { "id": "c-7", "stage": "dry", "startedAt": "2026-11-21T07:40:00Z" } },
                { "id": "mochi", "name": "Mochi", "lastCompletedAt": "2026-11-15T08:00:00Z" } ] }
            """)
        try dir.write("alarms.json", """
            { "alarms": [
                { "id": "isha", "title": "Night Prayer", "time": "18:30", "durationMinutes": 20 },
                { "id": "fajr", "title": "Morning Prayer", "time": "05:30" },
                { "id": "asr", "title": "Afternoon Prayer", "time": "09:15", "weekdays": ["sat"] } ] }
            """)
        let twin = try copyOfDirectory()

        let one = try dir.run(at: "2026-11-21T08:00:00Z")
        let two = try twin.run(at: "2026-11-21T08:00:00Z")
        XCTAssertEqual(one.status, 0, one.summary)
        XCTAssertEqual(two.status, 0, two.summary)
        let plan = try dir.data("plan.json")
        XCTAssertEqual(plan, try twin.data("plan.json"), "plan.json differs between two identical runs")
        // Sorted by fireAt (then id): asr 09:15 local is 08:15Z, the wash 08:15Z, biscuit's dry 08:30Z,
        // isha 17:30Z, fajr of the 22nd 04:30Z, mochi's health warning 10:00 local (09:00Z) on the 22nd.
        XCTAssertEqual(try dir.plannedIDs(), [
            "alarm.prayer:asr:2026-11-21", "laundry.washComplete:snowy:c-1", "laundry.dryComplete:biscuit:c-7",
            "alarm.prayer:isha:2026-11-21", "alarm.prayer:fajr:2026-11-22",
            "laundry.health:mochi:2026-11-15T08:00:00Z",
        ])
        XCTAssertEqual(try dir.json("plan.json")["timeZone"] as? String, "Europe/Berlin")
        XCTAssertEqual(try dir.json("plan.json")["generatedAt"] as? String, "2026-11-21T08:00:00Z")

        // Running the same directory again at the same instant rewrites the same bytes.
        XCTAssertEqual(try dir.run(at: "2026-11-21T08:00:00Z").status, 0)
        XCTAssertEqual(try dir.data("plan.json"), plan)
    }
}
