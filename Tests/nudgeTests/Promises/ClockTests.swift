import Foundation
import XCTest

/// Time (docs/promises.md, never at the wrong hour; docs/travelling.md): the clock moving backwards, travel between
/// zones, daylight-saving days, `--now` forms.
final class ClockTests: DataDirectoryTestCase {
    // MARK: - Backwards and across zones

    func testClockGoingBackwardsNeverDeliversAnAlarmTwice() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "09:30", durationMinutes: 60))  // expires 10:30
        let alarm = "alarm.prayer:fajr:2026-11-21"
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])

        let first = try dir.run(at: "2026-11-21T10:00:00Z")
        assertRun(first, delivers: [alarm])
        XCTAssertEqual(first.jsonLines().first?["lateSeconds"] as? Int, 1800)

        // The clock is set back an hour: the run records its own now…
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.status()["lastRunAt"] as? String, "2026-11-21T09:00:00Z")
        // …and 09:30 passing a second time rings nothing.
        assertRun(try dir.run(at: "2026-11-21T09:45:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T10:15:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [alarm])

        // The alarm itself is not silenced: the next day rings on time.
        assertRun(try dir.run(at: "2026-11-22T09:30:00Z"), delivers: ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(try dir.outboxIDs(), [alarm, "alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 0)
    }

    func testZoneChangeRingsTheEastwardAlarmOnceAndNeverTwiceForTheSameLocalDate() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        // 60 minutes: the Tokyo 05:30 (20:30Z) must still be unexpired at 21:01Z. With the default 15 (expiry
        // 30 min, at 21:00Z) it is counted as missed instead, by the ordinary expiry rule.
        try dir.write("alarms.json", Fixture.alarm(time: "05:30", durationMinutes: 60))
        let date22 = "alarm.prayer:fajr:2026-11-22"
        let date23 = "alarm.prayer:fajr:2026-11-23"

        // 22:00 in Berlin: the next 05:30 is 04:30Z on the 22nd.
        assertRun(try dir.run(at: "2026-11-21T21:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [date22])
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-11-22T04:30:00Z")

        // A minute later the traveller's zone is Tokyo, where it is 06:01 on the 22nd: 05:30 (20:30Z) passed on
        // their wall clock since the previous run, so it rings — once.
        try dir.write("settings.json", Fixture.settings(timeZone: "Asia/Tokyo"))
        let tokyo = try dir.run(at: "2026-11-21T21:01:00Z")
        assertRun(tokyo, delivers: [date22])
        let record = try XCTUnwrap(tokyo.jsonLines().first)
        XCTAssertEqual(record["fireAt"] as? String, "2026-11-21T20:30:00Z")
        XCTAssertEqual(record["lateSeconds"] as? Int, 1860)
        XCTAssertEqual(try dir.plannedIDs(), [date23])
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-11-22T20:30:00Z")
        XCTAssertEqual(try dir.json("plan.json")["timeZone"] as? String, "Asia/Tokyo")
        assertRun(try dir.run(at: "2026-11-21T21:02:00Z"), delivers: [])

        // Back to Berlin before 05:30 local: the Berlin 05:30 of the 22nd is the same local date, already rung.
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        assertRun(try dir.run(at: "2026-11-22T04:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-22T04:30:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-22T04:31:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [date23])
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-11-23T04:30:00Z")

        // The next local date rings in Berlin as usual.
        assertRun(try dir.run(at: "2026-11-23T04:30:00Z"), delivers: [date23])
        XCTAssertEqual(try dir.outboxIDs(), [date22, date23])
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 0)
    }

    func testClockCorrectedAfterJumpingDaysAheadNeverDeliversTwice() throws {
        // A bad RTC jumps three days ahead; runs happen there; NTP then sets the true time, which is later than
        // every run made before the jump. Nothing delivered before the jump may ring again, and the alarms of
        // the true days must still ring.
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "09:30", durationMinutes: 60))  // expires 10:30
        let alarm = "alarm.prayer:fajr:2026-11-21"
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T09:31:00Z"), delivers: [alarm])
        assertRun(try dir.run(at: "2026-11-24T09:32:00Z"), delivers: ["alarm.prayer:fajr:2026-11-24"],
                  tellsMissed: "Morning Prayer Time (Sun 22 Nov 09:30), Morning Prayer Time (Mon 23 Nov 09:30)")
        assertRun(try dir.run(at: "2026-11-24T09:33:00Z"), delivers: [])  // prunes against the wrong clock
        assertRun(try dir.run(at: "2026-11-21T09:34:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T10:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-22T09:30:00Z"), delivers: ["alarm.prayer:fajr:2026-11-22"])
        XCTAssertEqual(try dir.outboxIDsButDigests(),
                       [alarm, "alarm.prayer:fajr:2026-11-24", "alarm.prayer:fajr:2026-11-22"])
    }

    func testClockSetBackNearlyTwoDaysNeverDeliversTwice() throws {
        // The ledger remembers an occurrence for two days after it expired, so a clock set back by up to that
        // much repeats nothing (README, "Exactly once").
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "09:30", durationMinutes: 60))
        let alarm = "alarm.prayer:fajr:2026-11-21"
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T10:00:00Z"), delivers: [alarm])
        assertRun(try dir.run(at: "2026-11-23T09:00:00Z"), delivers: [],
                  tellsMissed: "Morning Prayer Time (Sun 22 Nov 09:30)")
        assertRun(try dir.run(at: "2026-11-21T09:00:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T09:45:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDsButDigests(), [alarm])
    }

    // MARK: - Daylight saving time

    func testAlarmAtAMissingLocalTimeFiresAtTheFirstInstantAfterTheGap() throws {
        // 2026-03-29 in Europe/Berlin: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist.
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("alarms.json", Fixture.alarm(time: "02:30"))
        assertRun(try dir.run(at: "2026-03-29T00:30:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-03-29"])
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-03-29T01:00:00Z")  // 03:00 CEST
        assertRun(try dir.run(at: "2026-03-29T00:59:00Z"), delivers: [])

        let result = try dir.run(at: "2026-03-29T01:00:00Z")
        assertRun(result, delivers: ["alarm.prayer:fajr:2026-03-29"])
        XCTAssertEqual(result.jsonLines().first?["fireAt"] as? String, "2026-03-29T01:00:00Z")
        XCTAssertEqual(result.jsonLines().first?["lateSeconds"] as? Int, 0)
        assertRun(try dir.run(at: "2026-03-29T01:30:00Z"), delivers: [])
        // The next day is back to 02:30 CEST = 00:30Z.
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-03-30T00:30:00Z")
    }

    func testAlarmAtARepeatedLocalTimeFiresOnceAtTheFirstOfTheTwo() throws {
        // 2026-10-25 in Europe/Berlin: 03:00 CEST falls back to 02:00 CET; 02:30 happens at 00:30Z and 01:30Z.
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("alarms.json", Fixture.alarm(time: "02:30"))
        assertRun(try dir.run(at: "2026-10-25T00:29:00Z"), delivers: [])
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-10-25T00:30:00Z")

        assertRun(try dir.run(at: "2026-10-25T00:30:00Z"), delivers: ["alarm.prayer:fajr:2026-10-25"])
        assertRun(try dir.run(at: "2026-10-25T01:29:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-10-25T01:30:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-10-25T01:31:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), ["alarm.prayer:fajr:2026-10-25"])
        // The next day is 02:30 CET = 01:30Z.
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-10-26T01:30:00Z")
    }

    // MARK: - --now

    func testNowWithAnOffsetAndFractionIsTheSameInstantAndOutputIsUTC() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("laundry.json", Fixture.laundry(washStartedAt: "2026-11-21T08:30:00+01:00"))  // 08:15Z
        assertRun(try dir.run(at: "2026-11-21T09:00:00+01:00"), delivers: [])
        XCTAssertEqual(try dir.status()["lastRunAt"] as? String, "2026-11-21T08:00:00Z")

        let result = try dir.run(at: "2026-11-21T09:16:00.250+01:00")
        assertRun(result, delivers: ["laundry.washComplete:snowy:c-1"])
        let record = try XCTUnwrap(result.jsonLines().first)
        XCTAssertEqual(record["fireAt"] as? String, "2026-11-21T08:15:00Z")
        XCTAssertEqual(record["lateSeconds"] as? Int, 60)  // whole seconds
        XCTAssertEqual((record["deliveredAt"] as? String)?.hasPrefix("2026-11-21T08:16:00"), true)
        XCTAssertEqual((record["deliveredAt"] as? String)?.hasSuffix("Z"), true)
    }
}
