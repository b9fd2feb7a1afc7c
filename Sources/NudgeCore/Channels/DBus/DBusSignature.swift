/// Reading D-Bus type signatures: where one complete type ends, and how values of a type are aligned.
enum DBusSignature {
    /// The alignment of values whose type starts with `code`.
    static func alignment(of code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): return 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
        case UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): return 8
        default: return 4
        }
    }

    /// The end of the single complete type that starts at `start` in `signature`; nil when it is not one.
    static func endOfType(_ signature: [UInt8], at start: Int) -> Int? {
        guard start < signature.count else { return nil }
        switch signature[start] {
        case UInt8(ascii: "a"):
            return endOfType(signature, at: start + 1)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = signature[start] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            var index = start + 1
            while index < signature.count && signature[index] != close {
                guard let end = endOfType(signature, at: index) else { return nil }
                index = end
            }
            return index < signature.count && index > start + 1 ? index + 1 : nil
        default:
            return start + 1
        }
    }

    /// The single complete types of a signature ("sus" → ["s", "u", "s"]); nil when it is malformed.
    static func split(_ signature: String) -> [String]? {
        let bytes = Array(signature.utf8)
        var types: [String] = []
        var index = 0
        while index < bytes.count {
            guard let end = endOfType(bytes, at: index) else { return nil }
            types.append(String(decoding: bytes[index..<end], as: UTF8.self))
            index = end
        }
        return types
    }
}
