import FoundationEssentials

/// The user's preferences from `settings.json` (docs/files.md). Every key is optional; the defaults live here.
public struct Settings: Equatable, Sendable {
    /// An IANA zone name; nil means the system zone.
    public var timeZone: String?
    public var notifications = NotificationSwitches()
    public var maxPending = 64
    var quietHours: QuietHours?
    /// The desktop command's argv template; nil means no command.
    public var deliverCommand: [String]?
    /// `deliver.desktop`: show each delivery as a freedesktop notification, over D-Bus (docs/desktop.md).
    public var deliverDesktop = false
    /// `deliver.calendar`: the CalDAV calendar that keeps the important records (docs/calendar.md); nil when not set.
    public var deliverCalendar: CalendarSettings?
    public var laundry = LaundrySettings()
    public var commute = CommuteSettings()
    public var personalized = PersonalizedSettings()
    public var alarms = AlarmSettings()
    public var streaks = StreakSettings()
    /// `prayerTimes`: the place and method prayer alarms follow (docs/files.md, "Prayer times"); nil when not set.
    public var prayerTimes: PrayerSettings?

    public init() {}

    /// The channels after the outbox that this user set up, in the order they are tried: the desktop, then the command.
    public var deliveryChannels: [DeliveryChannel] {
        (deliverDesktop ? [.desktop] : []) + (deliverCommand != nil ? [.command] : [])
    }
}

/// `settings.notifications`: the master switch and the flags every record carries.
public struct NotificationSwitches: Equatable, Sendable {
    public var enabled = true
    public var sound = true
    public var badge = true
}

/// `settings.quietHours`: `start` inclusive, `end` exclusive, may wrap past midnight; equal means none.
struct QuietHours: Equatable, Sendable {
    var start: WallTime
    var end: WallTime
}

/// `settings.laundry`.
public struct LaundrySettings: Equatable, Sendable {
    public var enabled = true
    public var warnBeforeMinutes = 0
    public var foldReminderMinutes = 30
    public var healthWarnAfterDays = 7
}

/// `settings.commute`.
public struct CommuteSettings: Equatable, Sendable {
    public var enabled = true
    public var defaultBufferMinutes = 10
}

/// `settings.personalized`: the good-morning message.
public struct PersonalizedSettings: Equatable, Sendable {
    public var enabled = false
    var firstName: String?
    public var time = WallTime(hour: 8, minute: 0)!
}

/// `settings.alarms`.
public struct AlarmSettings: Equatable, Sendable {
    public var enabled = true
    public var snoozeMinutes = 5
}

/// `settings.streaks`.
public struct StreakSettings: Equatable, Sendable {
    public var enabled = true
    public var time = WallTime(hour: 19, minute: 0)!
    public var smart = false
    /// Streak lengths, in days, that unlock an achievement (docs/files.md, "streaks.json"); empty turns milestones off.
    var milestones = [7, 30, 100, 365]
}
