/// Unmarshals values of a D-Bus message in either byte order. Offsets count from the message's start, as the
/// alignment rules do. Types nudge never receives from the notification interface (16-bit and unsigned 64-bit
/// numbers, doubles, file descriptors) are refused: the message is then not one nudge waits for.
struct DBusReader {
    enum Failure: Error, Equatable {
        case truncated
        case unsupported(Character)
        case malformed
    }

    let bytes: [UInt8]
    let littleEndian: Bool
    var offset: Int
    /// Nesting depth: the specification allows 64 levels; deeper data is not D-Bus.
    private var depth = 0

    init(bytes: [UInt8], littleEndian: Bool, offset: Int = 0) {
        self.bytes = bytes
        self.littleEndian = littleEndian
        self.offset = offset
    }

    mutating func align(to alignment: Int) throws {
        let aligned = (offset + alignment - 1) / alignment * alignment
        guard aligned <= bytes.count else { throw Failure.truncated }
        offset = aligned
    }

    mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw Failure.truncated }
        offset += 1
        return bytes[offset - 1]
    }

    /// Eight bytes at their alignment, in the message's byte order.
    mutating func readUInt64() throws -> UInt64 {
        try align(to: 8)
        let low = UInt64(try readUInt32()), high = UInt64(try readUInt32())
        return littleEndian ? high << 32 | low : low << 32 | high
    }

    mutating func readUInt32() throws -> UInt32 {
        try align(to: 4)
        guard offset + 4 <= bytes.count else { throw Failure.truncated }
        let four = bytes[offset..<offset + 4].map(UInt32.init)
        offset += 4
        return littleEndian ? four[0] | four[1] << 8 | four[2] << 16 | four[3] << 24
                            : four[3] | four[2] << 8 | four[1] << 16 | four[0] << 24
    }

    private mutating func readText(length: Int) throws -> String {
        guard length >= 0, offset + length < bytes.count, bytes[offset + length] == 0 else { throw Failure.malformed }
        let text = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        offset += length + 1
        return text
    }

    /// Reads the values of `signature`, one per complete type.
    mutating func read(signature: String) throws -> [DBusValue] {
        guard let types = DBusSignature.split(signature) else { throw Failure.malformed }
        return try types.map { try read(type: Array($0.utf8)[...]) }
    }

    /// Reads one value of the single complete type `type`.
    mutating func read(type: ArraySlice<UInt8>) throws -> DBusValue {
        guard let code = type.first else { throw Failure.malformed }
        depth += 1
        defer { depth -= 1 }
        guard depth <= 64 else { throw Failure.malformed }
        switch code {
        case UInt8(ascii: "y"): return .byte(try readByte())
        case UInt8(ascii: "b"):
            let truth = try readUInt32()
            guard truth <= 1 else { throw Failure.malformed }
            return .boolean(truth == 1)
        case UInt8(ascii: "i"): return .int32(Int32(bitPattern: try readUInt32()))
        case UInt8(ascii: "u"): return .uint32(try readUInt32())
        case UInt8(ascii: "x"): return .int64(Int64(bitPattern: try readUInt64()))
        case UInt8(ascii: "t"): return .uint64(try readUInt64())
        case UInt8(ascii: "s"): return .string(try readText(length: Int(try readUInt32())))
        case UInt8(ascii: "o"): return .objectPath(try readText(length: Int(try readUInt32())))
        case UInt8(ascii: "g"): return .signature(try readText(length: Int(try readByte())))
        case UInt8(ascii: "v"):
            let inner = Array(try readText(length: Int(try readByte())).utf8)
            guard DBusSignature.endOfType(inner, at: 0) == inner.count else { throw Failure.malformed }
            return .variant(try read(type: inner[...]))
        case UInt8(ascii: "a"):
            let length = Int(try readUInt32())
            let element = type.dropFirst()
            guard let first = element.first else { throw Failure.malformed }
            try align(to: DBusSignature.alignment(of: first))
            let end = offset + length
            guard length <= 1 << 26, end <= bytes.count else { throw Failure.truncated }
            var elements: [DBusValue] = []
            while offset < end { elements.append(try read(type: element)) }
            guard offset == end else { throw Failure.malformed }
            return .array(element: String(decoding: element, as: UTF8.self), elements)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            try align(to: 8)
            let inner = Array(type.dropFirst().dropLast())
            var fields: [DBusValue] = []
            var index = 0
            while index < inner.count {
                guard let end = DBusSignature.endOfType(inner, at: index) else { throw Failure.malformed }
                fields.append(try read(type: inner[index..<end]))
                index = end
            }
            if code == UInt8(ascii: "{") {
                guard fields.count == 2 else { throw Failure.malformed }
                return .dictEntry(fields[0], fields[1])
            }
            return .structure(fields)
        default:
            throw Failure.unsupported(Character(Unicode.Scalar(code)))
        }
    }
}
