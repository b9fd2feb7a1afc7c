/// Marshals values in D-Bus's little-endian wire format. Every value starts at a multiple of its alignment,
/// counted from the start of the message; the header ends padded to 8, so a body's offsets count the same.
struct DBusWriter {
    private(set) var bytes: [UInt8] = []

    mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    mutating func writeUInt32(_ value: UInt32) {
        pad(to: 4)
        bytes += [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
    }

    /// Writes the value at its alignment.
    mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let byte):
            bytes.append(byte)
        case .boolean(let truth):
            writeUInt32(truth ? 1 : 0)
        case .int32(let number):
            writeUInt32(UInt32(bitPattern: number))
        case .uint32(let number):
            writeUInt32(number)
        case .int64(let number):
            write(.uint64(UInt64(bitPattern: number)))
        case .uint64(let bits):
            pad(to: 8)
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(bits >> UInt64(shift) & 0xff)) }
        case .string(let text), .objectPath(let text):
            let utf8 = Array(text.utf8)
            writeUInt32(UInt32(utf8.count))
            bytes += utf8
            bytes.append(0)
        case .signature(let text):
            let utf8 = Array(text.utf8)
            bytes.append(UInt8(truncatingIfNeeded: utf8.count))
            bytes += utf8
            bytes.append(0)
        case .variant(let inner):
            write(.signature(inner.signature))
            write(inner)
        case .array(let element, let elements):
            writeUInt32(0)
            let lengthAt = bytes.count - 4
            pad(to: DBusSignature.alignment(of: element.utf8.first ?? 0))
            let start = bytes.count
            for element in elements { write(element) }
            let length = UInt32(bytes.count - start)
            for index in 0..<4 { bytes[lengthAt + index] = UInt8(length >> (8 * UInt32(index)) & 0xff) }
        case .structure(let fields):
            pad(to: 8)
            for field in fields { write(field) }
        case .dictEntry(let key, let entry):
            pad(to: 8)
            write(key)
            write(entry)
        }
    }
}
