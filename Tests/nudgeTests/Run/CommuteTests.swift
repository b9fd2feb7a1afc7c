import Foundation
import XCTest

/// Commute leave-times and the personalized morning message (docs/files.md) end to end: what
/// `nudge run` plans in plan.json and delivers, late, once, or not at all after the arrival.
///
/// Europe/Berlin in November is UTC+1: an 08:45 arrival is 07:45Z, and with 25 min travel and a 10 min buffer
/// the reminder fires at 07:10Z. 2026-11-20 is a Friday, 2026-11-23 a Monday.
final class CommuteTests: DataDirectoryTestCase {
    private let friday = "commute.leave:office:2026-11-20"
    private let monday = "commute.leave:office:2026-11-23"

    /// The recurring `office` trip of the README: 08:45 on weekdays, 10 min buffer, 25 min without observations.
    private func officeTrip(observations: String = "", enabled: Bool? = nil,
                            weekdays: String = #"["mon","tue","wed","thu","fri"]"#) -> String {
        let enabledMember = enabled.map { ", \"enabled\": \($0)" } ?? ""
        let observationsMember = observations.isEmpty ? "" : ",\n      \"observations\": [ \(observations) ]"
        return """
            { "id": "office", "destination": "Office", "arriveBy": "08:45", "weekdays": \(weekdays),
              "bufferMinutes": 10, "travelMinutes": 25\(enabledMember)\(observationsMember) }
            """
    }

    private func trips(_ trips: String...) -> String {
        "{ \"trips\": [\n" + trips.joined(separator: ",\n") + "\n] }\n"
    }

    /// The record with `id` in plan.json's `pending`.
    private func planned(_ id: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let pending = try dir.json("plan.json")["pending"] as? [[String: Any]] ?? []
        return try XCTUnwrap(pending.first { $0["id"] as? String == id }, "\(id) is not in plan.json: "
                             + ((try? dir.text("plan.json")) ?? "<no plan.json>"), file: file, line: line)
    }

    private func plannedFireAt(_ id: String, file: StaticString = #filePath, line: UInt = #line) throws -> String? {
        try planned(id, file: file, line: line)["fireAt"] as? String
    }

    // MARK: - Delivery of one trip instance

    /// The issue's leave reminder delivered 25 minutes late, 15 minutes after its leave instant: the command (as the
    /// desktop and the terminal) is told she is late and when she arrives leaving now (docs/design.md, "Texts written when shown";
    /// before, "Leave now to arrive at Office by 08:45 (25 min late)", which could no longer come true); the outbox
    /// keeps the record as planned, with its id and lateSeconds.
    func testALateLeaveTimeSaysSheIsLateAndWhenSheArrivesToTheCommand() throws {
        let log = dir.fileURL("bodies.log").path
        let script = dir.fileURL("record.sh")
        try Data("#!/bin/sh\nprintf '%s|%s\\n' \"$NUDGE_BODY\" \"$1\" >> '\(log)'\n".utf8).write(to: script)
        chmod(script.path, 0o755)
        let settings: [String: Any] = ["timeZone": "Europe/Berlin", "deliver": ["command": [script.path, "{body}"]]]
        try JSONSerialization.data(withJSONObject: settings).write(to: dir.fileURL("settings.json"))
        try dir.write("trips.json", trips(officeTrip()))
        XCTAssertEqual(try dir.run(at: "2026-11-23T06:00:00Z").status, 0)
        let late = try dir.run(at: "2026-11-23T07:35:00Z")  // fired at 07:10Z, 25 min ago
        XCTAssertEqual(late.status, 0, late.summary)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8),
                       "You are late: leaving now you reach Office at 09:00, 15 min after 08:45|You are late: leaving "
                           + "now you reach Office at 09:00, 15 min after 08:45\n")
        let record = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try dir.outboxLines()[0].utf8)) as? [String: Any])
        XCTAssertEqual(record["id"] as? String, monday)
        XCTAssertEqual(record["body"] as? String, "Leave in 10 min to arrive at Office by 08:45")
        XCTAssertEqual(record["lateSeconds"] as? Int, 1500)
    }

    /// The issue's case: `nudge snooze last`, then `nudge snooze last --minutes 3` on "Time to Leave". The one
    /// snooze is moved to 08:15 and rings then, once: a leave-time's planned time holds against a new
    /// prediction, not against the person moving their snooze (it rang at the first snooze's 08:16).
    func testASecondSnoozeOfALeaveTimeMovesItAndItRingsOnceAtTheNewTime() throws {
        try dir.write("settings.json", #"{ "timeZone": "Europe/Berlin" }"#)
        try dir.write("trips.json", trips(officeTrip()))
        XCTAssertEqual(try dir.run(at: "2026-11-23T06:00:00Z").status, 0)
        assertRun(try dir.run(at: "2026-11-23T07:10:00Z"), delivers: [monday])
        XCTAssertEqual(try dir.nudge("snooze", now: "2026-11-23T07:11:00Z", "last").status, 0)
        let moved = try dir.nudge("snooze", now: "2026-11-23T07:12:00Z", "last", "--minutes", "3")
        XCTAssertTrue(moved.stdout.hasPrefix("Moved the snooze"), moved.summary)
        for minute in 13...20 {
            XCTAssertEqual(try dir.run(at: String(format: "2026-11-23T07:%02d:00Z", minute)).status, 0)
        }
        XCTAssertEqual(try dir.outboxIDs(), [monday, monday + ":snooze-1"])
        let line = try XCTUnwrap(try dir.outboxLines().dropFirst().first)
        let snooze = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(snooze["fireAt"] as? String, "2026-11-23T07:15:00Z")
        XCTAssertEqual(snooze["deliveredAt"] as? String, "2026-11-23T07:15:00Z")
    }

    func testLateLeaveReminderIsDeliveredBeforeTheArrivalWithItsLateness() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("trips.json", trips(officeTrip()))

        assertRun(try dir.run(at: "2026-11-20T07:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [friday])
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-11-20T07:10:00Z")

        // Nothing ran at 07:10Z; at 07:30Z (15 min before the arrival) it is still worth leaving.
        let late = try dir.run(at: "2026-11-20T07:30:00Z")
        assertRun(late, delivers: [friday])
        let record = try XCTUnwrap(late.jsonLines().first)
        XCTAssertEqual(record["kind"] as? String, "commute.leave")
        XCTAssertEqual(record["source"] as? String, "office")
        XCTAssertEqual(record["fireAt"] as? String, "2026-11-20T07:10:00Z")
        XCTAssertEqual(record["expiresAt"] as? String, "2026-11-20T07:45:00Z")
        XCTAssertEqual(record["deliveredAt"] as? String, "2026-11-20T07:30:00Z")
        XCTAssertEqual(record["lateSeconds"] as? Int, 1200)
        XCTAssertEqual(record["title"] as? String, "Time to Leave")
        XCTAssertEqual(record["body"] as? String, "Leave in 10 min to arrive at Office by 08:45")
        XCTAssertEqual(record["priority"] as? String, "high")
        XCTAssertEqual(record["category"] as? String, "LEAVE_TIME")
        XCTAssertEqual(record["actions"] as? [String], ["LEAVING_NOW", "SNOOZE"])
        XCTAssertEqual(record["deepLink"] as? String, "nudge://commute/office")

        // Once: neither the next run before the arrival nor one after it repeats it.
        assertRun(try dir.run(at: "2026-11-20T07:31:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-20T08:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [friday])
        let status = try dir.status()
        XCTAssertEqual(status["deliveredTotal"] as? Int, 1)
        XCTAssertEqual(status["missedTotal"] as? Int, 0)
    }

    func testLeaveReminderIsNotDeliveredAfterTheArrivalAndIsShownAsMissed() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("trips.json", trips(officeTrip()))
        assertRun(try dir.run(at: "2026-11-20T07:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [friday])

        // Back at 07:50Z: the arrival (07:45Z) has passed, leaving now is pointless.
        assertRun(try dir.run(at: "2026-11-20T07:50:00Z"), delivers: [],
                  tellsMissed: "Time to Leave (08:10)")
        XCTAssertEqual(try dir.outboxIDsButDigests(), [])
        XCTAssertEqual(try dir.plannedIDs(), [monday])
        let status = try dir.status()
        XCTAssertEqual(status["missedTotal"] as? Int, 1)
        XCTAssertEqual(status["lastMissed"] as? Int, 1)
        XCTAssertEqual(status["deliveredTotal"] as? Int, 1, "the digest")
        let missed = try XCTUnwrap(status["recentMissed"] as? [[String: Any]])
        XCTAssertEqual(missed.map { $0["id"] as? String }, [friday])
        XCTAssertEqual(missed.first?["kind"] as? String, "commute.leave")
        XCTAssertEqual(missed.first?["fireAt"] as? String, "2026-11-20T07:10:00Z")
        XCTAssertEqual(missed.first?["reason"] as? String, "expired")

        assertRun(try dir.run(at: "2026-11-20T07:51:00Z"), delivers: [])
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 1)
    }

    func testAfterFridaysReminderIsDeliveredMondaysInstanceIsPlannedSkippingTheWeekend() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("trips.json", trips(officeTrip()))
        assertRun(try dir.run(at: "2026-11-20T07:00:00Z"), delivers: [])

        let onTime = try dir.run(at: "2026-11-20T07:10:00Z")
        assertRun(onTime, delivers: [friday])
        XCTAssertEqual(onTime.jsonLines().first?["lateSeconds"] as? Int, 0)

        XCTAssertEqual(try dir.plannedIDs(), [monday])
        let next = try planned(monday)
        XCTAssertEqual(next["fireAt"] as? String, "2026-11-23T07:10:00Z")
        XCTAssertEqual(next["expiresAt"] as? String, "2026-11-23T07:45:00Z")
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-11-23T07:10:00Z")

        // The weekend passes without a leave reminder; Monday's comes on time.
        assertRun(try dir.run(at: "2026-11-21T07:10:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-22T07:10:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [monday])
        assertRun(try dir.run(at: "2026-11-23T07:10:00Z"), delivers: [monday])
        XCTAssertEqual(try dir.plannedIDs(), ["commute.leave:office:2026-11-24"])
        XCTAssertEqual(try dir.outboxIDs(), [friday, monday])
    }

    func testOneOffTripIsPlannedAndDeliveredOnce() throws {
        // No buffer by default: "Leave now".
        try dir.write("settings.json", """
            { "timeZone": "Europe/Berlin", "commute": { "defaultBufferMinutes": 0 } }
            """)
        try dir.write("trips.json", trips("""
            { "id": "dentist", "destination": "Dentist", "arriveAt": "2026-11-24T14:30:00+01:00", "travelMinutes": 20 }
            """))
        let dentist = "commute.leave:dentist:2026-11-24"

        assertRun(try dir.run(at: "2026-11-20T07:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [dentist])
        let record = try planned(dentist)
        XCTAssertEqual(record["fireAt"] as? String, "2026-11-24T13:10:00Z")
        XCTAssertEqual(record["expiresAt"] as? String, "2026-11-24T13:30:00Z")
        XCTAssertEqual(record["body"] as? String, "Leave now to arrive at Dentist by 14:30")
        XCTAssertEqual(record["source"] as? String, "dentist")

        assertRun(try dir.run(at: "2026-11-24T13:09:00Z"), delivers: [])
        let result = try dir.run(at: "2026-11-24T13:10:00Z")
        assertRun(result, delivers: [dentist])
        XCTAssertEqual(result.jsonLines().first?["lateSeconds"] as? Int, 0)
        XCTAssertEqual(result.jsonLines().first?["body"] as? String, "Leave now to arrive at Dentist by 14:30")

        // A one-off trip has no next instance.
        XCTAssertEqual(try dir.plannedIDs(), [])
        assertRun(try dir.run(at: "2026-11-24T13:11:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-24T14:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.outboxIDs(), [dentist])
        XCTAssertEqual(try dir.plannedIDs(), [])
    }

    // MARK: - Prediction

    func testPredictionIsThe80thPercentileOfComparableRecentObservations() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        // Reference time: 08:45 − 25 min = 08:20 local. Comparable: weekday departures 07:20–09:20 local.
        try dir.write("trips.json", trips(officeTrip(observations: """
            { "departedAt": "2026-11-17T07:15:00Z", "minutes": 30 },
                  { "departedAt": "2026-11-18T06:20:00Z", "minutes": 35 },
                  { "departedAt": "2026-11-19T08:20:00Z", "minutes": 40 },
                  { "departedAt": "2026-11-14T07:20:00Z", "minutes": 90 },
                  { "departedAt": "2026-11-16T17:00:00Z", "minutes": 60 },
                  { "departedAt": "2026-09-24T07:20:00Z", "minutes": 120 }
            """)))
        // 07:15Z = 08:15 local Tue; 06:20Z = 07:20 local Wed (−60 min, inclusive); 08:20Z = 09:20 local Thu
        // (+60 min, inclusive). Not comparable: Saturday (90), 18:00 local (60). Too old: 57 days (120).
        // 80th percentile (nearest rank) of 30, 35, 40 = 40 → 07:45Z − 40 − 10 = 06:55Z.
        assertRun(try dir.run(at: "2026-11-20T06:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [friday])
        XCTAssertEqual(try plannedFireAt(friday), "2026-11-20T06:55:00Z")
        XCTAssertEqual(try planned(friday)["expiresAt"] as? String, "2026-11-20T07:45:00Z")

        let result = try dir.run(at: "2026-11-20T06:55:00Z")
        assertRun(result, delivers: [friday])
        XCTAssertEqual(result.jsonLines().first?["fireAt"] as? String, "2026-11-20T06:55:00Z")
        XCTAssertEqual(result.jsonLines().first?["lateSeconds"] as? Int, 0)
    }

    func testWithFewerThanThreeComparableObservationsAllRecentOnesArePredictedFrom() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        // Two comparable (30, 35), a Saturday one (50) and an evening one (45): the 80th percentile of all
        // four recent ones is 50 → 07:45Z − 50 − 10 = 06:45Z.
        try dir.write("trips.json", trips(officeTrip(observations: """
            { "departedAt": "2026-11-17T07:15:00Z", "minutes": 30 },
                  { "departedAt": "2026-11-18T07:25:00Z", "minutes": 35 },
                  { "departedAt": "2026-11-14T07:20:00Z", "minutes": 50 },
                  { "departedAt": "2026-11-16T17:00:00Z", "minutes": 45 }
            """)))
        assertRun(try dir.run(at: "2026-11-20T06:00:00Z"), delivers: [])
        XCTAssertEqual(try plannedFireAt(friday), "2026-11-20T06:45:00Z")
    }

    func testPlannedLeaveTimeMovesOnlyWhenThePredictionChangesByMoreThanTwoMinutes() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        /// One recent observation: the prediction is its minutes.
        func observe(_ minutes: Int) throws {
            try dir.write("trips.json", trips(officeTrip(observations: """
                { "departedAt": "2026-11-19T07:15:00Z", "minutes": \(minutes) }
                """)))
        }

        try observe(40)  // 07:45Z − 40 − 10
        assertRun(try dir.run(at: "2026-11-20T05:00:00Z"), delivers: [])
        XCTAssertEqual(try plannedFireAt(friday), "2026-11-20T06:55:00Z")

        try observe(42)  // computes 06:53Z: 2 min earlier, kept
        assertRun(try dir.run(at: "2026-11-20T05:05:00Z"), delivers: [])
        XCTAssertEqual(try plannedFireAt(friday), "2026-11-20T06:55:00Z")

        try observe(38)  // computes 06:57Z: 2 min later, kept
        assertRun(try dir.run(at: "2026-11-20T05:10:00Z"), delivers: [])
        XCTAssertEqual(try plannedFireAt(friday), "2026-11-20T06:55:00Z")

        try observe(45)  // computes 06:50Z: 5 min earlier, moves
        assertRun(try dir.run(at: "2026-11-20T05:15:00Z"), delivers: [])
        XCTAssertEqual(try plannedFireAt(friday), "2026-11-20T06:50:00Z")

        try observe(40)  // computes 06:55Z: 5 min later than the planned 06:50Z, moves
        assertRun(try dir.run(at: "2026-11-20T05:20:00Z"), delivers: [])
        XCTAssertEqual(try plannedFireAt(friday), "2026-11-20T06:55:00Z")

        try observe(41)  // computes 06:54Z: 1 min earlier, kept
        assertRun(try dir.run(at: "2026-11-20T05:25:00Z"), delivers: [])
        XCTAssertEqual(try plannedFireAt(friday), "2026-11-20T06:55:00Z")
        XCTAssertEqual(try dir.json("plan.json")["nextWakeAt"] as? String, "2026-11-20T06:55:00Z")

        // The kept time is the one delivered: nothing at 06:54Z, the reminder at 06:55Z.
        assertRun(try dir.run(at: "2026-11-20T06:54:00Z"), delivers: [])
        let result = try dir.run(at: "2026-11-20T06:55:00Z")
        assertRun(result, delivers: [friday])
        XCTAssertEqual(result.jsonLines().first?["fireAt"] as? String, "2026-11-20T06:55:00Z")
        XCTAssertEqual(result.jsonLines().first?["lateSeconds"] as? Int, 0)
    }

    // MARK: - Switched off

    func testDisabledTripPlansAndDeliversNothing() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        let dentist = """
            { "id": "dentist", "destination": "Dentist", "arriveAt": "2026-11-20T14:30:00+01:00",
              "travelMinutes": 20, "enabled": false }
            """
        try dir.write("trips.json", trips(officeTrip(), dentist))
        assertRun(try dir.run(at: "2026-11-20T07:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [friday])

        // Switched off after it was planned: it leaves the plan and is never delivered.
        try dir.write("trips.json", trips(officeTrip(enabled: false), dentist))
        assertRun(try dir.run(at: "2026-11-20T07:05:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [])
        XCTAssertNil(try dir.json("plan.json")["nextWakeAt"] as? String)
        assertRun(try dir.run(at: "2026-11-20T07:10:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-20T13:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [])
        XCTAssertEqual(try dir.outboxLines(), [])
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 0)
    }

    func testCommuteDisabledInSettingsPlansAndDeliversNothing() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("trips.json", trips(officeTrip(), """
            { "id": "dentist", "destination": "Dentist", "arriveAt": "2026-11-20T14:30:00+01:00", "travelMinutes": 20 }
            """))
        assertRun(try dir.run(at: "2026-11-20T07:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [friday, "commute.leave:dentist:2026-11-20"])

        try dir.write("settings.json", """
            { "timeZone": "Europe/Berlin", "commute": { "enabled": false } }
            """)
        assertRun(try dir.run(at: "2026-11-20T07:05:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [])
        assertRun(try dir.run(at: "2026-11-20T07:10:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-20T13:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [])
        XCTAssertEqual(try dir.outboxLines(), [])
    }

    func testLeaveReminderIsNotMovedByQuietHours() throws {
        // High priority: a 07:10 local leave-time inside quiet hours (until 08:00) rings at 07:10.
        try dir.write("settings.json", """
            { "timeZone": "Europe/Berlin", "quietHours": { "start": "22:00", "end": "08:00" } }
            """)
        try dir.write("trips.json", trips("""
            { "id": "office", "destination": "Office", "arriveBy": "07:45", "bufferMinutes": 10, "travelMinutes": 25 }
            """))
        assertRun(try dir.run(at: "2026-11-20T05:00:00Z"), delivers: [])
        XCTAssertEqual(try plannedFireAt(friday), "2026-11-20T06:10:00Z")
        let result = try dir.run(at: "2026-11-20T06:10:00Z")
        assertRun(result, delivers: [friday])
        XCTAssertEqual(result.jsonLines().first?["body"] as? String, "Leave in 10 min to arrive at Office by 07:45")
        // No weekdays: every day, the weekend included.
        XCTAssertEqual(try dir.plannedIDs(), ["commute.leave:office:2026-11-21"])
    }

    // MARK: - Daylight saving time

    func testRecurringTripKeepsItsLocalArrivalAcrossTheSpringDSTChange() throws {
        // Europe/Berlin springs forward on Sunday 2026-03-29: 08:45 local is 07:45Z on Friday the 27th
        // and 06:45Z on Monday the 30th.
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("trips.json", trips(officeTrip()))
        let before = "commute.leave:office:2026-03-27"
        let after = "commute.leave:office:2026-03-30"

        assertRun(try dir.run(at: "2026-03-27T06:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [before])
        XCTAssertEqual(try plannedFireAt(before), "2026-03-27T07:10:00Z")
        XCTAssertEqual(try planned(before)["expiresAt"] as? String, "2026-03-27T07:45:00Z")
        assertRun(try dir.run(at: "2026-03-27T07:10:00Z"), delivers: [before])

        XCTAssertEqual(try dir.plannedIDs(), [after])
        XCTAssertEqual(try plannedFireAt(after), "2026-03-30T06:10:00Z")
        XCTAssertEqual(try planned(after)["expiresAt"] as? String, "2026-03-30T06:45:00Z")
        assertRun(try dir.run(at: "2026-03-29T12:00:00Z"), delivers: [])
        XCTAssertEqual(try plannedFireAt(after), "2026-03-30T06:10:00Z")

        assertRun(try dir.run(at: "2026-03-30T06:09:00Z"), delivers: [])
        let monday = try dir.run(at: "2026-03-30T06:10:00Z")
        assertRun(monday, delivers: [after])
        XCTAssertEqual(monday.jsonLines().first?["lateSeconds"] as? Int, 0)
        XCTAssertEqual(monday.jsonLines().first?["body"] as? String, "Leave in 10 min to arrive at Office by 08:45")
        XCTAssertEqual(try plannedFireAt("commute.leave:office:2026-03-31"), "2026-03-31T06:10:00Z")
        XCTAssertEqual(try dir.outboxIDs(), [before, after])
    }

    // MARK: - Personalized daily message

    private let personalizedSettings = """
        { "timeZone": "Europe/Berlin",
          "personalized": { "enabled": true, "firstName": "Sam", "time": "07:30" } }
        """

    func testPersonalizedMessageIsDeliveredAt0730LocalWithTheWeekdaysTextOnce() throws {
        try dir.write("settings.json", personalizedSettings)
        let fridayMessage = "daily.personalized:personalized:2026-11-20"
        let saturdayMessage = "daily.personalized:personalized:2026-11-21"

        // 07:30 local is 06:30Z.
        assertRun(try dir.run(at: "2026-11-20T06:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [fridayMessage])
        XCTAssertEqual(try plannedFireAt(fridayMessage), "2026-11-20T06:30:00Z")

        let result = try dir.run(at: "2026-11-20T06:30:00Z")
        assertRun(result, delivers: [fridayMessage])
        let record = try XCTUnwrap(result.jsonLines().first)
        XCTAssertEqual(record["kind"] as? String, "daily.personalized")
        XCTAssertEqual(record["source"] as? String, "personalized")
        XCTAssertEqual(record["title"] as? String, "Good morning")
        XCTAssertEqual(record["body"] as? String, "Friday energy, Sam! Plan your weekend commute now.")
        XCTAssertEqual(record["priority"] as? String, "low")
        XCTAssertEqual(record["category"] as? String, "DAILY")
        XCTAssertEqual(record["actions"] as? [String], [])
        XCTAssertEqual(record["fireAt"] as? String, "2026-11-20T06:30:00Z")
        XCTAssertEqual(record["expiresAt"] as? String, "2026-11-20T23:00:00Z")  // midnight local
        XCTAssertEqual(record["lateSeconds"] as? Int, 0)

        assertRun(try dir.run(at: "2026-11-20T06:31:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-20T20:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [saturdayMessage])
        XCTAssertEqual(try plannedFireAt(saturdayMessage), "2026-11-21T06:30:00Z")

        let saturday = try dir.run(at: "2026-11-21T06:30:00Z")
        assertRun(saturday, delivers: [saturdayMessage])
        XCTAssertEqual(saturday.jsonLines().first?["body"] as? String,
                       "Weekend prep, Sam — Your commute schedule awaits.")
        XCTAssertEqual(try dir.outboxIDs(), [fridayMessage, saturdayMessage])
    }

    func testPersonalizedMessageUsesEachWeekdaysTemplate() throws {
        try dir.write("settings.json", personalizedSettings)
        assertRun(try dir.run(at: "2026-11-22T06:00:00Z"), delivers: [])
        var bodies: [String] = []
        // Sunday 2026-11-22 through Saturday 2026-11-28, each at 06:30Z.
        for day in 22...28 {
            let result = try dir.run(at: "2026-11-\(day)T06:30:00Z")
            assertRun(result, delivers: ["daily.personalized:personalized:2026-11-\(day)"])
            bodies.append(result.jsonLines().first?["body"] as? String ?? "<none>")
        }
        XCTAssertEqual(bodies, [
            "Sunday reset, Sam. Get ready for a smooth week ahead.",
            "Good morning, Sam — This week starts strong. Let's plan your commute today.",
            "Hey Sam, ready to tackle Tuesday? Check your commute times.",
            "Midweek momentum, Sam! Your commute insights are ready.",
            "Thursday vibes, Sam — Stay ahead with smart commute planning.",
            "Friday energy, Sam! Plan your weekend commute now.",
            "Weekend prep, Sam — Your commute schedule awaits.",
        ])
    }

    func testPersonalizedMessageEnabledAfterItsTimeWaitsForTomorrow() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        assertRun(try dir.run(at: "2026-11-20T06:40:00Z"), delivers: [])  // 07:40 local

        // Switched on at 07:45 local for 07:30: a daily repeat must fall due after the previous run.
        try dir.write("settings.json", personalizedSettings)
        assertRun(try dir.run(at: "2026-11-20T06:45:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), ["daily.personalized:personalized:2026-11-21"])
        assertRun(try dir.run(at: "2026-11-21T06:30:00Z"), delivers: ["daily.personalized:personalized:2026-11-21"])
        XCTAssertEqual(try dir.outboxIDs(), ["daily.personalized:personalized:2026-11-21"])
    }

    func testPersonalizedMessageNotEnabledPlansAndDeliversNothing() throws {
        try dir.write("settings.json", """
            { "timeZone": "Europe/Berlin", "personalized": { "firstName": "Sam", "time": "07:30" } }
            """)
        assertRun(try dir.run(at: "2026-11-20T06:00:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [])
        assertRun(try dir.run(at: "2026-11-20T06:30:00Z"), delivers: [])
        assertRun(try dir.run(at: "2026-11-21T06:30:00Z"), delivers: [])
        XCTAssertEqual(try dir.plannedIDs(), [])
        XCTAssertEqual(try dir.outboxLines(), [])
    }

    func testPersonalizedMessageEnabledWithoutFirstNameIsBadData() throws {
        try dir.write("settings.json", """
            { "timeZone": "Europe/Berlin", "personalized": { "enabled": true, "time": "07:30" } }
            """)
        let expected = "\(dir.path)/settings.json: personalized.firstName: "
        let run = try dir.run(at: "2026-11-20T06:30:00Z")
        assertRun(run, exit: 65, delivers: [])
        XCTAssertTrue(run.stderrLines.contains { $0.hasPrefix(expected) }, run.summary)
        XCTAssertEqual(try dir.outboxLines(), [])

        let check = try NudgeProcess.run(["check", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(check.status, 65, check.summary)
        XCTAssertTrue((check.stdoutLines + check.stderrLines).contains { $0.hasPrefix(expected) }, check.summary)
    }
}
