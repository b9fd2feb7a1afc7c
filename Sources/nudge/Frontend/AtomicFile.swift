import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Writes files so that a crash at any instant leaves either the old or the new content, never a torn file:
/// a temporary file in the same directory, written, flushed to disk, renamed over the target, and (when the
/// new content must survive a power loss) the directory flushed too. Mode 0600: the files hold personal data.
/// The one exception, `derived`, is for output nothing reads back.
///
/// A file that may come back old after a power loss (`oldOrNew`, `derived`) and whose new content differs from
/// the current one only inside one 512-byte sector is patched in place instead (`patchInPlace`): that is what a
/// quiet run does every minute, when only its time stamps change.
enum AtomicFile {
    /// What a power loss right after the write may do.
    enum Durability {
        /// The new content survives: the directory is flushed after the rename. For what a person changed.
        case durable
        /// Either the old or the new content survives, each complete: the file is flushed before the rename, the
        /// directory is not (or a few bytes are patched in place, `patchInPlace`). For files every run rewrites
        /// anyway; it saves a quarter of a millisecond per file.
        case oldOrNew
        /// Nothing is flushed. A crashed process still leaves the old or the new content (the rename is atomic);
        /// a power loss may leave the file empty or damaged on a filesystem that does not write data before the
        /// rename that follows it (ext4 does, but not for the large files whose blocks `reserveBlocks` reserves).
        /// For `plan.json`, output that `nudge run` never reads back and rewrites every minute, where a flush
        /// would be a large part of a run's time; and for the channel notes,
        /// which a power loss makes moot (the boot id changes).
        case derived
    }

    /// Replaces `path` with `data`, in a new file of permission bits `mode` (0600 for the files nudge owns: they
    /// hold personal data).
    static func write(_ data: [UInt8], to path: String, durability: Durability = .durable,
                      mode: mode_t = 0o600) throws {
        if durability != .durable && patchInPlace(data, at: path) { return }
        let parent = FilePath.parent(of: path)
        let directory = parent.isEmpty ? "." : parent
        let temporary = directory + "/." + FilePath.lastComponent(of: path) + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create", temporary) }
        var ok = fchmod(descriptor, mode) == 0
        if durability == .derived { reserveBlocks(descriptor, count: data.count) }
        ok = ok && writeAll(descriptor, data)
        ok = ok && (durability == .derived || fsync(descriptor) == 0)
        let closed = close(descriptor) == 0
        guard ok, closed else {
            let error = failure("cannot write", temporary)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot replace", path)
            unlink(temporary)
            throw error
        }
        if durability == .durable { syncDirectory(directory) }
    }

    /// The largest file `patchInPlace` reads back to compare: beyond it, reading costs more than the write saves,
    /// and a large plan changes in many places each minute anyway (10,000 alarms ring seven to the minute).
    static let patchLimit = 64 << 10

    /// Gives the file `data` by overwriting, in place, the bytes that differ from its current content, when they
    /// all lie in one 512-byte sector of a regular file of the same length, mode 0600 and one link. Returns false,
    /// having changed nothing, when the file is not like that; the caller then writes it whole.
    ///
    /// Why it is safe where the caller accepts the old content after a power loss: a process killed in a write of
    /// a few bytes within one page leaves all or none of them, and disks write a 512-byte sector whole or not at
    /// all (PostgreSQL keeps pg_control within one sector on the same ground), so the file is old or new, never
    /// torn. Why it pays: writing and renaming a new file makes ext4 allocate and write it inside the rename, and
    /// state.json's flush waits for the disk; a quiet run, whose files change only in their time stamps
    /// (`lastRunAt`, `generatedAt`), spent two thirds of its time there (0.3–0.8 ms a file). A lock-free reader
    /// (`nudge plan`) may in theory read a time stamp half old, half new; the run's lock keeps every other
    /// writer out.
    static func patchInPlace(_ data: [UInt8], at path: String) -> Bool {
        guard data.count <= patchLimit else { return false }
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1,
              status.st_mode & 0o7777 == 0o600, status.st_size == off_t(data.count) else { return false }
        var current = [UInt8](repeating: 0, count: data.count)
        guard readAll(descriptor, into: &current) else { return false }
        guard let (first, last) = differingRange(data, current) else { return true }
        guard first / 512 == last / 512 else { return false }
        let count = last - first + 1
        let written = data.withUnsafeBufferPointer { buffer in
            pwrite(descriptor, buffer.baseAddress! + first, count, off_t(first))
        }
        // A short or failed write leaves the file old or partly patched: the caller's whole write replaces it.
        return written == count
    }

    /// The first and last index at which two arrays of the same length differ; nil when they are equal. Compares
    /// eight bytes at a time: every quiet run compares its two files whole.
    static func differingRange(_ new: [UInt8], _ old: [UInt8]) -> (Int, Int)? {
        precondition(new.count == old.count)
        return new.withUnsafeBytes { new in
            old.withUnsafeBytes { old -> (Int, Int)? in
                func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
                    bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                }
                let count = new.count
                var first = 0
                while first + 8 <= count && word(new, first) == word(old, first) { first += 8 }
                while first < count && new[first] == old[first] { first += 1 }
                guard first < count else { return nil }
                var end = count
                while end - 8 >= first && word(new, end - 8) == word(old, end - 8) { end -= 8 }
                while new[end - 1] == old[end - 1] { end -= 1 }
                return (first, end - 1)
            }
        }
    }

    /// Reads the file from its start to fill `buffer`; false if it is shorter or cannot be read.
    private static func readAll(_ descriptor: Int32, into buffer: inout [UInt8]) -> Bool {
        buffer.withUnsafeMutableBufferPointer { target -> Bool in
            var offset = 0
            while offset < target.count {
                let count = pread(descriptor, target.baseAddress! + offset, target.count - offset, off_t(offset))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// Reserves the blocks of a large file that is not flushed before its rename. ext4 leaves freshly written
    /// blocks unallocated until writeback, and when such a file is renamed over another it allocates and writes
    /// them out at once (`auto_da_alloc`, its guard against empty files after a power loss, which `derived` does
    /// not ask for), a visible part of a run that writes megabytes. Reserved blocks leave it nothing to do; the
    /// data is written back in the background as usual. Below a megabyte the reservation's own journal entry
    /// costs more than it saves.
    /// Where the filesystem cannot reserve, glibc writes the blocks instead; either way the result is not needed.
    private static func reserveBlocks(_ descriptor: Int32, count: Int) {
        guard count >= 1 << 20 else { return }
        _ = posix_fallocate(descriptor, 0, off_t(count))
    }

    /// Writes every byte, retrying short writes and interrupted calls.
    static func writeAll(_ descriptor: Int32, _ data: [UInt8]) -> Bool {
        data.withUnsafeBufferPointer { buffer -> Bool in
            guard var pointer = buffer.baseAddress else { return true }
            var remaining = buffer.count
            while remaining > 0 {
                let written = Glibc.write(descriptor, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                remaining -= written
                pointer += written
            }
            return true
        }
    }

    /// Makes a rename durable: without it a power loss can forget the directory entry.
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    static func failure(_ what: String, _ path: String) -> CLIError {
        CLIError.cannotWrite("nudge: \(what) \(path): \(String(cString: strerror(errno)))")
    }
}
