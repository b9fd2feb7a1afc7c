import XCTest
@testable import NudgeCore

final class HouseholdLoaderTests: XCTestCase {
    private let goodAlarms = Array(#"{"alarms":[{"id":"fajr","title":"Morning Prayer","time":"05:30"}]}"#.utf8)
    private let goodPets = Array(#"{"pets":[{"id":"snowy"}]}"#.utf8)
    private let broken = Array(#"{"alarms": [ "#.utf8)

    func testMissingFilesMeanNothingOfThatKind() {
        let loaded = HouseholdLoader.load(current: [:], zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.household, Household())
        XCTAssertEqual(loaded.reports, [])
    }

    func testBrokenFileNeverSilencesTheOthers() {
        let loaded = HouseholdLoader.load(current: [.alarms: broken, .laundry: goodPets], zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.household.pets.map(\.id), ["snowy"])
        XCTAssertEqual(loaded.household.alarms, [])
        XCTAssertEqual(loaded.valid, [.laundry])
        XCTAssertEqual(loaded.fallbacks, [])
        XCTAssertEqual(loaded.problems.count, 1)
    }

    func testBrokenFileFallsBackToItsLastGoodVersion() {
        let loaded = HouseholdLoader.load(current: [.alarms: broken], lastGood: [.alarms: goodAlarms],
                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.household.alarms.map(\.id), ["fajr"])
        XCTAssertEqual(loaded.fallbacks, [.alarms])
        XCTAssertEqual(loaded.valid, [])
        XCTAssertFalse(loaded.problems.isEmpty)
    }

    func testValidFileIgnoresItsLastGoodVersion() {
        let loaded = HouseholdLoader.load(current: [.alarms: Array(#"{"alarms":[]}"#.utf8)],
                                          lastGood: [.alarms: goodAlarms], zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.household.alarms, [])
        XCTAssertEqual(loaded.valid, [.alarms])
    }

    func testUnreadableFileIsReportedAndFallsBackLikeABrokenOne() {
        let loaded = HouseholdLoader.load(current: [.laundry: goodPets], lastGood: [.alarms: goodAlarms],
                                          unreadable: [.alarms: .unreadable(reason: "it is a directory")],
                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.problems.map(\.description), ["alarms.json: cannot be read: it is a directory"])
        XCTAssertEqual(loaded.fallbacks, [.alarms])
        XCTAssertEqual(loaded.household.alarms.map(\.id), ["fajr"])
        XCTAssertEqual(loaded.household.pets.map(\.id), ["snowy"])
    }

    func testDanglingLinkIsAProblemOfItsFileNotAMissingFile() {
        let loaded = HouseholdLoader.load(current: [:], lastGood: [.alarms: goodAlarms],
                                          unreadable: [.alarms: .danglingLink(target: "/mnt/dotfiles/alarms.json")],
                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.problems.map(\.description),
                       ["alarms.json: a symbolic link to /mnt/dotfiles/alarms.json, which does not exist"])
        XCTAssertEqual(loaded.fallbacks, [.alarms])
        XCTAssertEqual(loaded.household.alarms.map(\.id), ["fajr"])
    }
}
