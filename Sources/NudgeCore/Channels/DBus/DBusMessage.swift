/// One D-Bus message: a fixed header, the header fields that say where it goes and what it is, and the body.
/// `encoded()` writes it in little-endian byte order; `decode` reads a message of either byte order.
public struct DBusMessage: Equatable, Sendable {
    public enum Kind: UInt8, Sendable {
        case methodCall = 1, methodReturn = 2, error = 3, signal = 4
    }

    /// The header flag that asks for no reply (calls whose answer nobody reads).
    static let noReplyExpected: UInt8 = 0x1

    public var kind: Kind
    public var flags: UInt8 = 0
    public var serial: UInt32 = 0
    var path: String?
    var interface: String?
    public var member: String?
    public var errorName: String?
    public var replySerial: UInt32?
    var destination: String?
    public var sender: String?
    public var body: [DBusValue] = []

    init(kind: Kind, serial: UInt32 = 0, path: String? = nil, interface: String? = nil, member: String? = nil,
         destination: String? = nil, body: [DBusValue] = []) {
        self.kind = kind
        self.serial = serial
        self.path = path
        self.interface = interface
        self.member = member
        self.destination = destination
        self.body = body
    }

    /// The body's signature, from its values.
    var signature: String { body.map(\.signature).joined() }

    /// The message in wire format.
    public func encoded() -> [UInt8] {
        var fields: [DBusValue] = []
        func field(_ code: UInt8, _ value: DBusValue?) {
            if let value { fields.append(.structure([.byte(code), .variant(value)])) }
        }
        // libdbus's order (dbus-send's Hello is byte for byte the same); any order is valid.
        field(1, path.map(DBusValue.objectPath))
        field(6, destination.map(DBusValue.string))
        field(2, interface.map(DBusValue.string))
        field(3, member.map(DBusValue.string))
        field(4, errorName.map(DBusValue.string))
        field(5, replySerial.map(DBusValue.uint32))
        field(7, sender.map(DBusValue.string))
        if !body.isEmpty { field(8, .signature(signature)) }

        var bodyWriter = DBusWriter()
        for value in body { bodyWriter.write(value) }
        var writer = DBusWriter()
        for byte in [UInt8(ascii: "l"), kind.rawValue, flags, 1] { writer.write(.byte(byte)) }
        writer.writeUInt32(UInt32(bodyWriter.bytes.count))
        writer.writeUInt32(serial)
        writer.write(.array(element: "(yv)", fields))
        writer.pad(to: 8)
        return writer.bytes + bodyWriter.bytes
    }

    /// The length of the message that starts `bytes`, once its first 16 bytes are there; nil before.
    public static func frameLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 16 else { return nil }
        var reader = DBusReader(bytes: Array(bytes.prefix(16)), littleEndian: bytes.first == UInt8(ascii: "l"),
                                offset: 4)
        guard let bodyLength = try? reader.readUInt32(), (try? reader.readUInt32()) != nil,
              let fieldsLength = try? reader.readUInt32() else { return nil }
        let header = (16 + Int(fieldsLength) + 7) / 8 * 8
        return header + Int(bodyLength)
    }

    enum DecodingError: Error, Equatable {
        case notAMessage
        case body(String)
    }

    /// Reads one whole message (`frameLength` bytes). A body of types nudge does not read fails with `.body`
    /// and its signature: such a message is not one nudge waits for, and the connection goes on.
    public static func decode(_ bytes: [UInt8]) throws -> DBusMessage {
        guard bytes.count >= 16, bytes[0] == UInt8(ascii: "l") || bytes[0] == UInt8(ascii: "B"),
              let kind = Kind(rawValue: bytes[1]), bytes[3] == 1 else { throw DecodingError.notAMessage }
        var reader = DBusReader(bytes: bytes, littleEndian: bytes[0] == UInt8(ascii: "l"), offset: 4)
        do {
            let bodyLength = Int(try reader.readUInt32())
            var message = DBusMessage(kind: kind, serial: try reader.readUInt32())
            message.flags = bytes[2]
            var signature = ""
            guard case .array(_, let fields) = try reader.read(type: Array("a(yv)".utf8)[...]) else {
                throw DecodingError.notAMessage
            }
            for case .structure(let pair) in fields {
                guard pair.count == 2, case .byte(let code) = pair[0], case .variant(let value) = pair[1] else { continue }
                switch code {
                case 1: message.path = value.string
                case 2: message.interface = value.string
                case 3: message.member = value.string
                case 4: message.errorName = value.string
                case 5: message.replySerial = value.uint32
                case 6: message.destination = value.string
                case 7: message.sender = value.string
                case 8: signature = value.string ?? ""
                default: break
                }
            }
            try reader.align(to: 8)
            guard reader.offset + bodyLength == bytes.count else { throw DecodingError.notAMessage }
            do {
                message.body = try reader.read(signature: signature)
            } catch {
                throw DecodingError.body(signature)
            }
            return message
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.notAMessage
        }
    }
}
