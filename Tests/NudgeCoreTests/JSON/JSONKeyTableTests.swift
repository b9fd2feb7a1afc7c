import XCTest
@testable import NudgeCore

final class JSONKeyTableTests: XCTestCase {
    private func hash(_ text: String) -> UInt64 {
        Array(text.utf8).withUnsafeBufferPointer(JSONKeyTable.hash)
    }

    func testSameTextHashesAlikeAtEveryLength() {
        for length in 0...24 {
            let text = String(repeating: "k", count: length)
            XCTAssertEqual(hash(text), hash(String(text)), "length \(length)")
            XCTAssertNotEqual(hash(text), hash(text + "x"), "length \(length)")
        }
    }

    /// Ids that differ only in their last bytes (`a00000`, `a00001`, …) must spread over a table's slots, which
    /// the low bits of the hash pick: 10,000 of them in 32,768 slots.
    func testIdsDifferingAtTheEndSpreadOverTheSlots() {
        for width in [5, 6, 7, 12, 15] {
            var slots = Set<UInt64>()
            for number in 0..<10_000 {
                let digits = String(number)
                let id = "a" + String(repeating: "0", count: width - 1 - digits.count) + digits
                slots.insert(hash(id) & 0x7FFF)
            }
            XCTAssertGreaterThan(slots.count, 7_000, "width \(width)")
        }
    }

    func testTableFindsEachKeyOnce() throws {
        let bytes = Array(#"{"a00001": 1, "a00002": 2, "a00001x": 3}"#.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONByteParser(bytes: buffer, maximumDepth: 8)
            let tape = try parser.parseDocument()
            var table = JSONKeyTable(capacity: 3)
            let keys = [1, 3, 5]
            for key in keys { XCTAssertNil(table.insert(key, in: tape)) }
            for key in keys { XCTAssertEqual(table.insert(key, in: tape), key) }
            XCTAssertEqual(Array("a00002".utf8).withUnsafeBufferPointer { table.find($0, in: tape) }, 3)
            XCTAssertNil(Array("a00003".utf8).withUnsafeBufferPointer { table.find($0, in: tape) })
        }
    }
}
