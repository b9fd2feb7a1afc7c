import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `JOURNAL_STREAM`, which systemd sets for a service whose stdout or stderr is connected to the journal: the
/// device and inode of that stream, in decimal, "DEVICE:INODE".
enum JournalStream {
    /// Whether `stream` names the file open on `descriptor` (a child that inherited the variable but not the
    /// stream — stderr redirected to a file — gets no prefixes).
    static func names(_ stream: String, descriptor: Int32) -> Bool {
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }
}
