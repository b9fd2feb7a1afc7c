import Foundation
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The notes of started channel programs (`ChannelStart`) in `.channel-starts/` of the data directory, and what
/// the shell knows about their processes: this boot's id, and whether a process is still the one noted.
struct ChannelProgram {
    static let directoryName = ".channel-starts"

    let directory: DataDirectory
    var notesPath: String { directory.filePath(Self.directoryName) }

    /// `/proc/sys/kernel/random/boot_id`, read once; a fixed text where /proc is missing.
    static let bootID: String = {
        guard case .success(let data) = DataDirectory.contents(of: "/proc/sys/kernel/random/boot_id") else {
            return "unknown"
        }
        return String(decoding: data, as: UTF8.self).trimmingWhitespace
    }()

    /// The note's path for a start of `channel` for `attempt`.
    func notePath(_ attempt: CommandAttempt, _ channel: DeliveryChannel) -> String {
        notesPath + "/" + ChannelStart.noteName(id: attempt.delivery.notification.id, channel: channel,
                                                attempts: attempt.attempts)
    }

    /// The start noted for `attempt`'s `channel`, if a program was started for it and its outcome is not recorded.
    ///
    /// A run killed the instant after it started `nudge channel-exec` can be followed by the next run before that
    /// process wrote its note. So for a delivery queued by an earlier run, a missing note is waited for while a
    /// `channel-exec` for it is still on its way (up to 2 s).
    func noted(_ attempt: CommandAttempt, _ channel: DeliveryChannel, queuedEarlier: Bool) -> ChannelStart? {
        let path = notePath(attempt, channel)
        if queuedEarlier, access(path, F_OK) != 0 {
            let deadline = Date().addingTimeInterval(2)
            while access(path, F_OK) != 0, Self.isStarting(note: path), Date() < deadline { usleep(2_000) }
        }
        guard case .success(let data) = DataDirectory.contents(of: path),
              let start = ChannelStart(fileContent: data), start.concerns(attempt), start.channel == channel else {
            return nil
        }
        return start
    }

    /// `arguments` started through `nudge channel-exec`, which notes the start before it becomes the program.
    func wrapped(_ arguments: [String], for attempt: CommandAttempt, _ channel: DeliveryChannel) -> [String]? {
        guard let nudge = DesktopChannel.executablePath() else { return nil }
        if mkdir(notesPath, 0o700) != 0 && errno != EEXIST { return nil }
        return [nudge, ChannelExecCommand.command.name, "--note", notePath(attempt, channel),
                "--id", attempt.delivery.notification.id, "--channel", channel.rawValue,
                "--attempts", String(attempt.attempts), "--"] + arguments
    }

    /// After state.json was saved with the outcome of a `Channels.deliverQueued`: removes the notes that the
    /// state now records (those no longer about a queued delivery as it stands). In this order, a run that dies
    /// in between leaves notes that the next run finds already recorded, which it ignores.
    func settle(queue: [CommandAttempt]) {
        let names = DataDirectory.names(in: notesPath)
        guard !names.isEmpty else { return }
        for name in names {
            let path = notesPath + "/" + name
            if case .success(let data) = DataDirectory.contents(of: path), let start = ChannelStart(fileContent: data),
               queue.contains(where: start.concerns) {
                continue
            }
            unlink(path)
        }
    }

    /// Whether a `nudge channel-exec` that is to write `note` is running and has not become its program yet.
    static func isStarting(note: String) -> Bool {
        let marker = Array(("--note\0" + note + "\0").utf8)
        for name in DataDirectory.names(in: "/proc") where name.first?.isNumber == true {
            guard case .success(let cmdline) = DataDirectory.contents(of: "/proc/\(name)/cmdline") else { continue }
            if cmdline.count >= marker.count, cmdline.range(of: Data(marker)) != nil { return true }
        }
        return false
    }

    /// Whether the noted process is still there: its pid alive with the same start time, and not a zombie.
    static func isRunning(_ start: ChannelStart) -> Bool {
        guard let (startTime, state) = stat(of: start.pid) else { return false }
        return startTime == start.startTime && state != "Z"
    }

    /// The start time and state letter of process `pid` from `/proc/PID/stat` (`pid (comm) S … starttime …`).
    static func stat(of pid: Int32) -> (startTime: Int, state: Character)? {
        guard case .success(let data) = DataDirectory.contents(of: "/proc/\(pid)/stat"),
              let close = data.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After the command name: state is field 3, starttime field 22.
        let fields = data[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19, let state = fields[0].first,
              let startTime = Int(String(decoding: fields[19], as: UTF8.self)) else { return nil }
        return (startTime, Character(UnicodeScalar(state)))
    }
}
