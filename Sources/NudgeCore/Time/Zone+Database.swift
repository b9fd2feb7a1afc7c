#if canImport(Glibc)
import Glibc
#endif

extension Zone {
    /// Where the system's tz database keeps its TZif files (Debian's tzdata, and every other Linux).
    public static let database = "/usr/share/zoneinfo"

    /// The zone an IANA name stands for (`Europe/Berlin`, `UTC`, `US/Eastern`), read from the system's tz
    /// database; also a fixed-offset name this type gives (`GMT+0100`). Nil for any other name.
    ///
    /// This is the one read of the core, and like `TimeZone(identifier:)` it reads the system's reference data,
    /// never the user's: the same name gives the same zone for as long as tzdata is not upgraded.
    public static func named(_ name: String) -> Zone? {
        if let seconds = offset(ofName: name) { return Zone(secondsFromGMT: seconds) }
        // A run names its zone twice (settings.json's check, then the zone it plans in): the second is the
        // first's, not another read and parse of the file (~0.027 M instructions).
        if let last = lastNamed.zone, last.identifier == name { return last }
        let zone = fromDatabase(name)
        if let zone { lastNamed.zone = zone }
        return zone
    }

    private static let lastNamed = LastNamedZone()

    private static func fromDatabase(_ name: String) -> Zone? {
        guard isDatabaseName(name) else { return nil }
        guard let bytes = contents(of: database + "/" + name) else {
            // A machine without tzdata still knows UTC.
            return ["UTC", "Etc/UTC", "Zulu", "Etc/Zulu", "UCT", "Etc/UCT"].contains(name)
                ? Zone(identifier: name, transitions: [], offsets: [], initialOffset: 0, rule: nil) : nil
        }
        return Zone(identifier: name, tzif: bytes)
    }

    /// A relative path of names made of letters, digits, `_`, `-`, `+` and inner dots: nothing that could leave
    /// the database's folder.
    static func isDatabaseName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        // One pass, component by component, without `split`: its [ArraySlice<UInt8>] cost the run the metadata of
        // `ArraySlice<UInt8>` and of its array storage (~10 k instructions).
        var atComponentStart = true
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                guard !atComponentStart else { return false }
                atComponentStart = true
                continue
            }
            if atComponentStart, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") { return false }
            atComponentStart = false
            guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".")
            else { return false }
        }
        return !atComponentStart
    }

    /// The bytes of a regular file of at most 1 MiB, or nil.
    private static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= 1 << 20 else {
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            filled += count
        }
        return bytes
    }
}

/// The last zone `Zone.named` read from the database, behind a lock of its own (the tests plan from more than one
/// thread). A pthread mutex: Glibc is what the project builds on, not the Synchronization module.
private final class LastNamedZone: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()
    private var stored: Zone?

    var zone: Zone? {
        get {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return stored
        }
        set {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            stored = newValue
        }
    }
}
