import Foundation
import XCTest
@testable import nudge

/// docs/files.md's table of settings.json is made from the manual's texts (`ManualText.settingRows`), so the page
/// and `man nudge` cannot say two things about one key. On a difference,
/// `NUDGE_UPDATE_DOCS=1 swift test --filter FilesPageTests` writes the table anew.
final class FilesPageTests: XCTestCase {
    static let start = "<!-- settings table: made from the manual's texts (FilesPageTests) -->"
    static let end = "<!-- end of the settings table -->"

    func testTheSettingsTableIsTheManuals() throws {
        let file = RepositoryScript.root.appendingPathComponent("docs/files.md")
        let page = try String(contentsOf: file, encoding: .utf8)
        let parts = page.components(separatedBy: Self.start)
        XCTAssertEqual(parts.count, 2, "docs/files.md marks its settings table once")
        let rest = try XCTUnwrap(parts.last).components(separatedBy: Self.end)
        XCTAssertEqual(rest.count, 2, "the table's end is marked")
        let table = "\n| key | values (default) | what it does |\n| --- | --- | --- |\n"
            + ManualText.settingRows.map(\.markdownRow).joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["NUDGE_UPDATE_DOCS"] == "1" {
            try (parts[0] + Self.start + table + Self.end + rest[1]).write(to: file, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(rest[0], table, "docs/files.md's settings table; NUDGE_UPDATE_DOCS=1 writes it")
    }

}
