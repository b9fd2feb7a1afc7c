extension Settings {
    /// Replaces the setting named by the top-level key `key` with `other`'s: what an invalid setting falls back to
    /// (its last good value, or the default of `Settings()`), while the rest of settings.json applies (docs/promises.md).
    mutating func take(_ key: String, from other: Settings) {
        switch key {
        case "timeZone": timeZone = other.timeZone
        case "notifications": notifications = other.notifications
        case "maxPending": maxPending = other.maxPending
        case "quietHours": quietHours = other.quietHours
        case "deliver":
            deliverDesktop = other.deliverDesktop
            deliverCommand = other.deliverCommand
        case "laundry": laundry = other.laundry
        case "commute": commute = other.commute
        case "personalized": personalized = other.personalized
        case "alarms": alarms = other.alarms
        case "streaks": streaks = other.streaks
        case "prayerTimes": prayerTimes = other.prayerTimes
        default: break
        }
    }
}
