import XCTest
@testable import NudgeCore

/// Each top-level setting stands alone (docs/promises.md, "A mistake takes down only what it touches"): an invalid
/// one comes back whole from the last good settings.json, else at its default, and the rest of the file applies.
final class SettingsSectionsTests: XCTestCase {
    private let lastGood = Array(#"""
        { "deliver": { "desktop": true, "command": ["notify-send", "--app-name=nudge", "{title}", "{body}"] },
          "maxPending": 20 }
        """#.utf8)

    private func load(_ current: String, lastGood: [UInt8]?) -> HouseholdLoader.Loaded {
        HouseholdLoader.load(current: [.settings: Array(current.utf8)],
                             lastGood: lastGood.map { [.settings: $0] } ?? [:], zoneNamed: Fixtures.zoneNamed)
    }

    /// An empty program name typed into `deliver.command` breaks `deliver`: the command that worked before still
    /// runs for each delivery, with the desktop switch it came with, and the new `maxPending` applies.
    func testATypoInDeliverCommandKeepsTheLastGoodCommand() {
        let loaded = load(#"{ "deliver": { "desktop": false, "command": ["", "{title}"] }, "maxPending": 30 }"#,
                          lastGood: lastGood)
        XCTAssertEqual(loaded.restoredSettings, [.deliver])
        let settings = loaded.household.settings
        XCTAssertEqual(settings.deliverCommand, ["notify-send", "--app-name=nudge", "{title}", "{body}"],
                       "the last good command, not none")
        XCTAssertEqual(settings.deliveryChannels, [.desktop, .command])
        XCTAssertEqual(settings.maxPending, 30)
    }

    /// Without a last good version, a `deliver` whose desktop switch is mistyped is off as a whole: its new command
    /// does not run half of a setting the person has not finished.
    func testABrokenDeliverWithoutALastGoodVersionRunsNoCommand() {
        let loaded = load(#"{ "deliver": { "desktop": "yes", "command": ["notify-send", "{title}"] } }"#,
                          lastGood: nil)
        XCTAssertEqual(loaded.reports.first?.brokenSettings, [.deliver])
        XCTAssertNil(loaded.household.settings.deliverCommand)
        XCTAssertEqual(loaded.household.settings.deliveryChannels, [])
    }
}
