/// Where a data directory's files live, as `status` and `plan` say it (docs/files.md, "Where nudge keeps its own
/// files"): the person's files in the data directory, nudge's own in the same or in `$XDG_STATE_HOME/nudge`.
package struct FilePlaces: Equatable, Sendable, CustomStringConvertible {
    package var dataDirectory: String
    /// Where plan.json, state.json, the outbox and the lock are now.
    package var stateDirectory: String
    /// Where they move at the next run or edit: the default directory's own files still beside the person's.
    package var movingTo: String?

    package init(dataDirectory: String, stateDirectory: String, movingTo: String? = nil) {
        self.dataDirectory = dataDirectory
        self.stateDirectory = stateDirectory
        self.movingTo = movingTo
    }

    package var description: String {
        if let movingTo {
            return "Files: yours and nudge's own in \(dataDirectory); nudge's own move to \(movingTo) at the next run"
        }
        if stateDirectory == dataDirectory { return "Files: yours and nudge's own in \(dataDirectory)" }
        return "Files: yours in \(dataDirectory), nudge's own (plan, state, outbox) in \(stateDirectory)"
    }

    /// `dataDirectory`, `stateDirectory` and, while a move is due, `stateMovesTo`.
    var jsonMembers: [JSONMember] {
        [JSONMember("dataDirectory", .string(dataDirectory)), JSONMember("stateDirectory", .string(stateDirectory))]
            + (movingTo.map { [JSONMember("stateMovesTo", .string($0))] } ?? [])
    }
}
