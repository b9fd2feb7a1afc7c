import FoundationEssentials

/// An achievement the user unlocked (docs/files.md, "streaks.json"); announced once, at `unlockedAt`.
public struct Achievement: Equatable, Sendable {
    public var id: String
    /// Shown as "Achievement unlocked: <title>".
    public var title: String
    /// The notification's body.
    public var description: String
    public var unlockedAt: Date

    public init(id: String, title: String, description: String, unlockedAt: Date) {
        self.id = id
        self.title = title
        self.description = description
        self.unlockedAt = unlockedAt
    }
}
