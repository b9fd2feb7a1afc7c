import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A wall clock that a test steps while nudge runs, as NTP or `date -s` steps the machine's: libfaketime
/// (Debian's `libfaketime`, which `faketime` brings) preloaded into nudge, reading the offset from a file that the
/// test rewrites, at every reading (`FAKETIME_TIMESTAMP_FILE`, `FAKETIME_NO_CACHE=1`). The monotonic clock is left
/// alone (`FAKETIME_DONT_FAKE_MONOTONIC=1`), as a real step leaves it, and so are the times of files
/// (`NO_FAKE_STAT`). The programs nudge starts inherit the clock with its environment.
///
/// A static binary ignores LD_PRELOAD. When `NUDGE_TEST_BINARY` names one (the release pass of `.ci/run`), the build
/// next to the tests (there made from the same sources) runs on this clock instead, and the test says so; and
/// `requireLoaded(in:)` fails a test whose nudge did not load the library: none passes on a clock it could not step.
final class SteppedClock {
    struct NotLoaded: Error, CustomStringConvertible {
        let description: String
    }

    let library: String
    private let directory: URL
    private var offsetFile: URL { directory.appendingPathComponent("offset") }
    private var started: [NudgeProcess] = []

    init() throws {
        guard let library = Self.findLibrary() else {
            throw RealPart.missing("libfaketime is not installed (Debian: apt install faketime); .ci/run installs it")
        }
        self.library = library
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nudge-clock-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try step(to: 0)
    }

    /// What puts a process on this clock.
    var environment: [String: String] {
        [
            "LD_PRELOAD": library,
            "FAKETIME_TIMESTAMP_FILE": offsetFile.path,
            "FAKETIME_NO_CACHE": "1",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            "NO_FAKE_STAT": "1",
            // When it is missing, libfaketime's constructor adds it with setenv, which moves `environ` off the
            // process's first stack, where the Swift runtime looks for argv: nudge would see no arguments. Given
            // (naming no semaphore), it is replaced in place.
            "FAKETIME_SHARED": "/nudge-test-none /nudge-test-none",
        ]
    }

    /// Steps the clock to `seconds` from the real time (negative: behind it). The file is replaced whole, so a
    /// reading never finds it half written.
    func step(to seconds: Int) throws {
        try Data("\(seconds < 0 ? "-" : "+")\(abs(seconds))\n".utf8).write(to: offsetFile, options: .atomic)
    }

    /// Starts `nudge ARGUMENTS` on this clock, as `NudgeProcess` starts it.
    func start(_ arguments: [String], workingDirectory: URL, environment extra: [String: String] = [:]) throws
        -> NudgeProcess {
        let process = try NudgeProcess(arguments, workingDirectory: workingDirectory,
                                       environment: extra.merging(environment) { $1 },
                                       executable: try Self.executableURL())
        started.append(process)
        return process
    }

    /// Throws unless the running `process` has the library loaded: only then can its clock be stepped.
    func requireLoaded(in process: NudgeProcess) throws {
        // Read to the end: FileManager's `contents(atPath:)` stops after the first 4 kB of a /proc file.
        let maps = FileHandle(forReadingAtPath: "/proc/\(process.pid)/maps")?.readDataToEndOfFile() ?? Data()
        guard String(decoding: maps, as: UTF8.self).contains(library) else {
            throw NotLoaded(description: "nudge (pid \(process.pid), running: \(process.isRunning)) has not loaded "
                + "\(library): its clock cannot be stepped, and the test would show nothing")
        }
    }

    /// Stops each nudge started here that still runs (a test that failed early), and removes the offset file and
    /// the semaphore and shared memory that libfaketime made for each (it removes them itself at a normal exit,
    /// not when the process is killed).
    func remove() {
        for process in started {
            if process.isRunning { process.kill() }
            unlink("/dev/shm/faketime_shm_\(process.pid)")
            unlink("/dev/shm/sem.faketime_sem_\(process.pid)")
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// `NUDGE_TEST_BINARY` (or the build next to the tests) when it is dynamically linked; else the build next to
    /// the tests, which must be.
    static func executableURL() throws -> URL {
        let chosen = try NudgeProcess.executableURL()
        if try isDynamicallyLinked(chosen) { return chosen }
        let built = try NudgeProcess.builtExecutableURL()
        guard try isDynamicallyLinked(built) else {
            throw NotLoaded(description: "\(chosen.path) and \(built.path) are statically linked: no clock of "
                + "theirs can be stepped with libfaketime")
        }
        print("note: \(chosen.path) is statically linked and ignores LD_PRELOAD; the clock is stepped in "
            + "\(built.path), the build next to the tests")
        return built
    }

    /// Whether the ELF file names a program interpreter (a `PT_INTERP` program header): a static binary has none.
    static func isDynamicallyLinked(_ url: URL) throws -> Bool {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let header = [UInt8](try handle.read(upToCount: 64) ?? Data())
        // 64-bit little-endian ELF only: what this project builds.
        guard header.count == 64, header[0..<4] == [0x7f, 0x45, 0x4c, 0x46], header[4] == 2, header[5] == 1 else {
            throw NotLoaded(description: "\(url.path) is not a 64-bit little-endian ELF file")
        }
        func integer(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reversed().reduce(0) { $0 << 8 | Int($1) } }
        let offset = integer(header[32..<40]), entrySize = integer(header[54..<56]), count = integer(header[56..<58])
        try handle.seek(toOffset: UInt64(offset))
        let table = [UInt8](try handle.read(upToCount: entrySize * count) ?? Data())
        let programInterpreter = 3
        return stride(from: 0, to: table.count - 3, by: entrySize).contains {
            integer(table[$0..<$0 + 4]) == programInterpreter
        }
    }

    /// libfaketime.so.1 under /usr/lib/ARCH-TRIPLET/faketime (Debian's place) or /usr/lib/faketime.
    private static func findLibrary() -> String? {
        let triplets = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).sorted()
        return (triplets.map { "/usr/lib/\($0)/faketime/libfaketime.so.1" } + ["/usr/lib/faketime/libfaketime.so.1"])
            .first { FileManager.default.fileExists(atPath: $0) }
    }
}
