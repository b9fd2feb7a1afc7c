import FoundationEssentials

/// The personalized good-morning message (docs/files.md, "settings.json"): one `daily.personalized` per local date, at
/// `settings.personalized.time`, with a text for each weekday greeting the user by first name.
enum PersonalizedRule {
    static let source = "personalized"
    static let title = "Good morning"
    static let category = "DAILY"
    static let actions: [String] = []

    /// The text of each weekday around the first name (written with a `{firstName}` placeholder):
    /// joined, not searched and replaced, which costs nothing on the run's first call.
    static func template(for weekday: Weekday) -> (before: String, after: String) {
        switch weekday {
        case .mon: return ("Good morning, ", " — This week starts strong. Let's plan your commute today.")
        case .tue: return ("Hey ", ", ready to tackle Tuesday? Check your commute times.")
        case .wed: return ("Midweek momentum, ", "! Your commute insights are ready.")
        case .thu: return ("Thursday vibes, ", " — Stay ahead with smart commute planning.")
        case .fri: return ("Friday energy, ", "! Plan your weekend commute now.")
        case .sat: return ("Weekend prep, ", " — Your commute schedule awaits.")
        case .sun: return ("Sunday reset, ", ". Get ready for a smooth week ahead.")
        }
    }

    static func body(firstName: String, on weekday: Weekday) -> String {
        let template = template(for: weekday)
        return template.before + firstName + template.after
    }

    /// The message for a local date, or nil when the message is off or there is no name to greet.
    ///
    /// It is worth reading until the end of that local day (docs/design.md, "When a notification is due"), not beyond:
    /// tomorrow has its own.
    static func occurrence(on date: LocalDate, settings: Settings, clock: WallClock) -> Notification? {
        let personalized = settings.personalized
        let firstName = personalized.firstName?.trimmingWhitespace ?? ""
        guard personalized.enabled, !firstName.isEmpty else { return nil }
        return Notification(id: Notification.occurrenceID(.personalized, source, date.description),
                            kind: .personalized, source: source,
                            fireAt: clock.instant(on: date, at: personalized.time), expiresAt: clock.endOfDay(date),
                            title: title, body: body(firstName: firstName, on: date.weekday), priority: .low,
                            category: category, actions: actions, sound: settings.notifications.sound,
                            badge: settings.notifications.badge,
                            recurrence: .daily(date: date, time: personalized.time))
    }
}
