import Foundation
import XCTest
@testable import nudge

/// docs/files.md's table of settings.json and the keys of each user file are made from the manual's texts
/// (`ManualText.settingRows`, `ManualText.formats`), so the page and `man nudge` cannot say two things about one
/// key. On a difference, `NUDGE_UPDATE_DOCS=1 swift test --filter FilesPageTests` writes them anew.
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

    /// The files whose keys docs/files.md shows from the manual's FILE FORMATS.
    static let formatFiles = ["laundry.json", "alarms.json", "trips.json", "streaks.json"]

    /// Each user file's keys on the page are the manual's, between two marks; what the page says beyond them
    /// (examples of output, the commands that edit the file) is its own.
    func testEachFilesKeysAreTheManuals() throws {
        let file = RepositoryScript.root.appendingPathComponent("docs/files.md")
        var page = try String(contentsOf: file, encoding: .utf8)
        for name in Self.formatFiles {
            let start = "<!-- the keys of \(name): made from the manual's texts (FilesPageTests) -->"
            let end = "<!-- end of the keys of \(name) -->"
            let parts = page.components(separatedBy: start)
            XCTAssertEqual(parts.count, 2, "docs/files.md marks the keys of \(name) once")
            guard parts.count == 2 else { continue }
            let rest = parts[1].components(separatedBy: end)
            XCTAssertEqual(rest.count, 2, "the end of the keys of \(name) is marked")
            guard rest.count == 2 else { continue }
            XCTAssertFalse(ManualText.format(of: name).isEmpty, "the manual has FILE FORMATS for \(name)")
            let text = "\n\n" + ManualText.formatMarkdown(of: name) + "\n\n"
            if ProcessInfo.processInfo.environment["NUDGE_UPDATE_DOCS"] == "1" {
                page = parts[0] + start + text + end + rest[1]
            } else {
                XCTAssertEqual(rest[0], text, "docs/files.md's keys of \(name); NUDGE_UPDATE_DOCS=1 writes them")
            }
        }
        if ProcessInfo.processInfo.environment["NUDGE_UPDATE_DOCS"] == "1" {
            try page.write(to: file, atomically: true, encoding: .utf8)
        }
    }

}
