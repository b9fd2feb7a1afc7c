import Foundation
@testable import NudgeCore
import XCTest

/// The units a distribution ships (docs/packaging.md): `dist/systemd/user/` holds `SystemdUnits.packaged` byte
/// for byte, and `nudge init --systemd` writes none where a unit of that name is installed for all users.
final class PackagedUnitsTests: DataDirectoryTestCase {
    private static let dist = RepositoryScript.root.appendingPathComponent("dist/systemd/user")

    /// On a difference, `NUDGE_UPDATE_DIST=1 swift test --filter PackagedUnitsTests` writes them anew.
    func testTheRepositorysUnitsAreThePackagedUnits() throws {
        for (name, content) in SystemdUnits.packaged {
            let file = Self.dist.appendingPathComponent(name)
            if ProcessInfo.processInfo.environment["NUDGE_UPDATE_DIST"] == "1" {
                try content.write(to: file, atomically: true, encoding: .utf8)
            }
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), content, name)
        }
        let listed = try FileManager.default.contentsOfDirectory(atPath: Self.dist.path).sorted()
        XCTAssertEqual(listed, SystemdUnits.packaged.map(\.name).sorted())
    }

    /// A package's nudge.service and nudge.path in a directory of `$XDG_DATA_DIRS`: init writes the other two,
    /// says which it skipped and why, and how to enable them.
    func testInitWritesNoUnitThatIsInstalledForAllUsers() throws {
        let home = dir.fileURL("home")
        let system = dir.fileURL("share")
        try FileManager.default.createDirectory(at: system.appendingPathComponent("systemd/user"),
                                                withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        for name in ["nudge.service", "nudge.path"] {
            try "[Unit]\n".write(to: system.appendingPathComponent("systemd/user/" + name), atomically: true,
                                 encoding: .utf8)
        }
        let result = try NudgeProcess.run(["init", "--systemd"], exactEnvironment: [
            "HOME": home.path, "PATH": "/usr/bin:/bin", "XDG_DATA_DIRS": system.path, "XDG_CONFIG_DIRS": system.path])
        XCTAssertEqual(result.status, 0, result.summary)
        let units = home.appendingPathComponent(".config/systemd/user")
        let written = try FileManager.default.contentsOfDirectory(atPath: units.path).sorted()
        XCTAssertEqual(written, ["nudge-alarm.service", "nudge-hourly.timer"], result.summary)
        XCTAssertTrue(result.stdout.contains("skipped  \(units.path)/nudge.service (installed for all users: "
            + "\(system.path)/systemd/user/nudge.service)"), result.summary)
        XCTAssertTrue(result.stdout.contains(SystemdUnits.enableCommand), result.summary)
    }
}
