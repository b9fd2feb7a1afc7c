import FoundationEssentials

/// A channel program (the desktop's waiter, `deliver.command`) started for a queued delivery (docs/promises.md:
/// every channel gets each delivery exactly once in the end).
///
/// nudge starts the program through itself (`nudge channel-exec`), which writes this note, runs the program in
/// its own process group, and writes the program's outcome into the note when it ends. So the note exists
/// whenever the program ran, even when the run that started it died at once, and it tells the next run how it
/// went: that run records the outcome instead of starting the program a second time, stops a program that
/// outlived its time limit, and starts it again only when the machine restarted meanwhile or the note's process
/// vanished without an outcome.
public struct ChannelStart: Equatable, Sendable {
    /// The delivery's occurrence id.
    var id: String
    public var channel: DeliveryChannel
    /// The delivery's failed attempts when it was started: a note from before a recorded failure is history.
    var attempts: Int
    /// `nudge channel-exec`'s pid, the leader of the program's process group.
    public var pid: Int32
    /// Its start time (clock ticks after boot, `/proc/PID/stat`), which tells it from a later process that got
    /// the same pid.
    public var startTime: Int
    /// `/proc/sys/kernel/random/boot_id` when it was started.
    var bootID: String
    /// The real time it was started, and how long the program may run (nil: as long as it likes, the click
    /// waiter, which ends itself at the notification's expiry).
    var startedAt: Date
    public var limit: TimeInterval?
    /// How the program ended: nil while it runs, "" when it succeeded, else what went wrong.
    public var outcome: String?
    /// The click waiter has shown its notification (it goes on waiting for a click).
    public var shown = false

    public init(id: String, channel: DeliveryChannel, attempts: Int, pid: Int32, startTime: Int, bootID: String,
                startedAt: Date, limit: TimeInterval?) {
        self.id = id
        self.channel = channel
        self.attempts = attempts
        self.pid = pid
        self.startTime = startTime
        self.bootID = bootID
        self.startedAt = startedAt
        self.limit = limit
    }

    /// What the next run makes of a start it finds.
    public enum Fate: Equatable, Sendable {
        /// Still within its time: leave it alone for now.
        case running
        /// It showed the delivery: record it as delivered.
        case succeeded
        /// It ended with this failure: record it (the delivery is retried like any failure).
        case failed(String)
        /// Past its time limit: stop its process group and record that as a failure.
        case overdue
        /// Gone without an outcome (a restart of the machine, or killed with its program): start it again.
        case startAgain
    }

    /// `isRunning`: whether the noted process is still there; `bootID`: the current boot's; `runningFor`: how long
    /// it has run, measured on the machine's boot clock (from `startTime`), which no step of the real time moves.
    public func fate(bootID current: String, isRunning: Bool, runningFor: TimeInterval) -> Fate {
        // Shown first: a waiter that showed its notification may end in any way later.
        if shown { return .succeeded }
        if let outcome { return outcome.isEmpty ? .succeeded : .failed(outcome) }
        guard current == bootID, isRunning else { return .startAgain }
        if let limit, runningFor > limit { return .overdue }
        return .running
    }

    /// Whether this note is about `attempt`'s `channel` as the queue holds it now: same delivery, channel still
    /// owed, no failure recorded since.
    public func concerns(_ attempt: QueuedDelivery) -> Bool {
        id == attempt.delivery.notification.id && attempts == attempt.attempts && attempt.channels.contains(channel)
    }

    /// The note's file name for a start of `channel` for `attempt`: the same for every run until the outcome is
    /// recorded, so the next run finds it without a listing.
    public static func noteName(id: String, channel: DeliveryChannel, attempts: Int) -> String {
        ContentHash.of(Array("\(id)\n\(channel.rawValue)\n\(attempts)".utf8))
    }

    /// The note's content.
    public var fileContent: [UInt8] {
        var members = [
            JSONMember("id", .string(id)),
            JSONMember("channel", .string(channel.rawValue)),
            JSONMember("attempts", .number(String(attempts))),
            JSONMember("pid", .number(String(pid))),
            JSONMember("startTime", .number(String(startTime))),
            JSONMember("bootID", .string(bootID)),
            JSONMember("startedAt", .string(RFC3339.format(startedAt))),
            JSONMember("limit", limit.map { .number(String(Int($0))) } ?? .null),
            JSONMember("shown", .bool(shown)),
        ]
        if let outcome { members.append(JSONMember("outcome", .string(outcome))) }
        return Array((JSONValue.object(members).compactText + "\n").utf8)
    }

    /// A note's start; nil for a file that does not read (notes are not flushed: after a power loss one may be
    /// damaged, and the boot id has changed then anyway).
    public init?(fileContent data: [UInt8]) {
        guard let value = try? JSONParser.parse(data),
              let id = value["id"]?.stringValue,
              let channel = value["channel"]?.stringValue.flatMap(DeliveryChannel.init(rawValue:)),
              let attempts = value["attempts"]?.intValue, let pid = value["pid"]?.intValue.flatMap(Int32.init(exactly:)),
              let startTime = value["startTime"]?.intValue, let bootID = value["bootID"]?.stringValue,
              let startedAt = value["startedAt"]?.stringValue.flatMap(RFC3339.parse) else { return nil }
        self.init(id: id, channel: channel, attempts: attempts, pid: pid, startTime: startTime, bootID: bootID,
                  startedAt: startedAt, limit: value["limit"]?.intValue.map(TimeInterval.init))
        outcome = value["outcome"]?.stringValue
        shown = value["shown"] == .bool(true)
    }
}
