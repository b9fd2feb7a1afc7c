import FoundationEssentials

/// Laundry notifications (docs/files.md, "laundry.json"): the current stage of each pet's cycle, one stage ahead only.
///
/// The rule returns every occurrence of the stage the file is in — already due or not — and the planner picks
/// what is due and what is next. A stopped cycle is simply absent from the file, so it yields nothing and its
/// notification can never be delivered.
enum LaundryRule {
    static let washCompleteTitle = "Wash Complete!"
    static let dryCompleteTitle = "Dry Complete!"
    static let foldReminderTitle = "Still waiting to be folded"
    static let almostDoneTitle = "Almost done"
    static let healthBody = "Health is declining"
    static let timerCategory = "TIMER_COMPLETE"
    static let timerActions = ["COMPLETE_ACTION", "SNOOZE_ACTION"]
    static let healthCategory = "HEALTH_WARNING"
    /// Laundry stages are pointless six hours late; fold and health reminders a day late (docs/design.md,
    /// "When a notification is due").
    static let stageExpiry: TimeInterval = 6 * 3600
    static let reminderExpiry: TimeInterval = 24 * 3600
    /// Health warnings wait for a civil hour rather than waking someone at night.
    static let healthWarningTime = WallTime(hour: 10, minute: 0)!

    static func healthTitle(_ name: String) -> String { "\(name) needs laundry" }
    static func washCompleteBody(_ name: String) -> String { "\(name) is ready for the dryer!" }
    static func dryCompleteBody(_ name: String) -> String { "Time to fold \(name)'s laundry!" }
    static func foldReminderBody(_ name: String) -> String { "\(name)'s laundry is done and waiting for you." }
    static func almostDoneBody(_ name: String, _ stage: LaundryCycle.Stage, minutes: Int) -> String {
        "\(name)'s \(stage.rawValue) finishes in \(minutes) min."
    }

    /// Every occurrence of the pet's current stage (or its health warning when no cycle is under way).
    static func notifications(for pet: Pet, settings: Settings, clock: WallClock) -> [Notification] {
        let flags = settings.notifications
        func make(_ kind: NotificationKind, event: String, at fireAt: Date, expiresAt: Date, title: String,
                  body: String, priority: Priority, health: Bool = false) -> Notification {
            Notification(id: Notification.occurrenceID(kind, pet.id, event), kind: kind, source: pet.id,
                         fireAt: fireAt, expiresAt: expiresAt, title: title, body: body, priority: priority,
                         category: health ? healthCategory : timerCategory, actions: health ? [] : timerActions,
                         sound: flags.sound, badge: flags.badge, recurrence: .once)
        }

        guard let cycle = pet.cycle else {
            guard let last = pet.lastCompletedAt else { return [] }
            let declineAt = last.addingTimeInterval(TimeInterval(settings.laundry.healthWarnAfterDays) * 86_400)
            let civilHour = clock.instant(on: clock.localDate(of: declineAt), at: healthWarningTime)
            let fireAt = max(declineAt, civilHour)
            return [make(.laundryHealth, event: RFC3339.format(last), at: fireAt,
                         expiresAt: fireAt.addingTimeInterval(reminderExpiry),
                         title: healthTitle(pet.name), body: healthBody, priority: .medium,
                         health: true)]
        }

        let minutes = cycle.stage == .wash ? pet.washMinutes : pet.dryMinutes
        let completesAt = cycle.startedAt.addingTimeInterval(TimeInterval(minutes) * 60)
        var result: [Notification] = []
        let warnMinutes = min(settings.laundry.warnBeforeMinutes, minutes)
        if warnMinutes > 0 {
            result.append(make(.almostDone, event: "\(cycle.id):\(cycle.stage.rawValue)",
                               at: completesAt.addingTimeInterval(-TimeInterval(warnMinutes) * 60),
                               expiresAt: completesAt, title: almostDoneTitle,
                               body: almostDoneBody(pet.name, cycle.stage, minutes: warnMinutes), priority: .high))
        }
        switch cycle.stage {
        case .wash:
            result.append(make(.washComplete, event: cycle.id, at: completesAt,
                               expiresAt: completesAt.addingTimeInterval(stageExpiry), title: washCompleteTitle,
                               body: washCompleteBody(pet.name), priority: .critical))
        case .dry:
            result.append(make(.dryComplete, event: cycle.id, at: completesAt,
                               expiresAt: completesAt.addingTimeInterval(stageExpiry), title: dryCompleteTitle,
                               body: dryCompleteBody(pet.name), priority: .critical))
            let foldAt = completesAt.addingTimeInterval(TimeInterval(settings.laundry.foldReminderMinutes) * 60)
            result.append(make(.foldReminder, event: cycle.id, at: foldAt,
                               expiresAt: foldAt.addingTimeInterval(reminderExpiry), title: foldReminderTitle,
                               body: foldReminderBody(pet.name), priority: .medium))
        }
        return result
    }
}
