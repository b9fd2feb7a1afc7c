import Foundation

/// The personalized good-morning message (SPEC §5.4): one `daily.personalized` per local date, at
/// `settings.personalized.time`, with a text for each weekday greeting the user by first name.
public enum PersonalizedRule {
    static let source = "personalized"
    static let title = "Good morning"
    static let category = "DAILY"
    static let actions: [String] = []
    static let placeholder = "{firstName}"

    static let mondayTemplate = "Good morning, {firstName} — This week starts strong. Let's plan your commute today."
    static let tuesdayTemplate = "Hey {firstName}, ready to tackle Tuesday? Check your commute times."
    static let wednesdayTemplate = "Midweek momentum, {firstName}! Your commute insights are ready."
    static let thursdayTemplate = "Thursday vibes, {firstName} — Stay ahead with smart commute planning."
    static let fridayTemplate = "Friday energy, {firstName}! Plan your weekend commute now."
    static let saturdayTemplate = "Weekend prep, {firstName} — Your commute schedule awaits."
    static let sundayTemplate = "Sunday reset, {firstName}. Get ready for a smooth week ahead."

    static func template(for weekday: Weekday) -> String {
        switch weekday {
        case .mon: return mondayTemplate
        case .tue: return tuesdayTemplate
        case .wed: return wednesdayTemplate
        case .thu: return thursdayTemplate
        case .fri: return fridayTemplate
        case .sat: return saturdayTemplate
        case .sun: return sundayTemplate
        }
    }

    static func body(firstName: String, on weekday: Weekday) -> String {
        template(for: weekday).replacingEvery(placeholder, with: firstName)
    }

    /// The message for a local date, or nil when the message is off or there is no name to greet.
    ///
    /// It is worth reading until the end of that local day (SPEC §7), not beyond: tomorrow has its own.
    public static func occurrence(on date: LocalDate, settings: Settings, clock: WallClock) -> Notification? {
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
