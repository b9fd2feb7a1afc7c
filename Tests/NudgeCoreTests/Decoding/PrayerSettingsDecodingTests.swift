import XCTest
@testable import NudgeCore

/// `settings.prayerTimes` and alarms with `prayer` against literal JSON: values, bounds and key paths
/// (docs/files.md, "Prayer times").
final class PrayerSettingsDecodingTests: XCTestCase {
    private func settings(_ text: String) -> (Settings?, [String]) {
        let (settings, report) = UserFileDecoder.settings(Array(text.utf8), zoneNamed: Fixtures.zoneNamed)
        return (settings, report.problems.map(\.description))
    }

    private func alarms(_ text: String) -> ([Alarm]?, [String]) {
        let (alarms, report) = UserFileDecoder.alarms(Array(text.utf8))
        return (alarms, report.problems.map(\.description))
    }

    func testFullPrayerTimesDecode() {
        let (decoded, problems) = settings("""
        { "prayerTimes": { "latitude": 52.52, "longitude": 13.405, "method": "Egypt", "asr": "hanafi",
                           "highLatitude": "seventhOfNight", "adjustMinutes": { "isha": 2, "fajr": -3 } } }
        """)
        XCTAssertEqual(problems, [])
        let prayer = decoded?.prayerTimes
        XCTAssertEqual(prayer?.latitude, 52.52)
        XCTAssertEqual(prayer?.longitude, 13.405)
        XCTAssertEqual(prayer?.method.name, "Egypt")
        XCTAssertEqual(prayer?.asr, .hanafi)
        XCTAssertEqual(prayer?.highLatitude, .seventhOfNight)
        XCTAssertEqual(prayer?.adjustMinutes, [-3, 0, 0, 0, 0, 2])
    }

    func testDefaultsAreMWLStandardAngleBased() {
        let (decoded, problems) = settings(#"{ "prayerTimes": { "latitude": -33.9, "longitude": 18.4 } }"#)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(decoded?.prayerTimes?.method, PrayerMethod.named("MWL"))
        XCTAssertEqual(decoded?.prayerTimes?.asr, .standard)
        XCTAssertEqual(decoded?.prayerTimes?.highLatitude, .angleBased)
        XCTAssertNil(Settings().prayerTimes)
    }

    func testCustomMethodsTakeAnglesOrMinutes() {
        let (angles, _) = settings(#"{ "prayerTimes": { "method": { "fajrAngle": 12, "ishaAngle": 12.5 } } }"#)
        XCTAssertEqual(angles?.prayerTimes?.method, PrayerMethod(fajrAngle: 12, isha: .angle(12.5)))
        let (minutes, _) = settings(#"{ "prayerTimes": { "method": { "fajrAngle": 18, "ishaMinutes": 75 } } }"#)
        XCTAssertEqual(minutes?.prayerTimes?.method, PrayerMethod(fajrAngle: 18, isha: .minutes(75)))
    }

    func testBadPrayerTimesNameTheirKeyPaths() {
        let (decoded, problems) = settings("""
        { "prayerTimes": { "latitude": 91, "longitude": "east", "method": "MWL2", "asr": "maliki",
                           "highLatitude": "angle", "adjustMinutes": { "isha": 61 } } }
        """)
        XCTAssertNil(decoded?.prayerTimes, "the invalid setting stands alone, at its default")
        XCTAssertEqual(problems, [
            "settings.json: prayerTimes.latitude: 91 is out of range (expected a number of degrees from -90 to 90)",
            "settings.json: prayerTimes.longitude: expected a number of degrees from -180 to 180, found a string",
            "settings.json: prayerTimes.method: \"MWL2\" is not a method (expected one of MWL, ISNA, Egypt, Makkah, Karachi, Tehran, Jafari, or an object with fajrAngle and ishaAngle or ishaMinutes)",
            "settings.json: prayerTimes.asr: \"maliki\" is not a known value (expected one of standard, hanafi)",
            "settings.json: prayerTimes.highLatitude: \"angle\" is not a known value (expected one of angleBased, middleOfNight, seventhOfNight, none)",
            "settings.json: prayerTimes.adjustMinutes.isha: 61 is out of range (expected a whole number from -60 to 60)",
        ])
    }

    func testPolarTakesANameOrAReferenceLatitude() {
        XCTAssertEqual(Settings().prayerTimes?.polar ?? .none, PolarResolution.none)
        let cases: [(String, PolarResolution)] = [
            (#""none""#, .none), (#""nearestLatitude""#, .nearestLatitude), (#""nearestDay""#, .nearestDay),
            ("48.5", .referenceLatitude(48.5)), ("0", .referenceLatitude(0)), ("65", .referenceLatitude(65)),
        ]
        for (value, polar) in cases {
            let (decoded, problems) = settings(#"{ "prayerTimes": { "latitude": 69.65, "longitude": 18.96, "polar": \#(value) } }"#)
            XCTAssertEqual(problems, [], value)
            XCTAssertEqual(decoded?.prayerTimes?.polar, polar, value)
        }
    }

    func testBadPolarValuesNameTheirKeyPath() {
        let expected = "expected one of none, nearestLatitude, nearestDay, or a reference latitude from 0 to 65 degrees"
        let cases: [(String, String)] = [
            (#""nearest""#, "settings.json: prayerTimes.polar: \"nearest\" is not a known value (\(expected))"),
            ("65.5", "settings.json: prayerTimes.polar: 65.5 is out of range (expected a number of degrees from 0 to 65)"),
            ("-48.5", "settings.json: prayerTimes.polar: -48.5 is out of range (expected a number of degrees from 0 to 65)"),
            ("true", "settings.json: prayerTimes.polar: \(expected), found a boolean"),
        ]
        for (value, problem) in cases {
            let (decoded, problems) = settings(#"{ "prayerTimes": { "latitude": 69.65, "longitude": 18.96, "polar": \#(value) } }"#)
            XCTAssertEqual(problems, [problem], value)
            XCTAssertNil(decoded?.prayerTimes, "the invalid setting stands alone, at its default: \(value)")
        }
    }

    func testBadCustomMethodsNameTheirKeyPaths() {
        XCTAssertEqual(settings(#"{ "prayerTimes": { "method": { "fajrAngle": 31, "ishaMinutes": 241 } } }"#).1, [
            "settings.json: prayerTimes.method.fajrAngle: 31 is out of range (expected a number of degrees from 0 to 30)",
            "settings.json: prayerTimes.method.ishaMinutes: 241 is out of range (expected a whole number from 0 to 240)",
        ])
        XCTAssertEqual(settings(#"{ "prayerTimes": { "method": { "fajrAngle": 18 } } }"#).1, [
            "settings.json: prayerTimes.method: missing required key \"ishaAngle\" (degrees) or \"ishaMinutes\"",
        ])
        XCTAssertEqual(settings(#"{ "prayerTimes": { "method": { "fajrAngle": 18, "ishaAngle": 17, "ishaMinutes": 90 } } }"#).1, [
            "settings.json: prayerTimes.method.ishaMinutes: a method has either ishaAngle or ishaMinutes, not both",
        ])
    }

    func testPrayerAlarmDecodes() {
        let (decoded, problems) = alarms("""
        { "alarms": [ { "id": "maghrib", "title": "Sunset Prayer", "prayer": "maghrib", "offsetMinutes": -5 },
                      { "id": "fajr", "title": "Morning Prayer", "time": "05:30" } ] }
        """)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(decoded?.first?.schedule, .prayer(.maghrib, offsetMinutes: -5))
        XCTAssertEqual(decoded?.last?.schedule, .time(Fixtures.time("05:30")))
    }

    func testBadPrayerAlarmsNameTheirKeyPaths() {
        let (decoded, problems) = alarms("""
        { "alarms": [ { "id": "a", "title": "A", "time": "05:30", "prayer": "fajr" },
                      { "id": "b", "title": "B", "prayer": "lunch" },
                      { "id": "c", "title": "C", "prayer": "isha", "offsetMinutes": 600 },
                      { "id": "d", "title": "D" },
                      { "id": "e", "title": "E", "time": "05:30", "offsetMinutes": 5 } ] }
        """)
        XCTAssertEqual(decoded, [], "each alarm is broken, and each takes down only itself")
        XCTAssertEqual(problems, [
            "alarms.json: alarms[0].prayer: an alarm has either \"time\" or \"prayer\", not both (remove one)",
            "alarms.json: alarms[1].prayer: \"lunch\" is not a prayer (expected one of fajr, sunrise, dhuhr, asr, maghrib, isha)",
            "alarms.json: alarms[2].offsetMinutes: 600 is out of range (expected a whole number from -120 to 120)",
            "alarms.json: alarms[3]: missing required key \"time\" (\"HH:MM\") or \"prayer\" (fajr, sunrise, dhuhr, asr, maghrib, isha)",
            "alarms.json: alarms[4].offsetMinutes: moves only an alarm that follows a prayer (one with \"prayer\", not \"time\")",
        ])
    }

    /// A prayer alarm without a place is a problem of that alarm; the fixed alarms beside it still ring.
    func testPrayerAlarmWithoutLocationIsAnErrorOfTheAlarm() {
        let alarms = #"{ "alarms": [ { "id": "f", "title": "F", "time": "05:30" }, { "id": "m", "title": "M", "prayer": "maghrib" } ] }"#
        let loaded = HouseholdLoader.load(current: UserFileMap([.alarms: Array(alarms.utf8)]),
                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.problems.map(\.description), [
            "alarms.json: alarms[1].prayer: follows a prayer, but settings.json has no prayerTimes.latitude and prayerTimes.longitude (the place whose prayer times it follows)",
        ])
        XCTAssertFalse(loaded.valid.contains(.alarms))
        let result = Planner.plan(loaded.household, previous: nil, now: Fixtures.instant("2026-11-21T03:00:00Z"),
                                  zone: Fixtures.berlin)
        XCTAssertEqual(result.plan.pending.map(\.id), ["alarm.prayer:f:2026-11-21"])

        let settings = #"{ "prayerTimes": { "latitude": 52.52, "longitude": 13.405 } }"#
        let located = HouseholdLoader.load(current: UserFileMap([.alarms: Array(alarms.utf8),
                                                                 .settings: Array(settings.utf8)]),
                                           zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(located.problems, [])
    }
}
