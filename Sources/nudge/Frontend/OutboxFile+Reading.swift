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
}
