import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Writes files so that a crash at any instant leaves either the old or the new content, never a torn file:
/// a temporary file in the same directory, written, flushed to disk, renamed over the target, and (when the
/// new content must survive a power loss) the directory flushed too. Mode 0600: the files hold personal data.
/// The one exception, `derived`, is for output nothing reads back.
enum AtomicFile {
    /// What a power loss right after the write may do.
    enum Durability {
        /// The new content survives: the directory is flushed after the rename. For what a person changed.
        case durable
        /// Either the old or the new content survives, each complete: the file is flushed before the rename, the
        /// directory is not. For files every run rewrites anyway; it saves a quarter of a millisecond per file.
        case oldOrNew
        /// Nothing is flushed. A crashed process still leaves the old or the new content (the rename is atomic);
        /// a power loss may leave the file empty or damaged on a filesystem that does not write data before the
        /// rename that follows it (ext4 does, but not for the large files whose blocks `reserveBlocks` reserves).
        /// For `plan.json`, output that `nudge run` never reads back and rewrites every minute, where the flush
        /// was a sixth of a run's time (0.55 ms; 4 ms for a plan of 10,000 records); and for the channel notes,
        /// which a power loss makes moot (the boot id changes).
        case derived
    }

    static func write(_ data: [UInt8], to path: String, durability: Durability = .durable) throws {
        let parent = FilePath.parent(of: path)
        let directory = parent.isEmpty ? "." : parent
        let temporary = directory + "/." + FilePath.lastComponent(of: path) + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create", temporary) }
        var ok = fchmod(descriptor, 0o600) == 0
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

    /// Reserves the blocks of a large file that is not flushed before its rename. ext4 leaves freshly written
    /// blocks unallocated until writeback, and when such a file is renamed over another it allocates and writes
    /// them out at once (`auto_da_alloc`, its guard against empty files after a power loss, which `derived` does
    /// not ask for): 4 ms of every run for a 5 MB plan of 10,000 records, a sixth of the run. Reserved blocks
    /// leave it nothing to do; the data is written back in the background as usual. Below a megabyte the
    /// reservation's own journal entry cost more than it saved (a household's 7 kB plan: 1.6 → 1.9 ms a run).
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
