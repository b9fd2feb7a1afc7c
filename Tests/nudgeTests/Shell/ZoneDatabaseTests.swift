import XCTest
import Foundation
import NudgeCore
@testable import nudge

/// The shell's reading of the system's tz database (`ZoneDatabase`), which hands the core its zones by name.
final class ZoneDatabaseTests: XCTestCase {
    func testANameIsTheZoneOfItsFileInTheDatabase() throws {
        for name in ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "US/Eastern", "Etc/GMT+5", "UTC"] {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: ZoneDatabase.path + "/" + name), name)
            let zone = try XCTUnwrap(ZoneDatabase.zone(named: name), name)
            XCTAssertEqual(zone, Zone(identifier: name, tzif: [UInt8](bytes)), name)
            XCTAssertEqual(zone.identifier, name)
        }
    }

    func testFixedOffsetNamesNeedNoFile() {
        XCTAssertEqual(ZoneDatabase.zone(named: "GMT+0530"), Zone(secondsFromGMT: 19_800))
        XCTAssertEqual(ZoneDatabase.zone(named: "GMT-0330")?.secondsFromGMT(atUTC: 0), -12_600)
    }

    func testOnlyNamesInsideTheDatabaseAreRead() {
        for name in ["", "/etc/passwd", "../../etc/passwd", "Europe/../../etc/passwd", "Europe//Berlin", "./UTC",
                     "Europe/Berlin/", "-rf", "Europe/Ber lin", "."] {
            XCTAssertFalse(ZoneDatabase.isDatabaseName(name), name)
            XCTAssertNil(ZoneDatabase.zone(named: name), name)
        }
        for name in ["Nowhere/Atlantis", "Europe"] {
            XCTAssertTrue(ZoneDatabase.isDatabaseName(name), name)
            XCTAssertNil(ZoneDatabase.zone(named: name), "\(name): no zone file")
        }
        XCTAssertTrue(ZoneDatabase.isDatabaseName("America/Argentina/Buenos_Aires"))
        XCTAssertTrue(ZoneDatabase.isDatabaseName("Etc/GMT-14"))
    }
}
