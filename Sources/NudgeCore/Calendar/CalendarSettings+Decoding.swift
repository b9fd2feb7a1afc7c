import FoundationEssentials

extension CalendarSettings {
    /// `deliver.calendar`; nil (reported) without a usable `url`. A `password` key is an error: settings.json is
    /// no place for a secret (docs/calendar.md, "The password").
    init?(_ object: ObjectReader) {
        object.checkKeys(["url", "user", "passwordCommand", "priorities", "hoursAhead", "password"])
        if object.member("password") != nil {
            object.report("password", "a password does not belong in settings.json: name a passwordCommand that "
                + "prints it (such as [\"secret-tool\", \"lookup\", \"service\", \"nudge\"]) or put it in ~/.netrc")
        }
        guard let text = object.string("url") else { return nil }
        switch Self.checkedURL(text) {
        case .failure(let problem):
            object.report("url", problem.description)
            return nil
        case .success(let url):
            self.init(url: url.text)
        }
        user = object.optionalString("user")
        passwordCommand = Settings.argv(object, "passwordCommand")
        priorities = Self.priorities(object) ?? priorities
        hoursAhead = object.int("hoursAhead", default: hoursAhead, in: 1...168) ?? hoursAhead
    }

    /// The collection's URL as nudge uses it (ending in "/"), or what is wrong with `text` (`deliver.calendar.url`,
    /// `nudge init --calendar URL`).
    public static func collectionURL(_ text: String) -> Result<String, CalendarURL.Problem> {
        checkedURL(text).map(\.text)
    }

    /// `text` taken apart, or what is wrong with it.
    static func checkedURL(_ text: String) -> Result<CalendarURL, CalendarURL.Problem> {
        guard let url = CalendarURL(text) else {
            return .failure(CalendarURL.Problem(description: "expected the calendar collection's address, such as "
                + "\"https://dav.example.org/dav/calendars/sam/nudge/\", found \"\(text)\""))
        }
        guard url.scheme == "https" || url.isLoopback else {
            return .failure(CalendarURL.Problem(description: "\"\(text)\" is plain http to another machine: the password and your events would cross "
                + "the network readable (https is required, except to this machine's own address)"))
        }
        return .success(url)
    }

    /// `priorities`: a non-empty array of priority names.
    private static func priorities(_ object: ObjectReader) -> Set<Priority>? {
        guard let member = object.member("priorities") else { return nil }
        let tape = object.document.tape
        let names = Priority.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard tape.kind(member) == .array, case let elements = tape.elements(of: member), !elements.isEmpty else {
            object.report("priorities", "expected a non-empty array of priorities (\(names)), found "
                + tape.typeDescription(member))
            return nil
        }
        var priorities: Set<Priority> = []
        for (index, element) in elements.enumerated() {
            guard let priority = object.document.string(element).flatMap(Priority.init(rawValue:)) else {
                object.document.report(object.path.appending("priorities").appending(index: index),
                                       "expected one of \(names), found \(object.document.quote(element))")
                return nil
            }
            priorities.insert(priority)
        }
        return priorities
    }
}
