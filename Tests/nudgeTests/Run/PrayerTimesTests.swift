import Foundation
import XCTest

/// `nudge times`, prayer alarms in `run`, `plan`, `check` and `status` (docs/files.md, "Prayer times"), on the
/// built binary.
final class PrayerTimesTests: DataDirectoryTestCase {
    private let berlin = """
        { "timeZone": "Europe/Berlin",
          "prayerTimes": { "latitude": 52.52, "longitude": 13.405, "method": "MWL" } }

        """
    private let tromso = """
        { "timeZone": "Europe/Oslo",
          "prayerTimes": { "latitude": 69.6492, "longitude": 18.9553, "method": "MWL" } }

        """
    private let alarms = """
        { "alarms": [ { "id": "maghrib", "title": "Sunset Prayer", "prayer": "maghrib", "offsetMinutes": -5 },
                      { "id": "fajr", "title": "Morning Prayer", "time": "05:30" } ] }

        """

    func testTimesPrintsTheTableWithPlaceAndMethod() throws {
        try dir.write("settings.json", berlin)
        let result = try dir.nudge("times", now: "2026-11-21T10:00:00Z", "--date", "2026-06-21", "--days", "3")
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stdoutLines, [
            "52.52° N, 13.405° E — MWL (fajr 18°, isha 17°), asr standard, highLatitude angleBased",
            "Zone Europe/Berlin",
            "",
            "DATE            FAJR   SUNRISE  DHUHR  ASR    MAGHRIB  ISHA",
            "Sun 2026-06-21  02:34  04:43    13:08  17:33  21:33    23:35",
            "Mon 2026-06-22  02:34  04:43    13:08  17:33  21:33    23:35",
            "Tue 2026-06-23  02:34  04:44    13:09  17:34  21:34    23:36",
        ])
    }

    /// Today by default; JSON gives UTC instants and local times.
    func testTimesJSONGivesInstantsAndLocalTimes() throws {
        try dir.write("settings.json", berlin)
        let result = try dir.nudge("times", now: "2026-11-21T10:00:00Z", "--json")
        XCTAssertEqual(result.status, 0, result.summary)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let day = try XCTUnwrap((object["days"] as? [[String: Any]])?.first)
        XCTAssertEqual(day["date"] as? String, "2026-11-21")
        XCTAssertEqual((day["sunrise"] as? [String: Any])?["at"] as? String, "2026-11-21T06:38:00Z")
        XCTAssertEqual((day["maghrib"] as? [String: Any])?["local"] as? String, "2026-11-21T16:05")
        XCTAssertEqual(object["timeZone"] as? String, "Europe/Berlin")
    }

    func testTimesWithoutPrayerTimesNamesTheMissingKeys() throws {
        try dir.write("settings.json", Fixture.settings())
        let result = try dir.nudge("times", now: "2026-11-21T10:00:00Z")
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("prayerTimes.latitude and prayerTimes.longitude missing"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testTimesRefusesBadArguments() throws {
        try dir.write("settings.json", berlin)
        XCTAssertEqual(try dir.nudge("times", now: "2026-11-21T10:00:00Z", "--days", "0").status, 64)
        XCTAssertEqual(try dir.nudge("times", now: "2026-11-21T10:00:00Z", "--date", "21.11.2026").status, 64)
    }

    /// Tromsø at midsummer: no sunrise, maghrib, fajr or isha, each said why; dhuhr and asr as usual.
    func testTimesAtMidnightSunSayWhy() throws {
        try dir.write("settings.json", tromso)
        let result = try dir.nudge("times", now: "2026-11-21T10:00:00Z", "--date", "2026-06-21")
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertTrue(result.stdout.contains("Sun 2026-06-21  —     —        12:46  17:58  —        —"), result.stdout)
        XCTAssertTrue(result.stdout.contains("fajr, sunrise, maghrib, isha on 2026-06-21: the sun does not set"),
                      result.stdout)
    }

    func testRunPlansTheComputedTime() throws {
        try dir.write("settings.json", berlin)
        try dir.write("alarms.json", alarms)
        XCTAssertEqual(try dir.run(at: "2026-11-21T10:00:00Z").status, 0)
        let pending = try XCTUnwrap(try dir.json("plan.json")["pending"] as? [[String: Any]])
        let maghrib = try XCTUnwrap(pending.first { $0["id"] as? String == "alarm.prayer:maghrib:2026-11-21" })
        XCTAssertEqual(maghrib["fireAt"] as? String, "2026-11-21T15:00:00Z")
        let plan = try dir.nudge("plan", now: "2026-11-21T10:00:00Z")
        XCTAssertTrue(plan.stdout.contains("Sat 21 Nov 16:00"), plan.stdout)
    }

    /// Each bad value of a prayer setting is an error with its key path and exit 65; the prayer place keeps its last
    /// good value, and a broken alarm added next to the others takes down only itself (docs/promises.md).
    func testBadPrayerValuesAreErrorsWithKeyPathsAndTheOtherAlarmsStillRing() throws {
        try dir.write("settings.json", berlin)
        try dir.write("alarms.json", alarms)
        XCTAssertEqual(try dir.run(at: "2026-11-21T03:00:00Z").status, 0)
        let siblings = #"""
            { "id": "maghrib", "title": "Sunset Prayer", "prayer": "maghrib", "offsetMinutes": -5 },
            { "id": "fajr", "title": "Morning Prayer", "time": "05:30" }
            """#
        let cases: [(String, String, String)] = [
            ("settings.json", #"{ "prayerTimes": { "latitude": 91, "longitude": 13.4 } }"#, "prayerTimes.latitude"),
            ("settings.json", #"{ "prayerTimes": { "latitude": 52.5, "longitude": "east" } }"#, "prayerTimes.longitude"),
            ("settings.json", #"{ "prayerTimes": { "latitude": 52.5, "longitude": 13.4, "method": "MWL2" } }"#,
             "prayerTimes.method"),
            ("alarms.json", #"{ "alarms": [ { "id": "m", "title": "M", "time": "16:00", "prayer": "maghrib" }, \#(siblings) ] }"#,
             "alarms[0].prayer"),
            ("alarms.json", #"{ "alarms": [ { "id": "m", "title": "M", "prayer": "lunch" }, \#(siblings) ] }"#, "alarms[0].prayer"),
            ("alarms.json", #"{ "alarms": [ { "id": "m", "title": "M", "prayer": "isha", "offsetMinutes": 600 }, \#(siblings) ] }"#,
             "alarms[0].offsetMinutes"),
        ]
        for (file, content, path) in cases {
            let good = try dir.text(file)
            try dir.write(file, content)
            let check = try NudgeProcess.run(["check", "--data", dir.path], workingDirectory: dir.url)
            XCTAssertEqual(check.status, 65, content)
            XCTAssertTrue(check.stderr.contains("\(file): \(path):"), check.stderr)
            let run = try dir.run(at: "2026-11-21T03:01:00Z")
            XCTAssertEqual(run.status, 65, content)
            XCTAssertEqual(try dir.plannedIDs().sorted(),
                           ["alarm.prayer:fajr:2026-11-21", "alarm.prayer:maghrib:2026-11-21"], content)
            try dir.write(file, good)
        }
    }

    func testPrayerAlarmWithoutPlaceIsAnErrorOfThatAlarm() throws {
        try dir.write("settings.json", Fixture.settings(timeZone: "Europe/Berlin"))
        try dir.write("alarms.json", alarms)
        let check = try NudgeProcess.run(["check", "--data", dir.path], workingDirectory: dir.url)
        XCTAssertEqual(check.status, 65)
        XCTAssertTrue(check.stderr.contains("alarms.json: alarms[0].prayer: follows a prayer, but settings.json has no "
            + "prayerTimes.latitude and prayerTimes.longitude"), check.stderr)
        XCTAssertEqual(try dir.run(at: "2026-11-21T03:00:00Z").status, 65)
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-11-21"])
    }

    func testStatusNamesAlarmsThatCannotRingToday() throws {
        try dir.write("settings.json", tromso)
        try dir.write("alarms.json", alarms)
        XCTAssertEqual(try dir.run(at: "2026-06-21T08:00:00Z").status, 0)
        let text = try dir.nudge("status", now: "2026-06-21T08:00:00Z")
        XCTAssertTrue(text.stdout.contains("""
            Prayer alarms that cannot ring today (2026-06-21):
              Sunset Prayer (maghrib): the sun does not set that day (midnight sun)
            """), text.stdout)
        let json = try dir.nudge("status", now: "2026-06-21T08:00:00Z", "--json")
        XCTAssertTrue(json.stdout.contains("\"silentPrayerAlarms\""), json.stdout)
        XCTAssertEqual(try dir.plannedIDs(), ["alarm.prayer:fajr:2026-06-22"])
    }

    /// The issue's person in Tromsø: `nudge plan` says, after the plan, which alarms will not ring in the next
    /// 7 days and why, one line per alarm and run of days; with `polar` set they all ring.
    func testPlanListsTheAlarmsThatWillNotRingThisWeek() throws {
        try dir.write("settings.json", tromso)
        try dir.write("alarms.json", """
            { "alarms": [ { "id": "fajr", "title": "Dawn Prayer", "prayer": "fajr" },
                          { "id": "dhuhr", "title": "Noon Prayer", "prayer": "dhuhr" },
                          { "id": "maghrib", "title": "Sunset Prayer", "prayer": "maghrib" },
                          { "id": "isha", "title": "Night Prayer", "prayer": "isha", "weekdays": ["mon", "tue"] } ] }

            """)
        let plan = try dir.nudge("plan", now: "2026-06-21T08:00:00Z")
        XCTAssertEqual(plan.status, 0, plan.summary)
        XCTAssertTrue(plan.stdout.contains("""

            Will not ring in the next 7 days:
              Dawn Prayer (fajr) 2026-06-21 to 2026-06-27: the sun does not set that day (midnight sun)
              Sunset Prayer (maghrib) 2026-06-21 to 2026-06-27: the sun does not set that day (midnight sun)
              Night Prayer (isha) 2026-06-22 to 2026-06-23: the sun does not set that day (midnight sun)
            """), plan.stdout)
        // The same after a run, from plan.json.
        XCTAssertEqual(try dir.run(at: "2026-06-21T08:00:00Z").status, 0)
        let written = try dir.nudge("plan", now: "2026-06-21T08:00:00Z")
        XCTAssertTrue(written.stdout.contains("Will not ring in the next 7 days:\n  Dawn Prayer (fajr) 2026-06-21 to"),
                      written.stdout)

        try dir.write("settings.json", tromso.replacingOccurrences(of: #""method": "MWL""#,
                                                                   with: #""method": "MWL", "polar": "nearestLatitude""#))
        let resolved = try dir.nudge("plan", now: "2026-06-21T08:00:00Z")
        XCTAssertFalse(resolved.stdout.contains("Will not ring"), resolved.stdout)
        XCTAssertTrue(resolved.stdout.contains("Sunset Prayer"), resolved.stdout)
    }

    /// `nudge check` says when the place has days without a prayer's time in the coming year and names the
    /// options; `nudge times` marks the resolved times and says where they come from.
    func testCheckNamesThePolarDaysAndTimesMarksResolvedTimes() throws {
        try dir.write("settings.json", tromso)
        try dir.write("alarms.json", alarms)
        let check = try dir.nudge("check", now: "2026-11-27T10:00:00Z")
        XCTAssertEqual(check.status, 0, check.summary)
        XCTAssertTrue(check.stderr.contains("the sun leaves some prayers without a time at this place in the coming "
            + "year, and the alarms that follow them will not ring then: maghrib on "), check.stderr)
        XCTAssertTrue(check.stderr.contains(#"prayerTimes.polar to "nearestLatitude", "nearestDay" or a reference latitude"#),
                      check.stderr)

        for polar in [#""nearestLatitude""#, #""nearestDay""#, "48.5"] {
            try dir.write("settings.json", tromso.replacingOccurrences(of: #""method": "MWL""#,
                                                                       with: #""method": "MWL", "polar": \#(polar)"#))
            let quiet = try dir.nudge("check", now: "2026-11-27T10:00:00Z")
            XCTAssertEqual(quiet.status, 0, quiet.summary)
            XCTAssertFalse(quiet.stderr.contains("the sun leaves"), "\(polar): \(quiet.stderr)")
            let times = try dir.nudge("times", now: "2026-11-21T10:00:00Z", "--date", "2026-01-01", "--days", "365")
            XCTAssertEqual(times.status, 0, times.summary)
            let rows = times.stdoutLines.filter { $0.range(of: #"^\w{3} \d{4}-"#, options: .regularExpression) != nil }
            XCTAssertEqual(rows.count, 365)
            XCTAssertFalse(rows.contains { $0.contains("—") }, "\(polar): a time is missing")
            XCTAssertTrue(times.stdout.contains("* fajr, sunrise, maghrib, isha on "), times.stdout)
        }
    }
}
