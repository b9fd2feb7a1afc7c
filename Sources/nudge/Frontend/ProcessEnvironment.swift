#if canImport(Glibc)
import Glibc
#endif

/// The process's environment variables, read from `environ`. (ProcessInfo's copy is the same dictionary, but
/// using ProcessInfo links most of Foundation into the binary.)
enum ProcessEnvironment {
    /// One variable, nil when unset.
    static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Every variable; for one, `variable(_:)` is cheaper.
    static func all() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
