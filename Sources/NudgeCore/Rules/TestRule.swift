import FoundationEssentials

/// `nudge test`: one notification now, through every channel, to check the setup works (docs/design.md,
/// "Occurrence ids").
public enum TestRule {
    static let title = "Test Notification"
    static let body = "Your notifications are working perfectly! 🎉"
    /// Long enough for the desktop command to be retried by the next few runs if it failed.
    static let expiry: TimeInterval = 10 * 60

    public static func notification(now: Date, settings: Settings) -> Notification {
        Notification(id: Notification.occurrenceID(.test, "test", RFC3339.format(now)), kind: .test, source: "test",
                     fireAt: now, expiresAt: now.addingTimeInterval(expiry), title: title, body: body,
                     priority: .high, category: "TEST", actions: [], sound: settings.notifications.sound,
                     badge: settings.notifications.badge, recurrence: .once)
    }
}
