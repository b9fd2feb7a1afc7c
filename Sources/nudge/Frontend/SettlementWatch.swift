import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// What the click waiter watches besides the bus: the data directory's files, for the moment a command, another
/// notification's button or a hand edit settles its notification (docs/desktop.md, "Handled notifications
/// close"). Nothing is sent to the waiter: it looks at the files, which every route writes atomically, and asks
/// the core whether its notification is settled. A command killed before its write has settled nothing; one
/// killed after has settled it, and the waiter sees that as it would see a finished command.
struct SettlementWatch {
    /// How often the waiter looks at the files: a settled notification leaves the screen within a second.
    static let interval: Double = 0.25

    let directory: DataDirectory
    let id: String
    /// The files' identities when last read (device, inode, size, change time): nothing is read again until
    /// one of them changes.
    private var seen: [FileIdentity?] = []
    private var record: NudgeCore.Notification?

    init(directory: DataDirectory, id: String) {
        self.directory = directory
        self.id = id
    }

    /// How the notification was settled, when a file changed since the last look and it now is; nil otherwise
    /// (also while a file cannot be read: the last good copy stands in for a broken one, as in a run).
    mutating func check(now: Date) -> Settlement? {
        let identities = [FileIdentity(path: directory.path(of: .state))]
            + UserFile.allCases.map { FileIdentity(path: directory.path(of: $0)) }
        guard identities != seen else { return nil }
        seen = identities
        guard let snapshot = try? DataSnapshot.load(directory), let state = snapshot.state else { return nil }
        if record == nil {
            record = try? DeliveredRecord.find(id, state: state, directory: directory, command: "desktop-wait",
                                               zone: snapshot.zone, now: now)
        }
        guard let record else { return nil }
        return SettlementRule.settlement(of: record, household: snapshot.loaded.household, state: state, now: now,
                                         clock: WallClock(zone: snapshot.zone))
    }
}

/// A file's identity as `stat` gives it, following symbolic links (a user file may be one): a replaced file
/// (atomic write) has a new inode, an edited one a new change time.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let changed: timespec

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        changed = info.st_ctim
    }

    static func == (left: FileIdentity, right: FileIdentity) -> Bool {
        left.device == right.device && left.inode == right.inode && left.size == right.size
            && left.changed.tv_sec == right.changed.tv_sec && left.changed.tv_nsec == right.changed.tv_nsec
    }
}

/// The user files' identities, taken before a pass reads them: whether one was written since.
struct UserFileIdentities {
    let directory: DataDirectory
    private var seen: [FileIdentity?]

    init(_ directory: DataDirectory) {
        self.directory = directory
        seen = Self.read(directory)
    }

    /// Whether a user file changed since the last look (the first: when this was made); looks again.
    mutating func changed() -> Bool {
        let now = Self.read(directory)
        defer { seen = now }
        return now != seen
    }

    private static func read(_ directory: DataDirectory) -> [FileIdentity?] {
        UserFile.allCases.map { FileIdentity(path: directory.path(of: $0)) }
    }
}
