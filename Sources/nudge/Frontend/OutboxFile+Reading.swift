import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

extension OutboxFile {
    /// The last `count` deliveries, oldest first, read from the end of the file so that years of deliveries
    /// cost no more than the last few. Lines that do not parse (a torn last line) are skipped.
    func lastDeliveries(_ count: Int) -> [Delivery] {
        (lastLines(count, endingAt: size())?.lines ?? []).compactMap { line in
            (try? JSONParser.parse(line)).flatMap(Delivery.init(record:))
        }
    }

    /// Whether the line that ends at `offset` has the hash `expected`: the file is still the one whose first
    /// `offset` bytes state.json accounts for. True at offset 0 and when no hash was kept (a state written
    /// before hashes were), where the length alone is all there is to go by.
    func lineEnding(at offset: Int, hashes expected: String?) -> Bool {
        guard offset > 0, let expected else { return true }
        guard let read = lastLines(1, endingAt: offset), read.endsWithNewline, let line = read.lines.last else {
            return false
        }
        return ContentHash.of(line + [UInt8(ascii: "\n")]) == expected
    }

    /// Up to `count` whole lines (without their newlines) that end at byte `end`, read backwards in growing
    /// windows; nil when the file is shorter than `end`. A piece after the last newline is left out and told by
    /// `endsWithNewline`.
    private func lastLines(_ count: Int, endingAt end: Int) -> (lines: [[UInt8]], endsWithNewline: Bool)? {
        var window = 4_096
        while true {
            let start = max(0, end - window)
            guard let bytes = try? Self.bytes(of: path, from: start, to: end), bytes.count == end - start else {
                return nil
            }
            var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let endsWithNewline = bytes.last == UInt8(ascii: "\n")
            lines.removeLast()  // after the last newline: empty, or a piece of a line
            if start > 0, !lines.isEmpty { lines.removeFirst() }  // begins mid-line
            if lines.count >= count || start == 0 {
                return (lines.suffix(count).filter { !$0.isEmpty }.map { Array($0) }, endsWithNewline)
            }
            window *= 4
        }
    }
}
