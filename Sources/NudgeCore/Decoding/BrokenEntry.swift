/// An entry of a user file's list (an alarm, a pet, a trip, a game, a play, an observation…) that was left out for
/// a problem of its own: it takes down only itself, and plans from its last good version when it has an id that
/// one had (docs/promises.md).
public struct BrokenEntry: Equatable, Sendable {
    /// The path of the list that holds it: `alarms`, `trips[0].observations`.
    var list: KeyPath
    var index: Int
    /// Its `id` when that is a string.
    public var id: String?

    init(list: KeyPath, index: Int, id: String?) {
        self.list = list
        self.index = index
        self.id = id
    }

    public var path: KeyPath { list.appending(index: index) }
}
