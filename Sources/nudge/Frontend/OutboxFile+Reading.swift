import Foundation
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

extension OutboxFile {
    /// The last `count` deliveries, oldest first, read from the end of the file so that years of deliveries
    /// cost no more than the last few. Lines that do not parse (a torn last line) are skipped.
    func lastDeliveries(_ count: Int) -> [Delivery] {
        let size = size()
        var window = 16_384
        while true {
            let start = max(0, size - window)
            guard let bytes = try? tail(from: start) else { return [] }
            var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            if start > 0, !lines.isEmpty { lines.removeFirst() }  // begins mid-line
            if lines.count >= count || start == 0 {
                return lines.suffix(count).compactMap { line in
                    (try? JSONParser.parse(Data(line))).flatMap(Delivery.init(record:))
                }
            }
            window *= 4
        }
    }

    /// Whether the line that ends at `offset` has the hash `expected`: the file is still the one whose first
    /// `offset` bytes state.json accounts for. True at offset 0 and when no hash was kept (a state written
    /// before hashes were), where the length alone is all there is to go by.
    func lineEnding(at offset: Int, hashes expected: String?) -> Bool {
        guard offset > 0, let expected else { return true }
        var window = 4_096
        while true {
            let start = max(0, offset - window)
            guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
            defer { try? handle.close() }
            guard (try? handle.seek(toOffset: UInt64(start))) != nil,
                  let bytes = try? handle.read(upToCount: offset - start), bytes.count == offset - start,
                  bytes.last == UInt8(ascii: "\n") else { return false }
            let body = bytes.dropLast()
            if body.lastIndex(of: UInt8(ascii: "\n")) != nil || start == 0 {
                return OutboxRecovery.lastLineHash(ArraySlice(bytes)) == expected
            }
            window *= 4
        }
    }
}
