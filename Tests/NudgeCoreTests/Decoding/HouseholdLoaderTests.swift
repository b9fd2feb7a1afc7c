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

    private let twoAlarms = Array(#"""
        {"alarms":[{"id":"fajr","title":"Morning Prayer","time":"05:30"},{"id":"isha","title":"Night","time":"20:00"}]}
        """#.utf8)

    func testABrokenEntryPlansFromItsLastGoodVersionAndItsSiblingAsWritten() {
        let edited = Array(#"""
            {"alarms":[{"id":"fajr","title":"Morning Prayer","time":"5:30"},{"id":"isha","title":"Night","time":"21:00"}]}
            """#.utf8)
        let loaded = HouseholdLoader.load(current: [.alarms: edited], lastGood: [.alarms: twoAlarms],
                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.household.alarms.map(\.id), ["isha", "fajr"])
        XCTAssertEqual(loaded.household.alarms.first { $0.id == "isha" }?.schedule, .time(Fixtures.time("21:00")))
        XCTAssertEqual(loaded.household.alarms.first { $0.id == "fajr" }?.schedule, .time(Fixtures.time("05:30")))
        XCTAssertEqual(loaded.restored[.alarms]?.map(\.id), ["fajr"])
        XCTAssertEqual(loaded.valid, [])
        XCTAssertEqual(loaded.fallbacks, [])
        XCTAssertEqual(loaded.problems.map(\.description), ["alarms.json: alarms[0].time: \"5:30\" is not a time (HH:MM)"])
    }

    func testABrokenEntryWithoutALastGoodVersionIsLeftOutAndTheOthersPlan() {
        let edited = Array(#"{"alarms":[{"id":"new","title":"New","time":"5:30"},{"id":"isha","title":"N","time":"20:00"}]}"#.utf8)
        let loaded = HouseholdLoader.load(current: [.alarms: edited], lastGood: [.alarms: twoAlarms],
                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.household.alarms.map(\.id), ["isha"])
        XCTAssertEqual(loaded.restored, [:])
        XCTAssertEqual(loaded.reports.first?.brokenEntries, [BrokenEntry(list: KeyPath.root.appending("alarms"), index: 0, id: "new")])
    }

    func testEntriesSharingAnIdAreAllSetAsideAndTheIdPlansFromItsLastGoodVersion() {
        let edited = Array(#"""
            {"alarms":[{"id":"fajr","title":"Copy","time":"06:00"},{"id":"fajr","title":"Morning Prayer","time":"05:30"},
                       {"id":"isha","title":"Night","time":"20:00"}]}
            """#.utf8)
        let loaded = HouseholdLoader.load(current: [.alarms: edited], lastGood: [.alarms: twoAlarms],
                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.household.alarms.map(\.title), ["Night", "Morning Prayer"])
        XCTAssertEqual(loaded.problems.count, 2)
    }

    func testANearMissOfTheListBreaksTheFileWhole() {
        let typo = Array(#"{"alarm":[{"id":"fajr","title":"Morning Prayer","time":"05:30"}]}"#.utf8)
        let loaded = HouseholdLoader.load(current: [.alarms: typo], lastGood: [.alarms: twoAlarms],
                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.household.alarms.map(\.id), ["fajr", "isha"])
        XCTAssertEqual(loaded.fallbacks, [.alarms])
        XCTAssertEqual(loaded.reports.first?.isUsable, false)
        XCTAssertEqual(loaded.reports.first?.warnings, [], "the near miss is an error, not also an ignored key")
        // A key that is no near miss of an absent list stays a warning.
        let note = Array(#"{"alarms":[],"alarmz":1,"notes":"mine"}"#.utf8)
        XCTAssertEqual(HouseholdLoader.load(current: [.alarms: note], zoneNamed: Fixtures.zoneNamed).valid, [.alarms])
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

final class SettingsStandAloneTests: XCTestCase {
    private let good = Array(#"""
        { "timeZone": "Europe/Istanbul", "quietHours": { "start": "22:00", "end": "07:00" },
          "deliver": { "desktop": true }, "prayerTimes": { "latitude": 41.0, "longitude": 29.0 } }
        """#.utf8)
    private let mistyped = Array(#"""
        { "timeZone": "Europe/Istambul", "quietHours": { "start": "22:00", "end": "07:00" },
          "deliver": { "desktop": true }, "prayerTimes": { "latitude": 41.0, "longitude": 29.0 } }
        """#.utf8)

    func testAnUnknownZoneFallsBackAloneToItsLastGoodValueWithTheClosestNames() {
        let loaded = HouseholdLoader.load(current: [.settings: mistyped], lastGood: [.settings: good],
                                          zoneNamed: Fixtures.zoneNamed,
                                          zoneNames: { ["Europe/Istanbul", "Europe/Berlin", "Asia/Istanbul"] })
        let settings = loaded.household.settings
        XCTAssertEqual(settings.timeZone, "Europe/Istanbul")
        XCTAssertTrue(settings.deliverDesktop)
        XCTAssertEqual(settings.prayerTimes?.latitude, 41.0)
        XCTAssertNotNil(settings.quietHours)
        XCTAssertEqual(loaded.restoredSettings, [.timeZone])
        XCTAssertEqual(loaded.problems.map(\.description), [
            "settings.json: timeZone: \"Europe/Istambul\" is not a known time zone (expected an IANA name such as "
                + "\"Europe/Berlin\"; did you mean Europe/Istanbul?)",
        ])
    }

    func testAnInvalidSettingWithoutALastGoodValueTakesItsDefaultAndTheOthersApply() {
        let bad = Array(#"{ "timeZone": "Mars/Base", "quietHours": { "start": "22:00", "end": "7" }, "maxPending": 10 }"#.utf8)
        let loaded = HouseholdLoader.load(current: [.settings: bad], zoneNamed: Fixtures.zoneNamed,
                                          zoneNames: { ["Europe/Berlin"] })
        XCTAssertNil(loaded.household.settings.timeZone)
        XCTAssertNil(loaded.household.settings.quietHours)
        XCTAssertEqual(loaded.household.settings.maxPending, 10)
        XCTAssertEqual(loaded.reports.first?.brokenSettings, [.timeZone, .quietHours])
        XCTAssertEqual(loaded.problems.first?.description,
                       "settings.json: timeZone: \"Mars/Base\" is not a known time zone (expected an IANA name such as \"Europe/Berlin\")")
    }

    func testASyntaxErrorStillFallsBackWhole() {
        let loaded = HouseholdLoader.load(current: [.settings: Array(#"{ "maxPending": 10, }"#.utf8)],
                                          lastGood: [.settings: good], zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(loaded.fallbacks, [.settings])
        XCTAssertEqual(loaded.household.settings.timeZone, "Europe/Istanbul")
    }
}
