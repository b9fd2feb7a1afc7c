import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `nudge trip depart|arrive|log` (docs/files.md) on the built binary: a departure keeps "Time to Leave" from
/// coming and plans "Arrived at Office?"; an arrival appends the observation keeping the file; bad input exits
/// 65 (64 for usage) and leaves trips.json byte for byte.
final class TripCommandTests: DataDirectoryTestCase {
    /// Office by 08:45 Berlin on weekdays, 25 min estimated, 10 min buffer: "Time to Leave" at 08:10 (07:10Z).
    static let trips = """
        { "trips": [ { "id": "office", "destination": "Office", "arriveBy": "08:45",
                       "weekdays": ["mon", "tue", "wed", "thu", "fri"], "bufferMinutes": 10, "travelMinutes": 25,
                       "mode": "bike" } ],
          "comment": "mine" }

        """

    override func setUpWithError() throws {
        try super.setUpWithError()
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("trips.json", Self.trips)
    }

    private func trip(_ arguments: String..., now: String) throws -> NudgeResult {
        try NudgeProcess.run(["trip"] + arguments + ["--data", dir.path, "--now", now], workingDirectory: dir.url)
    }

    private func observations() throws -> [[String: Any]] {
        let trips = try XCTUnwrap(try dir.json("trips.json")["trips"] as? [[String: Any]])
        return trips[0]["observations"] as? [[String: Any]] ?? []
    }

    func testDepartureBeforeTheReminderKeepsTimeToLeaveFromComingAndArrivalRecordsTheJourney() throws {
        try dir.run(at: "2026-11-23T06:00:00Z")  // Mon 07:00 Berlin
        let depart = try trip("depart", "office", now: "2026-11-23T06:58:00Z")
        XCTAssertEqual(depart.status, 0, depart.summary)
        XCTAssertEqual(depart.stdoutLines, ["Office: left at 2026-11-23 07:58; \"Time to Leave\" of Mon 23 Nov 08:10 "
            + "will not come. \"Arrived at Office?\" at Mon 23 Nov 08:23; or `nudge trip arrive office` when you get "
            + "there."])
        XCTAssertTrue(try dir.plannedIDs().contains("commute.arrival:office:20261123T065800Z"), "re-planned at once")
        XCTAssertFalse(try dir.plannedIDs().contains("commute.leave:office:2026-11-23"))

        let run = try dir.run(at: "2026-11-23T07:11:00Z")
        XCTAssertEqual(run.status, 0, run.summary)
        XCTAssertEqual(try dir.outboxIDs(), [], "the reminder is not delivered")
        XCTAssertEqual(try dir.status()["missedTotal"] as? Int, 0, "and not missed either")

        let arrive = try trip("arrive", "office", now: "2026-11-23T07:29:40Z")
        XCTAssertEqual(arrive.status, 0, arrive.summary)
        XCTAssertEqual(arrive.stdoutLines.first, "Office: recorded 32 min, departed 2026-11-23 07:58. Predicted "
            + "travel time now: 80th percentile of 1 trip in the last 8 weeks (fewer than 3 similar): 32 min.")
        let recorded = try observations()
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.first?["departedAt"] as? String, "2026-11-23T06:58:00Z")
        XCTAssertEqual(recorded.first?["minutes"] as? Int, 32)
        let document = try dir.json("trips.json")
        XCTAssertEqual(document["comment"] as? String, "mine")
        XCTAssertEqual((document["trips"] as? [[String: Any]])?.first?["mode"] as? String, "bike")
        XCTAssertEqual(try dir.mode("trips.json"), 0o644, "the mode the file had (docs/promises.md)")
        XCTAssertEqual(try dir.text("trips.json"), Self.trips.replacingOccurrences(
            of: #""mode": "bike" }"#, with: #""mode": "bike","# + "\n               "
                + #""observations": [ { "departedAt": "2026-11-23T06:58:00Z", "minutes": 32 } ] }"#),
                       "only the observation is new, written like the trip around it")
        XCTAssertFalse(try dir.plannedIDs().contains { $0.hasPrefix("commute.arrival:") }, "closed: no check-in")
        XCTAssertEqual((try dir.json("state.json")["departures"] as? [Any])?.count, 0)

        // Nothing left to close: the second arrival is refused, the file as it was.
        let before = try dir.data("trips.json")
        let again = try trip("arrive", "office", now: "2026-11-23T07:31:00Z")
        XCTAssertEqual(again.status, 65, again.summary)
        XCTAssertTrue(again.stderr.contains("nudge trip log office MINUTES"), again.stderr)
        XCTAssertEqual(try dir.data("trips.json"), before)
    }

    /// A trip that names its zone waits while the data directory is in another (docs/travelling.md), and
    /// `status` says so.
    func testATripOfHomePausesWhileAwayAndStatusSaysSo() throws {
        try dir.write("trips.json", Self.trips.replacingOccurrences(of: #""mode": "bike""#,
                                                                    with: #""timeZone": "Europe/Berlin""#))
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Istanbul"))
        XCTAssertEqual(try dir.run(at: "2026-11-23T05:00:00Z").status, 0)
        XCTAssertEqual(try dir.plannedIDs().filter { $0.hasPrefix("commute.") }, [], "paused in Istanbul")
        let status = try dir.nudge("status", now: "2026-11-23T05:00:00Z")
        XCTAssertTrue(status.stdout.contains("  paused: its zone is Europe/Berlin and you are in Europe/Istanbul; its "
            + "leave-times and check-ins resume when settings.json's timeZone is Europe/Berlin again"), status.stdout)

        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        XCTAssertEqual(try dir.run(at: "2026-11-23T05:01:00Z").status, 0)
        XCTAssertTrue(try dir.plannedIDs().contains("commute.leave:office:2026-11-23"), "home again")
        XCTAssertFalse(try dir.nudge("status", now: "2026-11-23T05:01:00Z").stdout.contains("paused"))
    }

    func testLogOnTheExampleTripsChangesOnlyTheLinesOfTheNewObservation() throws {
        let original = try String(contentsOf: RepositoryScript.root.appendingPathComponent("data/trips.json"),
                                  encoding: .utf8)
        try dir.write("trips.json", original)
        let log = try trip("log", "office", "31", now: "2026-11-23T07:30:00Z")
        XCTAssertEqual(log.status, 0, log.summary)
        let last = #"        { "departedAt": "2026-11-20T06:56:00Z", "minutes": 26 }"#
        XCTAssertEqual(try dir.text("trips.json"), original.replacingOccurrences(
            of: last + "\n", with: last + ",\n" + #"        { "departedAt": "2026-11-23T06:59:00Z", "minutes": 31 }"# + "\n"))
    }

    func testArrivalCheckIsDeliveredAndTheStatusSaysWhatThePredictionRestsOn() throws {
        try dir.run(at: "2026-11-23T06:00:00Z")
        XCTAssertEqual(try trip("depart", "office", now: "2026-11-23T07:00:00Z").status, 0)
        let run = try dir.run(at: "2026-11-23T07:25:00Z")
        XCTAssertEqual(run.status, 0, run.summary)
        XCTAssertEqual(try dir.outboxIDs(), ["commute.arrival:office:20261123T070000Z"])
        let line = try XCTUnwrap(run.stdoutLines.first)
        XCTAssertTrue(line.contains("\"title\":\"Arrived at Office?\""), line)
        XCTAssertTrue(line.contains("\"actions\":[\"ARRIVED\"]"), line)
        XCTAssertTrue(line.contains("\"category\":\"ARRIVAL_CHECK\""), line)

        let act = try dir.nudge("act", now: "2026-11-23T07:27:00Z", "last", "ARRIVED")
        XCTAssertEqual(act.status, 0, act.summary)
        XCTAssertEqual(try observations().map { $0["minutes"] as? Int }, [27])
        let twice = try dir.nudge("act", now: "2026-11-23T07:28:00Z", "last", "ARRIVED")
        XCTAssertEqual(twice.status, 0, twice.summary)
        XCTAssertTrue(twice.stdout.hasPrefix("Nothing to do"), twice.summary)
        XCTAssertEqual(try observations().count, 1, "once per notification")

        let status = try dir.nudge("status", now: "2026-11-23T07:30:00Z")
        XCTAssertTrue(status.stdoutLines.contains("Travel to Office (office): 80th percentile of 1 trip in the last "
            + "8 weeks (fewer than 3 similar): 27 min"), status.stdout)
    }

    func testLeavingNowOnTheDeliveredReminderDepartsAndCancelsItsSnooze() throws {
        try dir.run(at: "2026-11-23T06:00:00Z")
        let run = try dir.run(at: "2026-11-23T07:10:00Z")
        XCTAssertEqual(try dir.outboxIDs(), ["commute.leave:office:2026-11-23"], run.summary)
        XCTAssertTrue(run.stdout.contains("\"actions\":[\"LEAVING_NOW\",\"SNOOZE\"]"), run.stdout)
        XCTAssertEqual(try dir.nudge("snooze", now: "2026-11-23T07:10:30Z", "last").status, 0)
        XCTAssertTrue(try dir.plannedIDs().contains("commute.leave:office:2026-11-23:snooze-1"))

        let act = try dir.nudge("act", now: "2026-11-23T07:12:00Z", "commute.leave:office:2026-11-23", "LEAVING_NOW")
        XCTAssertEqual(act.status, 0, act.summary)
        XCTAssertTrue(act.stdout.contains("its snooze is cancelled"), act.stdout)
        let planned = try dir.plannedIDs()
        XCTAssertFalse(planned.contains("commute.leave:office:2026-11-23:snooze-1"))
        XCTAssertTrue(planned.contains("commute.arrival:office:20261123T071200Z"))
        let again = try dir.nudge("act", now: "2026-11-23T07:13:00Z", "commute.leave:office:2026-11-23", "LEAVING_NOW")
        XCTAssertTrue(again.stdout.hasPrefix("Nothing to do"), again.summary)
        // She has left: a snooze would ring "Time to Leave" on the bus (docs/promises.md).
        let snooze = try dir.nudge("snooze", now: "2026-11-23T07:14:00Z", "commute.leave:office:2026-11-23")
        XCTAssertEqual(snooze.status, 0, snooze.summary)
        XCTAssertEqual(snooze.stdoutLines, ["Nothing to do: \"Time to Leave\" was settled by LEAVING_NOW at "
            + "2026-11-23 08:12: it is not snoozed."])
        XCTAssertFalse(try dir.plannedIDs().contains { $0.contains(":snooze-") })
        let departures = try XCTUnwrap(try dir.json("state.json")["departures"] as? [[String: Any]])
        XCTAssertEqual(departures.map { $0["at"] as? String }, ["2026-11-23T07:12:00Z"])
    }

    func testLogAppendsAJourneyAfterwards() throws {
        let log = try trip("log", "office", "31", now: "2026-11-23T07:40:00Z")
        XCTAssertEqual(log.status, 0, log.summary)
        let departed = try trip("log", "office", "28", "--departed", "2026-11-24T07:00:00Z", now: "2026-11-24T08:00:00Z")
        XCTAssertEqual(departed.status, 0, departed.summary)
        XCTAssertEqual(try observations().map { "\($0["departedAt"] as? String ?? "") \($0["minutes"] as? Int ?? 0)" },
                       ["2026-11-23T07:09:00Z 31", "2026-11-24T07:00:00Z 28"])
    }

    func testRefusalsLeaveTripsJsonByteForByte() throws {
        try dir.run(at: "2026-11-23T06:00:00Z")
        let before = try dir.data("trips.json")
        func refused(_ arguments: [String], _ code: Int32, _ expected: String, now: String = "2026-11-23T07:00:00Z",
                     line: UInt = #line) throws {
            let result = try NudgeProcess.run(["trip"] + arguments + ["--data", dir.path, "--now", now],
                                              workingDirectory: dir.url)
            XCTAssertEqual(result.status, code, result.summary, line: line)
            XCTAssertTrue(result.stderr.contains(expected), result.stderr, line: line)
            XCTAssertEqual(try dir.data("trips.json"), before, line: line)
        }
        try refused(["depart", "gym"], 65, "unknown trip \"gym\" (known: office)")
        try refused(["arrive", "office"], 65, "no open departure for office")
        try refused(["log", "office", "0"], 65, "a journey of 0 min to office is not recorded (expected 1 to 600")
        try refused(["log", "office", "900"], 65, "a journey of 900 min")
        try refused(["log", "office", "half"], 64, "is not a whole number of minutes")
        try refused(["fly", "office"], 64, "unknown action \"fly\"")
        try refused(["depart"], 64, "wrong number of arguments")
        try refused(["depart", "office", "--at", "yesterday"], 64, "--at expects a time such as 19:30")

        XCTAssertEqual(try trip("depart", "office", now: "2026-11-23T07:00:00Z").status, 0)
        try refused(["arrive", "office"], 65, "a journey of 1200 min to office is not recorded",
                    now: "2026-11-24T03:00:00Z")
        try refused(["arrive", "office", "--at", "2026-11-23T07:00:10Z"], 65, "a journey of 0 min")
    }

    func testArrivalWritesThroughASymbolicLinkAndKeepsTheLink() throws {
        let dotfiles = try makeDirectory()
        try dotfiles.write("trips.json", Self.trips)
        try dir.remove("trips.json")
        try FileManager.default.createSymbolicLink(atPath: dir.fileURL("trips.json").path,
                                                   withDestinationPath: dotfiles.fileURL("trips.json").path)
        XCTAssertEqual(try trip("depart", "office", now: "2026-11-23T07:00:00Z").status, 0)
        XCTAssertEqual(try trip("arrive", "office", now: "2026-11-23T07:30:00Z").status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir.fileURL("trips.json").path),
                       dotfiles.fileURL("trips.json").path)
        let target = try JSONSerialization.jsonObject(with: dotfiles.data("trips.json")) as? [String: Any]
        let trips = try XCTUnwrap(target?["trips"] as? [[String: Any]])
        XCTAssertEqual((trips[0]["observations"] as? [[String: Any]])?.first?["minutes"] as? Int, 30)
    }

    /// A week of commuting, recorded as a person would: the leave-time moves by what was observed.
    func testAWeekOfRecordedTripsMovesTheLeaveTime() throws {
        try dir.run(at: "2026-11-23T05:00:00Z")
        let leaveTime = { () throws -> String? in
            let plan = try self.dir.nudge("plan", now: "2026-11-30T05:00:00Z", "--json")
            let object = try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any]
            let pending = object?["pending"] as? [[String: Any]] ?? []
            return pending.first { $0["id"] as? String == "commute.leave:office:2026-11-30" }?["fireAt"] as? String
        }
        XCTAssertEqual(try leaveTime(), "2026-11-30T07:10:00Z", "08:10 Berlin from the 25-min estimate")
        for (day, arrival) in [("23", "07:28"), ("24", "07:31"), ("25", "07:29"), ("26", "07:33"), ("27", "07:30")] {
            XCTAssertEqual(try trip("depart", "office", now: "2026-11-\(day)T06:55:00Z").status, 0)
            let arrive = try trip("arrive", "office", "--at", "2026-11-\(day)T\(arrival):00Z",
                                  now: "2026-11-\(day)T07:40:00Z")
            XCTAssertEqual(arrive.status, 0, arrive.summary)
        }
        XCTAssertEqual(try observations().map { $0["minutes"] as? Int }, [33, 36, 34, 38, 35])
        XCTAssertEqual(try leaveTime(), "2026-11-30T06:59:00Z", "80th percentile 36 min: 07:59 Berlin")
        let status = try dir.nudge("status", now: "2026-11-29T12:00:00Z")
        XCTAssertTrue(status.stdout.contains("Travel to Office (office): 80th percentile of 5 similar trips in the "
            + "last 8 weeks: 36 min"), status.stdout)
    }
}
