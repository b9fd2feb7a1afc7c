import XCTest
@testable import NudgeCore

final class SpellingTests: XCTestCase {
    func testClosestCandidateWithinTheEditLimit() {
        XCTAssertEqual(Spelling.closest(to: "comand", among: ["desktop", "command"]), "command")
        XCTAssertEqual(Spelling.closest(to: "--lnger", among: ["--linger", "--now"]), "--linger")
        XCTAssertNil(Spelling.closest(to: "colour", among: ["timeZone", "deliver"]))
        XCTAssertNil(Spelling.closest(to: "at", among: ["id"], maximumEdits: 1))
    }

    func testDistanceCountsInsertionsDeletionsAndSubstitutions() {
        XCTAssertEqual(Spelling.distance("", "abc"), 3)
        XCTAssertEqual(Spelling.distance("abc", ""), 3)
        XCTAssertEqual(Spelling.distance("kitten", "sitting"), 3)
        XCTAssertEqual(Spelling.distance("same", "same"), 0)
    }

    func testAKnownKeyThatBeginsOrEndsWithTheWordIsTheSuggestionWhenNoneIsWithinTheEditLimit() {
        XCTAssertEqual(Spelling.closest(to: "offset", among: ["id", "time", "offsetMinutes"]), "offsetMinutes")
        XCTAssertEqual(Spelling.closest(to: "minutes", among: ["id", "durationMinutes"]), "durationMinutes")
        XCTAssertNil(Spelling.closest(to: "of", among: ["offsetMinutes"]))
        XCTAssertNil(Spelling.closest(to: "notes", among: ["id", "title", "time"]))
    }

    // docs/promises.md, "A typo is a mistake, not a note": a near miss of a known key that is absent is an error of the setting it is in,
    // no longer an ignored key. Before, `"comand"` was a warning and the command channel silently off.
    func testAMisspeltSettingsKeyWhoseKeyIsAbsentIsAnErrorOfItsSettingNotAWarning() {
        let (settings, report) = UserFileDecoder.settings(Array(#"{"deliver": {"comand": ["notify-send"]}}"#.utf8),
                                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(settings?.deliverCommand, nil)
        XCTAssertEqual(report.warnings, [])
        XCTAssertEqual(report.problems.map(\.description),
                       ["settings.json: deliver.comand: unknown key where \"command\" belongs (did you mean command?); "
                        + "a key this close to a known one is read as a mistake, not as a note of yours"])
        XCTAssertEqual(report.brokenSettings, [.deliver])
    }

    func testADesktopTypoTakesDownTheDeliverSettingOnlyAndTheRestApplies() {
        let text = #"{"maxPending": 12, "deliver": {"dekstop": true, "command": ["true"]}}"#
        let (settings, report) = UserFileDecoder.settings(Array(text.utf8), zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(settings?.maxPending, 12)
        XCTAssertEqual(report.brokenSettings, [.deliver])
        XCTAssertEqual(report.problems.count, 1)
        XCTAssertTrue(report.problems[0].description.hasPrefix("settings.json: deliver.dekstop: unknown key where "
                                                              + "\"desktop\" belongs"), report.problems[0].description)
    }

    func testANearMissOfATopLevelSettingIsAnErrorOfThatSetting() {
        let text = #"{"maxPending": 12, "notifcations": {"enabled": false}}"#
        let (settings, report) = UserFileDecoder.settings(Array(text.utf8), zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(settings?.maxPending, 12)
        XCTAssertEqual(report.brokenSettings, [.notifications])
        XCTAssertEqual(report.warnings, [])
    }

    func testAnUnknownKeyBesideTheKnownOneItResemblesStaysAWarning() {
        let text = #"{"deliver": {"desktop": true, "dekstop": false}}"#
        let (settings, report) = UserFileDecoder.settings(Array(text.utf8), zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(settings?.deliverDesktop, true)
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(report.warnings, ["settings.json: deliver.dekstop: unknown key (ignored; did you mean desktop?)"])
    }

    func testAnAlarmsOffsetWrittenWithoutMinutesTakesDownThatAlarmOnly() {
        let text = """
            {"alarms": [{"id": "fajr", "title": "Fajr", "time": "05:30", "offset": 10},
                        {"id": "isha", "title": "Isha", "time": "19:30"}]}
            """
        let (alarms, report) = UserFileDecoder.alarms(Array(text.utf8))
        XCTAssertEqual(alarms?.map(\.id), ["isha"])
        XCTAssertEqual(report.brokenEntries.count, 1)
        XCTAssertTrue(report.problems.first?.description.hasPrefix("alarms.json: alarms[0].offset: unknown key where "
                                                                   + "\"offsetMinutes\" belongs") ?? false,
                      "\(report.problems)")
    }
}
