/// One value of the D-Bus type system, as far as nudge speaks it: the types of the notification interface
/// (`s`, `u`, `i`, `as`, `a{sv}`, `b`, `y`, `v`), those of the systemd manager's calls it makes (`t`, `a(sv)`), the object paths and signatures of message headers, and the
/// structures those are made of. Each value knows its own signature, so a message is marshalled from values alone.
public indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int32(Int32)
    case uint32(UInt32)
    /// libnotify's `sender-pid` hint; read so a captured Notify decodes whole.
    case int64(Int64)
    /// A systemd time span in microseconds (`AccuracyUSec` of a timer nudge arms).
    case uint64(UInt64)
    case string(String)
    case objectPath(String)
    case signature(String)
    case variant(DBusValue)
    /// The element signature is kept so an empty array still has its type.
    case array(element: String, [DBusValue])
    case structure([DBusValue])
    case dictEntry(DBusValue, DBusValue)

    /// The value's single complete type.
    var signature: String {
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .variant: return "v"
        case .array(let element, _): return "a" + element
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): return "{" + key.signature + value.signature + "}"
        }
    }

    /// `as`: the actions list of Notify and the capabilities GetCapabilities answers.
    static func strings(_ values: [String]) -> DBusValue {
        .array(element: "s", values.map(DBusValue.string))
    }

    /// `a{sv}`: the hints of Notify.
    static func dictionary(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(element: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    public var string: String? {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): return text
        default: return nil
        }
    }

    public var uint32: UInt32? {
        if case .uint32(let number) = self { return number }
        return nil
    }

    /// The strings of an `as`.
    public var strings: [String]? {
        guard case .array(_, let elements) = self else { return nil }
        let texts = elements.compactMap(\.string)
        return texts.count == elements.count ? texts : nil
    }
}
