import FoundationEssentials

/// A cheap fingerprint of a file's bytes (64-bit FNV-1a), to notice when a valid file changed without
/// keeping or re-reading a copy on every run. Not a security measure.
public enum ContentHash {
    public static func of(_ bytes: [UInt8]) -> String {
        of(bytes[...])
    }

    static func of(_ bytes: ArraySlice<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
