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

    func testMisspeltSettingsKeyIsAWarningWithASuggestionAndDeliveryStaysOff() {
        let (settings, report) = UserFileDecoder.settings(Array(#"{"deliver": {"comand": ["notify-send"]}}"#.utf8),
                                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(settings?.deliverCommand, nil)
        XCTAssertEqual(report.warnings,
                       ["settings.json: deliver.comand: unknown key (ignored; did you mean command?)"])
    }
}
