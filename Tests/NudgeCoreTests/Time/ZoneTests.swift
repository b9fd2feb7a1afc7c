import XCTest
@testable import NudgeCore

/// nudge's own reading of TZif files (`Zone`), against the test-only `TZifFile` reader (itself checked against
/// zdump in AllZonesWallClockTests), both given the system's tz database files: offsets and transitions, also
/// past the last transition a file lists, where only its footer rule speaks.
final class ZoneTests: XCTestCase {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago",
                        "Pacific/Chatham", "Africa/Casablanca", "Asia/Tokyo", "Europe/Dublin", "America/Nuuk"]

    func testOffsetsAgreeWithTheTestReaderEverySixHoursFrom2030To2045() throws {
        let start = TZifCivil.daysFromCivil(year: 2030, month: 1, day: 1) * 86_400
        let end = TZifCivil.daysFromCivil(year: 2045, month: 1, day: 1) * 86_400
        for name in Self.zones {
            let zone = try XCTUnwrap(Fixtures.zoneNamed(name), name)
            let file = try TZifFile(path: Fixtures.zoneinfo + "/" + name)
            var mismatches: [String] = []
            for utc in stride(from: start, to: end, by: 6 * 3_600) where zone.secondsFromGMT(atUTC: utc) != file.utOffset(atUTC: utc) {
                mismatches.append(TZifCivil.utcText(utc))
            }
            XCTAssertEqual(mismatches.prefix(3), [], "\(name): \(mismatches.count) instants differ")
        }
    }

    func testTransitionsPastTheFilesLastListedOneComeFromItsFooter() throws {
        let start = TZifCivil.daysFromCivil(year: 2035, month: 1, day: 1) * 86_400
        let end = TZifCivil.daysFromCivil(year: 2042, month: 1, day: 1) * 86_400
        for name in Self.zones {
            let zone = try XCTUnwrap(Fixtures.zoneNamed(name), name)
            let expected = try TZifFile(path: Fixtures.zoneinfo + "/" + name).transitions(from: start, to: end)
                .filter { $0.before.utOffset != $0.after.utOffset }.map(\.at)
            var found: [Int] = []
            var cursor = start - 1
            while let next = zone.nextTransition(afterUTC: cursor), next < end {
                found.append(next)
                cursor = next
            }
            XCTAssertEqual(found, expected, name)
        }
        XCTAssertEqual(Fixtures.berlin.nextTransition(afterUTC: TZifCivil.daysFromCivil(year: 2040, month: 1, day: 1) * 86_400),
                       TZifCivil.daysFromCivil(year: 2040, month: 3, day: 25) * 86_400 + 3_600,
                       "Berlin springs forward at 01:00 UTC on the last Sunday of March 2040")
    }

    func testAZoneWithoutDaylightTimeNeverChanges() throws {
        let tokyo = Fixtures.tokyo
        XCTAssertEqual(tokyo.secondsFromGMT(atUTC: 1_800_000_000), 32_400)
        XCTAssertNil(tokyo.nextTransition(afterUTC: 1_800_000_000))
        XCTAssertFalse(tokyo.isFixed, "Tokyo had daylight time until 1951")
        XCTAssertEqual(Zone(secondsFromGMT: 32_400)?.isFixed, true)
        XCTAssertFalse(Fixtures.berlin.isFixed)
    }

    func testFixedOffsetNamesReadBack() throws {
        for (seconds, name) in [(0, "GMT"), (3_600, "GMT+0100"), (19_800, "GMT+0530"), (-12_600, "GMT-0330"),
                                (20_715, "GMT+054515")] {
            let zone = try XCTUnwrap(Zone(secondsFromGMT: seconds))
            XCTAssertEqual(zone.identifier, name)
            XCTAssertEqual(Zone(offsetName: name)?.secondsFromGMT(atUTC: 0), seconds, name)
            XCTAssertEqual(Zone(offsetName: name), zone, name)
        }
        XCTAssertNil(Zone(secondsFromGMT: 19 * 3_600))
        XCTAssertNil(Zone(offsetName: "GMT+01"))
        XCTAssertNil(Zone(offsetName: "GMT+0160"))
        XCTAssertNil(Zone(offsetName: "Europe/Berlin"))
    }

    func testBytesThatAreNoTZifFileAreNoZone() throws {
        XCTAssertNil(Zone(identifier: "x", tzif: Array("not a zone file at all, just some text".utf8)))
        var berlin = try XCTUnwrap(Fixtures.tzif("Europe/Berlin"))
        XCTAssertNotNil(Zone(identifier: "Europe/Berlin", tzif: berlin))
        berlin.removeLast(berlin.count / 2)
        XCTAssertNil(Zone(identifier: "Europe/Berlin", tzif: berlin), "a truncated file")
    }

    func testAVersionOneFileIsReadFromItsThirtyTwoBitBlock() throws {
        // Version 1: the header, 2 transitions (2026-03-29T01:00Z → +2 h, 2026-10-25T01:00Z → +1 h), 2 types.
        var bytes = Array("TZif".utf8) + [0] + Array(repeating: 0, count: 15)
        for count in [0, 0, 0, 2, 2, 8] { bytes += [0, 0, 0, UInt8(count)] }
        for time in [1_774_746_000, 1_792_890_000] { bytes += withUnsafeBytes(of: Int32(time).bigEndian, Array.init) }
        bytes += [1, 0]
        bytes += withUnsafeBytes(of: Int32(3_600).bigEndian, Array.init) + [0, 0]
        bytes += withUnsafeBytes(of: Int32(7_200).bigEndian, Array.init) + [1, 4]
        bytes += Array("CET\0CEST".utf8)
        let zone = try XCTUnwrap(Zone(identifier: "Test/V1", tzif: bytes))
        XCTAssertEqual(zone.secondsFromGMT(atUTC: 1_774_745_999), 3_600)
        XCTAssertEqual(zone.secondsFromGMT(atUTC: 1_774_746_000), 7_200)
        XCTAssertEqual(zone.secondsFromGMT(atUTC: 1_792_890_000), 3_600)
        XCTAssertEqual(zone.nextTransition(afterUTC: 0), 1_774_746_000)
    }
}
