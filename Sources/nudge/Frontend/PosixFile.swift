import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reading files and folders with POSIX calls: the data directory's files, and `/proc` for the shell's process
/// bookkeeping. Not `String(contentsOfFile:)`: that one call links FoundationEssentials' file, path and `Data`
/// code into the static binary, which nudge otherwise leaves out.
enum PosixFile {
    /// Why a file could not be read: errno and its text.
    struct ReadError: Error {
        let code: Int32
        var reason: String { String(cString: strerror(code)) }
    }

    /// A whole file, read with open/fstat/read (retrying short reads and interruptions).
    static func contents(of path: String) -> Result<[UInt8], ReadError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(ReadError(code: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(ReadError(code: errno)) }
        guard info.st_mode & S_IFMT != S_IFDIR else { return .failure(ReadError(code: EISDIR)) }
        // Read straight into the array that is returned: copying from a second buffer held a large file twice.
        // One byte more than the size, so a file that grew while it was read is still read to its end.
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, count))) }
            let got = bytes.withUnsafeMutableBufferPointer { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                return .failure(ReadError(code: errno))
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        return .success(bytes)
    }

    /// The names of a folder's entries (with `.` and `..`); empty when it cannot be read.
    static func names(in folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            })
        }
        return names
    }
}
