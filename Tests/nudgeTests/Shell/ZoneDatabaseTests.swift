import XCTest
import Foundation
@testable import NudgeCore
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

    /// `$TZDIR` names the zone files' directory (glibc's convention): a zone only that directory holds plans.
    func testTZDIRNamesTheDatabase() throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-tzdir-\(UUID())")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-tzdir-data-\(UUID())")
        defer {
            try? FileManager.default.removeItem(at: database)
            try? FileManager.default.removeItem(at: data)
        }
        try FileManager.default.createDirectory(at: database.appendingPathComponent("Nudge"),
                                                withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Tokyo",
                                         toPath: database.appendingPathComponent("Nudge/Test").path)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try #"{ "timeZone": "Nudge/Test" }"#.write(to: data.appendingPathComponent("settings.json"), atomically: true,
                                                    encoding: .utf8)
        try #"{ "alarms": [ { "id": "fajr", "title": "Fajr", "time": "05:30" } ] }"#
            .write(to: data.appendingPathComponent("alarms.json"), atomically: true, encoding: .utf8)
        let arguments = ["run", "--data", data.path, "--now", "2026-11-21T10:00:00Z"]
        let base = ["PATH": "/usr/bin:/bin", "HOME": data.path]
        let elsewhere = try NudgeProcess.run(arguments, exactEnvironment: base)
        XCTAssertEqual(elsewhere.status, 65, "Nudge/Test is in no other database: \(elsewhere.summary)")
        let run = try NudgeProcess.run(arguments, exactEnvironment: base.merging(["TZDIR": database.path]) { $1 })
        XCTAssertEqual(run.status, 0, run.summary)
        let plan = try String(contentsOf: data.appendingPathComponent("plan.json"), encoding: .utf8)
        XCTAssertTrue(plan.contains(#""fireAt": "2026-11-21T20:30:00Z""#), "05:30 in Tokyo's offset: \(plan)")
    }
}
