import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The system's tz database (Debian's tzdata, and every other Linux): the TZif files the core's zones are read
/// from. The core never reads them itself; the shell hands it zones, and `zone(named:)` where it must find one by
/// name (settings.json's `timeZone`, the zone the previous run planned in).
enum ZoneDatabase {
    /// Where the zone files are: `$TZDIR` when set (glibc's convention, for a distribution or a test that keeps
    /// them elsewhere), else where tzdata installs them.
    static let path: String = {
        guard let directory = getenv("TZDIR").map({ String(cString: $0) }), !directory.isEmpty else {
            return "/usr/share/zoneinfo"
        }
        return directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    }()

    /// The zone an IANA name stands for (`Europe/Berlin`, `UTC`, `US/Eastern`), read from the database; also a
    /// fixed-offset name `Zone` gives (`GMT+0100`). Nil for any other name.
    ///
    /// Like `TimeZone(identifier:)` it reads the system's reference data, never the user's: the same name gives
    /// the same zone for as long as tzdata is not upgraded.
    static func zone(named name: String) -> Zone? {
        if let zone = Zone(offsetName: name) { return zone }
        guard isDatabaseName(name) else { return nil }
        guard let bytes = contents(of: path + "/" + name) else {
            // A machine without tzdata still knows UTC.
            return ["UTC", "Etc/UTC", "Zulu", "Etc/Zulu", "UCT", "Etc/UCT"].contains(name)
                ? Zone(identifier: name, secondsFromGMT: 0) : nil
        }
        return Zone(identifier: name, tzif: bytes)
    }

    /// The zone names of the database's tables (`zone1970.tab`, else `zone.tab`), for "did you mean" when a
    /// name is not found; read only then.
    static func names() -> [String] {
        for table in ["zone1970.tab", "zone.tab"] {
            guard let bytes = contents(of: path + "/" + table) else { continue }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
                guard !line.hasPrefix("#") else { return nil }
                let columns = line.split(separator: "\t")
                return columns.count >= 3 ? String(columns[2]) : nil
            } + ["UTC"]
        }
        return ["UTC"]
    }

    /// A relative path of names made of letters, digits, `_`, `-`, `+` and inner dots: nothing that could leave
    /// the database's folder.
    static func isDatabaseName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
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
