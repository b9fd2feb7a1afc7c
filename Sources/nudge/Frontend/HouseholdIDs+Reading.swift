import NudgeCore

extension HouseholdIDs {
    /// The ids of this kind in `directory`, read from the one file that holds them, without the lock: a
    /// completion must answer while a run holds it, and must not wait. A missing, unreadable or invalid file has
    /// none, and nothing is said about it (a completion has no place for messages; `nudge check` names it).
    /// Deliveries come newest first, each id once.
    func listed(in directory: DataDirectory) -> [String] {
        switch self {
        case .pets:
            return userFile(.laundry, in: directory).flatMap { UserFileDecoder.pets($0).0 }?.map(\.id) ?? []
        case .games:
            return userFile(.streaks, in: directory).flatMap { UserFileDecoder.streaks($0).0 }?.games.map(\.id) ?? []
        case .trips:
            return userFile(.trips, in: directory).flatMap { UserFileDecoder.trips($0).0 }?.map(\.id) ?? []
        case .deliveries:
            let outbox = OutboxFile(path: directory.path(of: .outbox))
            var seen = Set<String>()
            return outbox.lastDeliveries(Self.recentDeliveries).reversed().map(\.notification.id).filter {
                seen.insert($0).inserted
            }
        }
    }

    /// A user file's bytes (through a symbolic link), nil when it cannot be read.
    private func userFile(_ file: UserFile, in directory: DataDirectory) -> [UInt8]? {
        try? DataDirectory.contents(of: directory.path(of: file)).get()
    }
}
