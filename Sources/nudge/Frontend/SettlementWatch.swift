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
