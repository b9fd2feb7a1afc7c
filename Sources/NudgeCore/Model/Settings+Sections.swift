/// settings.json's top-level keys, each a setting that falls back alone when it is invalid (docs/promises.md).
/// A new setting is a new case: the compiler then asks for its key and for what `Settings.take` copies.
public enum SettingsSection: String, CaseIterable, Sendable {
    case timeZone, notifications, maxPending, quietHours, deliver, laundry, commute, personalized, alarms, streaks,
         prayerTimes

    /// The key as the decoder compares it.
    var key: StaticString {
        switch self {
        case .timeZone: "timeZone"
        case .notifications: "notifications"
        case .maxPending: "maxPending"
        case .quietHours: "quietHours"
        case .deliver: "deliver"
        case .laundry: "laundry"
        case .commute: "commute"
        case .personalized: "personalized"
        case .alarms: "alarms"
        case .streaks: "streaks"
        case .prayerTimes: "prayerTimes"
        }
    }
}

extension Settings {
    static let topLevelKeys: [StaticString] = SettingsSection.allCases.map(\.key)

    /// Replaces the setting `section` with `other`'s: what an invalid setting falls back to (its last good value,
    /// or the default of `Settings()`), while the rest of settings.json applies (docs/promises.md).
    mutating func take(_ section: SettingsSection, from other: Settings) {
        switch section {
        case .timeZone: timeZone = other.timeZone
        case .notifications: notifications = other.notifications
        case .maxPending: maxPending = other.maxPending
        case .quietHours: quietHours = other.quietHours
        case .deliver:
            deliverDesktop = other.deliverDesktop
            deliverCommand = other.deliverCommand
            deliverCalendar = other.deliverCalendar
        case .laundry: laundry = other.laundry
        case .commute: commute = other.commute
        case .personalized: personalized = other.personalized
        case .alarms: alarms = other.alarms
        case .streaks: streaks = other.streaks
        case .prayerTimes: prayerTimes = other.prayerTimes
        }
    }
}
