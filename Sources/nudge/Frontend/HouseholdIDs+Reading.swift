import NudgeCore

extension HouseholdIDs {
    /// The ids of this kind in `directory`, read from the one file that holds them, without the lock: a
    /// completion must answer while a run holds it, and must not wait. A missing, unreadable or invalid file has
    /// none, and nothing is said about it (a completion has no place for messages; `nudge check` names it).
    /// Deliveries come newest first, each id once, then the sources of those deliveries.
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
            let ids = outbox.lastDeliveries(Self.recentDeliveries).reversed().map(\.notification.id).filter {
                seen.insert($0).inserted
            }
            // Then their sources as the person wrote them (`fajr`), which name the latest of each.
            return ids + ids.compactMap { OccurrenceID($0)?.source }.filter { seen.insert($0).inserted }
        }
    }

    /// A user file's bytes (through a symbolic link), nil when it cannot be read.
    private func userFile(_ file: UserFile, in directory: DataDirectory) -> [UInt8]? {
        try? PosixFile.contents(of: directory.path(of: file)).get()
    }
}
