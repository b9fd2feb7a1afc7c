import XCTest
import Foundation
@testable import nudge
#if canImport(Glibc)
import Glibc
#endif

/// How `AtomicFile` replaces a file: whole (a new file renamed over the old one), or, for a quiet run's few
/// changed bytes, patched in place. Either way the result is the new content, mode 0600.
final class AtomicFileTests: DataDirectoryTestCase {
    private var path: String { dir.path + "/state.json" }

    private func inode(_ path: String) throws -> UInt {
        var status = stat()
        guard stat(path, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return UInt(status.st_ino)
    }

    private func content() throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// 2,000 bytes, so that the file spans four 512-byte sectors.
    private func text(_ stamp: String, tail: String = "tail") -> [UInt8] {
        Array(("{\"lastRunAt\": \"\(stamp)\", \"padding\": \"" + String(repeating: "x", count: 1_934)
            + "\", \"t\": \"\(tail)\"}\n").utf8)
    }

    func testAChangeInsideOneSectorIsPatchedInPlace() throws {
        try AtomicFile.write(text("2026-11-21T10:00:00Z"), to: path, durability: .oldOrNew)
        let before = try inode(path)
        XCTAssertEqual(try content().count, 2_000)
        try AtomicFile.write(text("2026-11-21T10:01:00Z"), to: path, durability: .oldOrNew)
        XCTAssertEqual(try content(), text("2026-11-21T10:01:00Z"))
        XCTAssertEqual(try inode(path), before, "a few bytes in one sector are overwritten in place")
        XCTAssertEqual(try dir.mode("state.json"), 0o600)
        try AtomicFile.write(text("2026-11-21T10:01:00Z"), to: path, durability: .derived)
        XCTAssertEqual(try content(), text("2026-11-21T10:01:00Z"), "the same content: nothing to change")
        XCTAssertEqual(try inode(path), before)
    }

    func testChangesInTwoSectorsReplaceTheFileWhole() throws {
        try AtomicFile.write(text("2026-11-21T10:00:00Z"), to: path, durability: .oldOrNew)
        let before = try inode(path)
        try AtomicFile.write(text("2026-11-21T10:01:00Z", tail: "TAIL"), to: path, durability: .oldOrNew)
        XCTAssertEqual(try content(), text("2026-11-21T10:01:00Z", tail: "TAIL"))
        XCTAssertNotEqual(try inode(path), before, "bytes 30 and 1,990 differ: two sectors, a new file")
        XCTAssertEqual(try dir.mode("state.json"), 0o600)
    }

    func testADurableWriteAlwaysReplacesTheFileWhole() throws {
        try AtomicFile.write(text("2026-11-21T10:00:00Z"), to: path, durability: .oldOrNew)
        let before = try inode(path)
        try AtomicFile.write(text("2026-11-21T10:01:00Z"), to: path, durability: .durable)
        XCTAssertEqual(try content(), text("2026-11-21T10:01:00Z"))
        XCTAssertNotEqual(try inode(path), before, "what must survive a power loss is flushed in a new file")
    }

    func testAnotherLengthModeOrLinkCountIsWrittenWhole() throws {
        try AtomicFile.write(text("2026-11-21T10:00:00Z"), to: path, durability: .oldOrNew)
        var before = try inode(path)
        try AtomicFile.write(text("2026-11-21T10:01:00.5Z"), to: path, durability: .oldOrNew)
        XCTAssertEqual(try content(), text("2026-11-21T10:01:00.5Z"))
        XCTAssertNotEqual(try inode(path), before, "another length")

        before = try inode(path)
        XCTAssertEqual(chmod(path, 0o644), 0)
        try AtomicFile.write(text("2026-11-21T10:02:00.5Z"), to: path, durability: .oldOrNew)
        XCTAssertNotEqual(try inode(path), before, "mode 0644: the whole write restores 0600")
        XCTAssertEqual(try dir.mode("state.json"), 0o600)

        let link = dir.path + "/elsewhere.json"
        XCTAssertEqual(Glibc.link(path, link), 0)
        try AtomicFile.write(text("2026-11-21T10:03:00.5Z"), to: path, durability: .oldOrNew)
        XCTAssertEqual(try content(), text("2026-11-21T10:03:00.5Z"))
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: link))), text("2026-11-21T10:02:00.5Z"),
                       "a second link keeps the content it had, as a rename leaves it")
    }

    func testASymbolicLinkIsReplacedNotWrittenThrough() throws {
        let target = dir.path + "/target.json"
        try AtomicFile.write(text("2026-11-21T10:00:00Z"), to: target, durability: .oldOrNew)
        XCTAssertEqual(symlink(target, path), 0)
        try AtomicFile.write(text("2026-11-21T10:01:00Z"), to: path, durability: .oldOrNew)
        XCTAssertEqual(try content(), text("2026-11-21T10:01:00Z"))
        XCTAssertEqual([UInt8](try Data(contentsOf: URL(fileURLWithPath: target))), text("2026-11-21T10:00:00Z"))
    }

    func testAFileOverTheLimitIsWrittenWhole() throws {
        let large = Array(repeating: UInt8(ascii: "x"), count: AtomicFile.patchLimit + 1)
        var changed = large
        changed[10] = UInt8(ascii: "y")
        try AtomicFile.write(large, to: path, durability: .derived)
        let before = try inode(path)
        try AtomicFile.write(changed, to: path, durability: .derived)
        XCTAssertEqual(try content(), changed)
        XCTAssertNotEqual(try inode(path), before)
    }

    func testTheDifferingRangeIsFoundAtEveryOffset() {
        XCTAssertNil(AtomicFile.differingRange([], []))
        for count in [1, 7, 8, 9, 16, 23, 40] {
            let old = (0..<count).map { UInt8($0 & 0x7f) }
            XCTAssertNil(AtomicFile.differingRange(old, old))
            for first in 0..<count {
                for last in first..<count {
                    var new = old
                    new[first] ^= 0x80
                    new[last] ^= 0x80
                    new[first] |= 0x80  // first == last: still differs
                    let range = AtomicFile.differingRange(new, old)
                    XCTAssertEqual(range?.0, first, "count \(count), \(first)...\(last)")
                    XCTAssertEqual(range?.1, first == last ? first : last, "count \(count), \(first)...\(last)")
                }
            }
        }
    }

    /// The end-to-end case: a quiet minute changes only the time stamps of state.json and plan.json, which are
    /// patched where they lie; a minute that delivers replaces state.json whole (flushed, with the directory).
    func testAQuietRunPatchesItsTimeStampsAndADeliveringRunReplacesTheState() throws {
        try dir.write("settings.json", Fixture.settings())
        try dir.write("alarms.json", Fixture.alarm(time: "08:05"))
        assertRun(try dir.run(at: "2026-11-21T08:00:00Z"), delivers: [])
        let state = try inode(path), plan = try inode(dir.path + "/plan.json")

        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        XCTAssertEqual(try inode(path), state)
        XCTAssertEqual(try inode(dir.path + "/plan.json"), plan)
        XCTAssertEqual(try dir.json("state.json")["lastRunAt"] as? String, "2026-11-21T08:01:00Z")
        XCTAssertEqual(try dir.json("plan.json")["generatedAt"] as? String, "2026-11-21T08:01:00Z")

        // The patched files are exactly what a run writing them whole gives.
        let copy = try copyOfDirectory()
        try copy.remove("plan.json")
        try copy.write("state.json", try dir.text("state.json").replacingOccurrences(of: "08:01:00Z", with: "07:59:00Z"))
        XCTAssertEqual(chmod(copy.path + "/state.json", 0o644), 0, "not 0600: written whole")
        assertRun(try copy.run(at: "2026-11-21T08:01:00Z"), delivers: [])
        XCTAssertEqual(try copy.data("plan.json"), try dir.data("plan.json"))
        XCTAssertEqual(try copy.data("state.json"), try dir.data("state.json"))

        assertRun(try dir.run(at: "2026-11-21T08:05:00Z"), delivers: ["alarm.prayer:fajr:2026-11-21"])
        XCTAssertNotEqual(try inode(path), state, "a delivery is saved in a new, flushed file")
        XCTAssertEqual(try dir.mode("state.json"), 0o600)
    }
}
