import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The notes of started channel programs (`ChannelStart`) in `.channel-starts/` of the data directory, and what
/// the shell knows about their processes: this boot's id, and whether a process is still the one noted.
final class ChannelProgram {
    static let directoryName = ".channel-starts"

    let directory: DataDirectory
    /// The ids queued when state.json was read: only their programs can have been started by an earlier run.
    let queuedEarlier: Set<String>
    var notesPath: String { directory.notesPath(Self.directoryName) }
    /// The notes that running `nudge channel-exec` processes write, found once, when first needed.
    private lazy var startingNotes: Set<String> = Self.notesOfRunningStarts()

    init(directory: DataDirectory, queuedEarlier: Set<String> = []) {
        self.directory = directory
        self.queuedEarlier = queuedEarlier
    }

    /// `/proc/sys/kernel/random/boot_id`, read once; nil where /proc is missing (programs then start directly,
    /// without notes).
    static let bootID: String? = {
        guard case .success(let data) = PosixFile.contents(of: "/proc/sys/kernel/random/boot_id") else {
            return nil
        }
        return String(decoding: data, as: UTF8.self).trimmingWhitespace
    }()

    /// What an earlier run's start of `attempt`'s `channel` leaves this run to do.
    enum EarlierStart: Equatable {
        /// None, or one to start again: start the program.
        case none
        /// Still on its way or within its time: leave it for a later run.
        case stillGoing
        /// It ended: record this (nil: delivered).
        case ended(String?)
    }

    func earlierStart(_ attempt: QueuedDelivery, _ channel: DeliveryChannel) -> EarlierStart {
        let id = attempt.delivery.notification.id
        guard queuedEarlier.contains(id), let bootID = Self.bootID else { return .none }
        let path = notePath(attempt, channel)
        if access(path, F_OK) != 0 {
            // A run killed right after it started `nudge channel-exec` can be followed by this one before that
            // process wrote its note: wait for it while it is on its way, and leave it alone if it takes long.
            guard startingNotes.contains(path) else { return .none }
            let deadline = Deadline(after: 2)
            while access(path, F_OK) != 0 && !deadline.hasPassed { usleep(2_000) }
            if access(path, F_OK) != 0 { return .stillGoing }
        }
        guard case .success(let data) = PosixFile.contents(of: path),
              let start = ChannelStart(fileContent: data), start.concerns(attempt), start.channel == channel else {
            return .none
        }
        let runningFor = Self.secondsRunning(start)
        switch start.fate(bootID: bootID, isRunning: Self.isRunning(start), runningFor: runningFor) {
        case .running:
            return .stillGoing
        case .succeeded:
            return .ended(nil)
        case .failed(let reason):
            return .ended(reason + " (the run that started it had stopped)")
        case .overdue:
            kill(-start.pid, SIGKILL)
            return .ended("it did not finish within \(Int(start.limit ?? 0)) s and was stopped (the run that "
                + "started it had stopped)")
        case .startAgain:
            unlink(path)
            return .none
        }
    }

    /// The note's path for a start of `channel` for `attempt`.
    func notePath(_ attempt: QueuedDelivery, _ channel: DeliveryChannel) -> String {
        notesPath + "/" + ChannelStart.noteName(id: attempt.delivery.notification.id, channel: channel,
                                                attempts: attempt.attempts)
    }

    /// `arguments` started through `nudge channel-exec`, which notes the start and the outcome (`limit`: how
    /// long the program may run; nil for the click waiter). Without /proc, or when the note's directory cannot
    /// be made, the program is started directly, as before notes existed.
    func wrapped(_ arguments: [String], for attempt: QueuedDelivery, _ channel: DeliveryChannel,
                 limit: TimeInterval?) -> [String] {
        guard Self.bootID != nil, let nudge = DesktopChannel.executablePath(),
              mkdir(notesPath, 0o700) == 0 || errno == EEXIST else { return arguments }
        var wrapper = [nudge, HelperCommands.channelExec, "--note", notePath(attempt, channel),
                       "--id", attempt.delivery.notification.id, "--channel", channel.rawValue,
                       "--attempts", String(attempt.attempts)]
        if let limit { wrapper += ["--limit", String(Int(limit.rounded(.up)))] }
        return wrapper + ["--"] + arguments
    }

    /// After state.json was saved with the outcome of a `ChannelQueueRunner.deliver`: removes the notes that the
    /// state now records (those no longer about a queued delivery as it stands). In this order, a run that dies
    /// in between leaves notes that the next run finds already recorded, which it ignores.
    func removeNotes(notConcerning queue: [QueuedDelivery]) {
        for name in PosixFile.names(in: notesPath) where name != "." && name != ".." {
            let path = notesPath + "/" + name
            if case .success(let data) = PosixFile.contents(of: path), let start = ChannelStart(fileContent: data),
               queue.contains(where: start.concerns) {
                continue
            }
            unlink(path)
        }
    }

    /// The `--note` paths of every running `nudge channel-exec` (one pass over /proc).
    private static func notesOfRunningStarts() -> Set<String> {
        var notes: Set<String> = []
        for name in PosixFile.names(in: "/proc") where name.first?.isNumber == true {
            guard case .success(let cmdline) = PosixFile.contents(of: "/proc/\(name)/cmdline") else { continue }
            let words = cmdline.split(separator: 0, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            guard words.count > 2, words[1] == HelperCommands.channelExec,
                  let index = words.firstIndex(of: "--note"), index + 1 < words.count else { continue }
            notes.insert(words[index + 1])
        }
        return notes
    }

    /// Whether the noted process is still there: its pid alive with the same start time, and not a zombie.
    static func isRunning(_ start: ChannelStart) -> Bool {
        guard let (startTime, state) = stat(of: start.pid) else { return false }
        return startTime == start.startTime && state != "Z"
    }

    /// The start time and state letter of process `pid` from `/proc/PID/stat` (`pid (comm) S … starttime …`).
    /// How long the noted process has run: the boot clock now less its start (`startTime`, clock ticks after
    /// boot), so that a step of the real time neither stops it early nor lets it run longer (docs/design.md,
    /// "Deadlines").
    static func secondsRunning(_ start: ChannelStart) -> TimeInterval {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - Double(start.startTime) / ticks
    }

    static func stat(of pid: Int32) -> (startTime: Int, state: Character)? {
        guard case .success(let data) = PosixFile.contents(of: "/proc/\(pid)/stat"),
              let close = data.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After the command name: state is field 3, starttime field 22.
        let fields = data[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19, let state = fields[0].first,
              let startTime = Int(String(decoding: fields[19], as: UTF8.self)) else { return nil }
        return (startTime, Character(UnicodeScalar(state)))
    }
}
