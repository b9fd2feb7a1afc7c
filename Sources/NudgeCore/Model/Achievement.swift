import FoundationEssentials

/// An achievement the user unlocked (docs/files.md, "streaks.json"); announced once, at `unlockedAt`.
struct Achievement: Equatable, Sendable {
    var id: String
    /// Shown as "Achievement unlocked: <title>".
    var title: String
    /// The notification's body.
    var description: String
    var unlockedAt: Date

    init(id: String, title: String, description: String, unlockedAt: Date) {
        self.id = id
        self.title = title
        self.description = description
        self.unlockedAt = unlockedAt
    }
}
