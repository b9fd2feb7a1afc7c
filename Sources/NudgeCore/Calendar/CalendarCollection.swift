import FoundationEssentials

/// The calendar collection itself, for `nudge check` and `nudge init --calendar` (docs/calendar.md, "Setting it
/// up"): whether it is there, is a calendar, and takes events; and the request that makes it.
public enum CalendarCollection: Equatable, Sendable {
    /// A calendar that takes VEVENTs.
    case calendar
    case missing
    /// Something else is at the URL: a plain folder, an address book.
    case notACalendar
    /// A calendar for other components only (tasks, journals).
    case takesNoEvents

    /// What is wrong with the collection at `url`, in words; nil for a calendar that takes events.
    public func problem(_ url: String) -> String? {
        switch self {
        case .calendar: nil
        case .missing: CalendarFailure.missingCollection(url: url).description
        case .notACalendar: "\(url) is no calendar (a folder or an address book?): point deliver.calendar.url at a "
            + "calendar collection, or a new address for `nudge init --calendar URL` to make"
        case .takesNoEvents: "\(url) is a calendar for tasks or journals, not events: make one for events"
        }
    }

    /// PROPFIND of the collection's resource type and the components it takes, `Depth: 0`.
    public static func propfind(_ settings: CalendarSettings) -> CalendarRequest {
        propfind(url: settings.url)
    }

    static func propfind(url: String) -> CalendarRequest {
        CalendarRequest(method: "PROPFIND", url: url,
                        headers: ["Depth: 0", "Content-Type: application/xml; charset=utf-8"],
                        body: #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" "#
                            + #"xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:resourcetype/>"#
                            + "<c:supported-calendar-component-set/></d:prop></d:propfind>")
    }

    /// MKCALENDAR of a calendar named "nudge" that takes events.
    public static func mkcalendar(_ settings: CalendarSettings) -> CalendarRequest {
        CalendarRequest(method: "MKCALENDAR", url: settings.url,
                        headers: ["Content-Type: application/xml; charset=utf-8"],
                        body: #"<?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" "#
                            + #"xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>nudge"#
                            + "</d:displayname><c:supported-calendar-component-set><c:comp name=\"VEVENT\"/>"
                            + "</c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>")
    }

    /// What the answer to `propfind` says; a failure for statuses that say nothing about the collection.
    public static func of(_ answer: CalendarAnswer, _ settings: CalendarSettings) -> Result<Self, CalendarFailure> {
        of(answer, url: settings.url, host: settings.host)
    }

    static func of(_ answer: CalendarAnswer, url: String, host: String) -> Result<Self, CalendarFailure> {
        switch answer.status {
        case 207: return .success(read(answer.body))
        case 404: return .success(.missing)
        default: return .failure(CalendarFailure.of(answer, method: "PROPFIND", host: host, collection: url))
        }
    }

    /// Whether the answer to `mkcalendar` says the calendar was made.
    public static func made(_ answer: CalendarAnswer, _ settings: CalendarSettings) -> Result<Void, CalendarFailure> {
        answer.status == 201 ? .success(())
            : .failure(CalendarFailure.of(answer, method: "MKCALENDAR", host: settings.host, collection: settings.url))
    }

    /// The multistatus body read without an XML parser (Foundation's would link libxml2 into the binary): a lone
    /// 404 status, else the `calendar` element inside `resourcetype`, whatever its prefix, and, when the server
    /// lists the components it takes, `VEVENT` among them.
    static func read(_ body: String) -> Self {
        // Xandikos answers a PROPFIND of nothing with a multistatus that holds only a 404.
        if element("propstat", in: body) == nil, let status = element("status", in: body), status.contains(" 404 ") {
            return .missing
        }
        let resourceType = element("resourcetype", in: body) ?? ""
        guard hasElement("calendar", in: resourceType) else { return .notACalendar }
        let components = element("supported-calendar-component-set", in: body) ?? ""
        guard components.contains("name=") else { return .calendar }
        return components.contains("\"VEVENT\"") || components.contains("'VEVENT'") ? .calendar : .takesNoEvents
    }

    /// The markup between the first opening tag of the element with local name `name` and its closing tag.
    private static func element(_ name: String, in text: String) -> String? {
        let parts = text.split(separator: "<")
        guard let start = parts.firstIndex(where: { !$0.hasPrefix("/") && localName(of: $0) == name }) else {
            return nil
        }
        let opening = parts[start].prefix { $0 != ">" }
        if opening.hasSuffix("/") { return "" }
        let text = parts[start].dropFirst(opening.count + 1)
        let inner = parts[(start + 1)...].prefix { !($0.hasPrefix("/") && localName(of: $0.dropFirst()) == name) }
        return text + inner.map { "<" + $0 }.joined()
    }

    /// Whether `text` holds an element whose local name is `name`.
    private static func hasElement(_ name: String, in text: String) -> Bool {
        text.split(separator: "<").contains { !$0.hasPrefix("/") && localName(of: $0) == name }
    }

    /// The local name of the tag `part` starts with: `calendar` of `C:calendar/>`.
    private static func localName(of part: Substring) -> Substring {
        let tag = part.prefix { !" \t\r\n/>".contains($0) }
        return tag.split(separator: ":").last ?? tag
    }
}
