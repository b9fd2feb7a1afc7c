import Foundation
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The files of one data directory (SPEC §1). The only place that knows their names on disk.
struct DataDirectory {
    let url: URL

    var path: String { url.path }
    var lastGoodDirectory: URL { url.appendingPathComponent(".last-good") }

    func fileURL(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Fails with a clear message when the directory is missing, so cron mails something useful.
    func requireExists() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError.failure("nudge: no data directory at \(path) (create one with `nudge init \(path)`, "
                + "or pass --data DIR)")
        }
    }

    /// The file's bytes, or nil when it does not exist.
    func read(_ name: String) throws -> Data? {
        let fileURL = fileURL(name)
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        do {
            return try Data(contentsOf: fileURL)
        } catch {
            throw CLIError.failure("nudge: cannot read \(fileURL.path): \(error.localizedDescription)")
        }
    }

    /// Every user file that exists, and those that exist but cannot be read with the reason: one unreadable
    /// file must not silence the others (SPEC §8).
    func userFiles() -> (files: [UserFile: Data], unreadable: [UserFile: String]) {
        var files: [UserFile: Data] = [:]
        var unreadable: [UserFile: String] = [:]
        for file in UserFile.allCases {
            let path = fileURL(file.fileName).path
            var info = stat()
            guard stat(path, &info) == 0 else {
                if errno != ENOENT { unreadable[file] = String(cString: strerror(errno)) }
                continue
            }
            guard info.st_mode & S_IFMT == S_IFREG else {
                unreadable[file] = info.st_mode & S_IFMT == S_IFDIR ? "it is a directory" : "it is not a regular file"
                continue
            }
            do {
                files[file] = try Data(contentsOf: fileURL(file.fileName))
            } catch {
                unreadable[file] = access(path, R_OK) == 0 ? error.localizedDescription
                                                           : String(cString: strerror(errno))
            }
        }
        return (files, unreadable)
    }

    /// Removes the temporary files of a run that was killed before it could rename them. Call only while
    /// holding the lock: then no other nudge can be writing one.
    func removeStaleTemporaryFiles() {
        for folder in [url, lastGoodDirectory] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where name.hasPrefix(".") && name.contains(".tmp-") {
                unlink(folder.appendingPathComponent(name).path)
            }
        }
    }

    /// The saved last good copies of the given files (those that have one).
    func lastGoodCopies(_ files: [UserFile]) -> [UserFile: Data] {
        var copies: [UserFile: Data] = [:]
        for file in files {
            copies[file] = try? Data(contentsOf: lastGoodDirectory.appendingPathComponent(file.fileName))
        }
        return copies
    }

    func saveLastGood(_ file: UserFile, _ data: Data) throws {
        if !FileManager.default.fileExists(atPath: lastGoodDirectory.path) {
            guard mkdir(lastGoodDirectory.path, 0o700) == 0 || errno == EEXIST else {
                throw AtomicFile.failure("cannot create", lastGoodDirectory.path)
            }
        }
        try AtomicFile.write(data, to: lastGoodDirectory.appendingPathComponent(file.fileName))
    }

    /// The previous run's state; nil before the first run. A damaged state.json stops the command (exit 65):
    /// guessing could deliver something twice.
    func loadState() throws -> RunState? {
        guard let data = try read("state.json") else { return nil }
        switch RunState.decode(data) {
        case .success(let state):
            return state
        case .failure(let problem):
            throw CLIError.badData(["\(path)/\(problem)",
                                    "nudge: state.json is written by nudge; restore it, or move it away to start "
                                        + "afresh (past notifications are then not repeated)"])
        }
    }

    /// settings.json as it is (or its defaults when missing or broken): for zone and texts in messages.
    func userSettings() -> Settings {
        guard let data = try? read(UserFile.settings.fileName) else { return Settings() }
        return UserFileDecoder.settings(data).0 ?? Settings()
    }

    func write(_ name: String, _ data: Data, durability: AtomicFile.Durability = .durable) throws {
        try AtomicFile.write(data, to: fileURL(name), durability: durability)
    }
}
