import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The changes of the files an action reads, as the kernel reports them (inotify): the user files in the data
/// directory, state.json where nudge's own files are, and, for a user file that is a symbolic link, the folder of
/// its target. A waiter whose
/// click found a file broken sleeps on it until a file changes (docs/desktop.md, "A click that cannot be applied
/// at once"): no wakeup in between.
///
/// Watching starts when it is made, so a change made after that and before `wait` is not missed. Every run
/// rewrites state.json, so a waiter with a pending click wakes once per run besides the edits it waits for.
final class DirectoryChanges {
    /// What ends a file's change: written and closed, moved or linked in, removed, its mode changed.
    private static let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)

    /// The inotify descriptor (non-blocking), readable when an event is there: a waiter sleeps on it and the bus.
    let descriptor: Int32
    /// The names whose events count.
    private let names: Set<String>

    /// Starts watching; nil when the kernel refuses (no inotify, too many watches).
    init?(_ directory: DataDirectory) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        var names: Set<String> = ["state.json"]
        // state.json is among nudge's own files: in the state directory of the default data directory.
        var folders: Set<String> = [directory.path, directory.statePath]
        for file in UserFile.allCases {
            names.insert(file.fileName)
            if case .success(.linked(let target)) = SymbolicLink.resolve(directory.path(of: file)) {
                names.insert(FilePath.lastComponent(of: target))
                folders.insert(FilePath.parent(of: target))
            }
        }
        self.names = names
        for folder in folders.sorted() {
            let watched = inotify_add_watch(descriptor, folder, Self.events) >= 0
            // A target's folder that cannot be watched only costs that file's wakeups; the data directory's, all.
            if !watched && folder == directory.path {
                close(descriptor)
                return nil
            }
        }
    }

    deinit { close(descriptor) }

    /// Sleeps until one of the watched files changed (since this was made, or since the last call that saw a
    /// change), `deadline` passes or `isInterrupted` says so after a signal: true for a change.
    func wait(until deadline: Deadline, isInterrupted: () -> Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !deadline.hasPassed && !isInterrupted() {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(deadline.remaining, 3600) * 1000) + 1)
            guard ready > 0 else { continue }
            let got = read(descriptor, &buffer, buffer.count)
            guard got > 0 else { continue }
            if eventNames(buffer[..<got]).contains(where: names.contains) { return true }
        }
        return false
    }

    /// Reads the events that are there without waiting: true when one of them is a watched file's.
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var changed = false
        while true {
            let got = read(descriptor, &buffer, buffer.count)
            guard got > 0 else { return changed }
            if eventNames(buffer[..<got]).contains(where: names.contains) { changed = true }
        }
    }

    /// The file names of the events in `bytes`: each event is `wd`, `mask`, `cookie`, `len` (32 bits each), then
    /// `len` bytes of name padded with zeros.
    private func eventNames(_ bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        while offset + 16 <= bytes.endIndex {
            let length = bytes[(offset + 12)..<(offset + 16)].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            let name = bytes[(offset + 16)..<min(offset + 16 + length, bytes.endIndex)].prefix { $0 != 0 }
            names.append(String(decoding: name, as: UTF8.self))
            offset += 16 + length
        }
        return names
    }
}
