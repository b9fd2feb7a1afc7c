import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `outbox.jsonl`, the append-only log of deliveries. Appends are flushed to disk before state.json records
/// them, so after a crash the outbox is the truth (see `OutboxRecovery`).
struct OutboxFile {
    let path: String

    /// The file's length in bytes; 0 when it is missing.
    func size() -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The bytes from `offset` to the end; empty when the file is missing or no longer than `offset`.
    func tail(from offset: Int) throws -> [UInt8] {
        guard let bytes = try Self.bytes(of: path, from: offset, to: nil) else { return [] }
        return bytes
    }

    /// The bytes of the file at `path` from `start` up to `end` (nil: its end), fewer when it is shorter; nil
    /// when the file is missing.
    static func bytes(of path: String, from start: Int, to end: Int?) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw AtomicFile.failure("cannot open", path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw AtomicFile.failure("cannot read", path) }
        let last = min(end ?? Int(info.st_size), Int(info.st_size))
        var data = [UInt8](repeating: 0, count: max(last - start, 0))
        var count = 0
        while count < data.count {
            let got = data.withUnsafeMutableBufferPointer { buffer in
                pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(start + count))
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw AtomicFile.failure("cannot read", path) }
            if got == 0 { break }
            count += got
        }
        data.removeLast(data.count - count)
        return data
    }

    /// Cuts a torn last line left by a run that died mid-append.
    func truncate(to length: Int) throws {
        guard Glibc.truncate(path, off_t(length)) == 0 else {
            throw AtomicFile.failure("cannot truncate", path)
        }
    }

    /// Appends the lines in one write and flushes them to disk; the directory too when this creates the file.
    func append(_ text: String) throws {
        let created = access(path, F_OK) != 0
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AtomicFile.failure("cannot open", path) }
        defer { close(descriptor) }
        guard AtomicFile.writeAll(descriptor, Array(text.utf8)), fsync(descriptor) == 0 else {
            throw AtomicFile.failure("cannot append to", path)
        }
        if created { AtomicFile.syncDirectory(FilePath.parent(of: path)) }
    }
}
