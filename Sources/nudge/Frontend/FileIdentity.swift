import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// A file's identity as `stat` gives it, following symbolic links (a user file may be one): a replaced file
/// (atomic write) has a new inode, an edited one a new change time.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let changed: timespec

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        changed = info.st_ctim
    }

    static func == (left: FileIdentity, right: FileIdentity) -> Bool {
        left.device == right.device && left.inode == right.inode && left.size == right.size
            && left.changed.tv_sec == right.changed.tv_sec && left.changed.tv_nsec == right.changed.tv_nsec
    }
}
