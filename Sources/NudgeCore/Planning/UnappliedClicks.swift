import FoundationEssentials

/// The desktop clicks that could not be applied (docs/desktop.md, "A click that cannot be applied at once"), latest
/// last, for `nudge status`. A run takes each from the file its waiter left (`HeldNotification`) and reports it
/// once: the one that records it.
public struct UnappliedClicks: Equatable, Sendable {
    /// How many `status` keeps: the oldest go first.
    public static let recentLimit = 20

    private(set) var clicks: [UnappliedClick] = []

    init() {}

    /// Clicks holding exactly these: read from state.json (`UnappliedClicks+JSON.swift`), or a test's.
    init(clicks: [UnappliedClick]) {
        self.clicks = clicks
    }

    /// Records `click`; false when there is nothing to report: it is recorded already (a run that died after
    /// saving it leaves its waiter's file to the next run), or `actions` shows its action applied to its
    /// notification at or after the click (a waiter killed after applying it, before it removed its file).
    public mutating func record(_ click: UnappliedClick, actions: UserActions) -> Bool {
        if let applied = actions.applied[click.id]?[click.action], applied >= click.clickedAt { return false }
        guard !clicks.contains(where: {
            $0.id == click.id && $0.action == click.action && $0.clickedAt == click.clickedAt
        }) else { return false }
        clicks = Array((clicks + [click]).suffix(Self.recentLimit))
        return true
    }
}
