import Foundation

/// A channel program (notify-send, `deliver.command`) started for a queued delivery (SPEC §7: every channel gets
/// each delivery exactly once in the end).
///
/// nudge starts the program through itself (`nudge channel-exec`), which writes this note and then becomes the
/// program: so the note exists whenever the program ran, even when the run that started it died at once. The
/// program runs in a process group of its own and goes on to its end when the run dies. The next run reads the
/// note before it starts anything: a program that was started is not started a second time. Only a restart of
/// the machine (another boot id) can have stopped it before it did its work; then it is started again.
public struct ChannelStart: Equatable, Sendable {
    /// The delivery's occurrence id.
    public var id: String
    public var channel: DeliveryChannel
    /// The delivery's failed attempts when it was started: a note from before a recorded failure is history.
    public var attempts: Int
    public var pid: Int32
    /// The process's start time (clock ticks after boot, `/proc/PID/stat`), which tells it from a later process
    /// that got the same pid.
    public var startTime: Int
    /// `/proc/sys/kernel/random/boot_id` when it was started.
    public var bootID: String

    public init(id: String, channel: DeliveryChannel, attempts: Int, pid: Int32, startTime: Int, bootID: String) {
        self.id = id
        self.channel = channel
        self.attempts = attempts
        self.pid = pid
        self.startTime = startTime
        self.bootID = bootID
    }

    /// What the next run makes of a start it finds.
    public enum Fate: Equatable, Sendable {
        /// Still running: leave it alone for now.
        case running
        /// Ended unwatched on this boot: it had its whole run, so the delivery counts as shown.
        case finished
        /// The machine restarted since: it may never have done its work, so it is started again.
        case lostWithTheMachine
    }

    /// `isRunning` says whether the process is still there; `bootID` is the current boot's.
    public func fate(bootID current: String, isRunning: Bool) -> Fate {
        guard current == bootID else { return .lostWithTheMachine }
        return isRunning ? .running : .finished
    }

    /// Whether this note is about `attempt`'s `channel` as the queue holds it now: same delivery, channel still
    /// owed, no failure recorded since.
    public func concerns(_ attempt: CommandAttempt) -> Bool {
        id == attempt.delivery.notification.id && attempts == attempt.attempts && attempt.channels.contains(channel)
    }

    /// The note's file name for a start of `channel` for `attempt`: the same for every run until the outcome is
    /// recorded, so the next run finds it without a listing.
    public static func noteName(id: String, channel: DeliveryChannel, attempts: Int) -> String {
        ContentHash.of(Data("\(id)\n\(channel.rawValue)\n\(attempts)".utf8))
    }

    /// The note's content.
    public var fileContent: Data {
        Data((JSONValue.object([
            JSONMember("id", .string(id)),
            JSONMember("channel", .string(channel.rawValue)),
            JSONMember("attempts", .number(String(attempts))),
            JSONMember("pid", .number(String(pid))),
            JSONMember("startTime", .number(String(startTime))),
            JSONMember("bootID", .string(bootID)),
        ]).compactText + "\n").utf8)
    }

    /// A note's start; nil for a file that does not read (notes are not flushed: after a power loss one may be
    /// damaged, and the boot id has changed then anyway).
    public init?(fileContent data: Data) {
        guard let value = try? JSONParser.parse(data),
              let id = value["id"]?.stringValue,
              let channel = value["channel"]?.stringValue.flatMap(DeliveryChannel.init(rawValue:)),
              let attempts = value["attempts"]?.intValue, let pid = value["pid"]?.intValue.flatMap(Int32.init(exactly:)),
              let startTime = value["startTime"]?.intValue, let bootID = value["bootID"]?.stringValue else { return nil }
        self.init(id: id, channel: channel, attempts: attempts, pid: pid, startTime: startTime, bootID: bootID)
    }
}
