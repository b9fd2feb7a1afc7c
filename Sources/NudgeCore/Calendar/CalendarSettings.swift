import FoundationEssentials

/// `settings.deliver.calendar` (docs/calendar.md): the CalDAV collection that keeps the plan's important records
/// as events with an alarm, so that a phone syncing that calendar rings for them.
public struct CalendarSettings: Equatable, Sendable {
    /// The collection's URL, ending in "/"; `https`, or `http` to a loopback address.
    public var url: String
    /// The user name; nil: the `login` of `~/.netrc` for the host.
    public var user: String?
    /// The program (and arguments) whose first printed line is the password; nil: `~/.netrc`.
    public var passwordCommand: [String]?
    public var priorities = CalendarEvents.defaultPriorities
    public var hoursAhead = CalendarEvents.defaultHoursAhead

    /// The collection at `url` (already checked: `collectionURL(_:)`), with every other setting at its default.
    public init(url: String) {
        self.url = url
    }

    /// The host the URL names (without brackets for IPv6), to look up in `~/.netrc` and to name in errors.
    public var host: String { CalendarURL(url)?.host ?? url }
}
