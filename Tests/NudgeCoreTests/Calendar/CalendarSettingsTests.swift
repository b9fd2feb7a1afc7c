import XCTest
@testable import NudgeCore

/// `settings.deliver.calendar` against literal JSON (docs/calendar.md, "Setting it up"), and `~/.netrc`.
final class CalendarSettingsTests: XCTestCase {
    private func calendar(_ json: String) -> (CalendarSettings?, [String]) {
        let text = #"{ "deliver": { "desktop": true, "calendar": "# + json + " } }"
        let (settings, report) = UserFileDecoder.settings(Array(text.utf8), zoneNamed: Fixtures.zoneNamed)
        return (settings?.deliverCalendar, report.problems.map(\.description))
    }

    func testTheSpecsExampleDecodesWithItsDefaults() {
        let (full, problems) = calendar("""
            { "url": "https://dav.example.org/dav/calendars/sam/nudge", "user": "sam",
              "passwordCommand": ["secret-tool", "lookup", "service", "nudge"],
              "priorities": ["critical", "high", "medium"], "hoursAhead": 72 }
            """)
        XCTAssertEqual(problems, [])
        XCTAssertEqual(full?.url, "https://dav.example.org/dav/calendars/sam/nudge/", "a collection ends in /")
        XCTAssertEqual(full?.host, "dav.example.org")
        XCTAssertEqual(full?.passwordCommand, ["secret-tool", "lookup", "service", "nudge"])
        XCTAssertEqual(full?.priorities, [.critical, .high, .medium])
        XCTAssertEqual(full?.hoursAhead, 72)
        let (plain, _) = calendar(#"{ "url": "http://127.0.0.1:5232/sam/nudge/" }"#)
        XCTAssertEqual(plain?.priorities, [.critical, .high])
        XCTAssertEqual(plain?.hoursAhead, 48)
        XCTAssertNil(plain?.user)
        XCTAssertEqual(calendar(#"{ "url": "http://[::1]:5232/c/" }"#).0?.host, "::1")
        XCTAssertEqual(calendar(#"{ "url": "https://caldav.fastmail.com/dav/calendars/user/sam@fastmail.com/x" }"#).0?.url,
                       "https://caldav.fastmail.com/dav/calendars/user/sam@fastmail.com/x/", "an @ in the path")
        XCTAssertEqual(calendar(#"{ "url": "HTTPS://DAV.Example.org:443/Cal/" }"#).0?.url,
                       "https://dav.example.org:443/Cal/", "the host in lower case: the same collection")
    }

    func testAPasswordPlainHTTPToAnotherMachineAndBadValuesAreErrorsWithTheirKeyPath() {
        let password = calendar(#"{ "url": "https://h.example/c/", "password": "hunter2" }"#).1
        XCTAssertEqual(password.count, 1)
        XCTAssertTrue(password.first?.hasPrefix("settings.json: deliver.calendar.password: a password does not belong in settings.json") ?? false, "\(password)")
        XCTAssertFalse(password.joined().contains("hunter2"), "the password is never repeated")
        let http = calendar(#"{ "url": "http://dav.example.org/c/" }"#).1
        XCTAssertTrue(http.first?.contains("deliver.calendar.url: \"http://dav.example.org/c/\" is plain http") ?? false,
                      "\(http)")
        XCTAssertEqual(calendar(#"{ "url": "dav.example.org/c/" }"#).1.count, 1)
        for notLoopback in ["http://127.0.0.evil.com/c/", "http://127.1.2.3x/c/", "http://localhost.evil/c/",
                            "http://[::1]junk/c/", "http://sam:pw@127.0.0.1/c/", "http://127.0.0.1:x/c/"] {
            XCTAssertEqual(calendar(#"{ "url": "\#(notLoopback)" }"#).1.count, 1, notLoopback)
        }
        XCTAssertEqual(calendar(#"{ "url": "http://127.0.0.1:5232/c/" }"#).1, [])
        XCTAssertEqual(calendar(#"{ "url": "http://localhost/c/" }"#).1, [])
        XCTAssertEqual(calendar(#"{ "user": "sam" }"#).1.count, 1, "url is required")
        XCTAssertTrue(calendar(#"{ "url": "https://h/c/", "hoursAhead": 169 }"#).1.first?
            .contains("deliver.calendar.hoursAhead") ?? false)
        XCTAssertTrue(calendar(#"{ "url": "https://h/c/", "priorities": ["urgent"] }"#).1.first?
            .contains("deliver.calendar.priorities[0]") ?? false)
        XCTAssertTrue(calendar(#"{ "url": "https://h/c/", "passwordCommand": "pass nudge" }"#).1.first?
            .contains("deliver.calendar.passwordCommand") ?? false)
        XCTAssertTrue(calendar(#"{ "url": "https://h/c/", "hoursahead": 2 }"#).1.first?
            .contains("hoursAhead") ?? false, "a near miss is an error at any level")
    }

    /// The password from the command's first line, else ~/.netrc's; the user from settings, else ~/.netrc's.
    func testCredentialsComeFromTheCommandsFirstLineElseNetrc() throws {
        let netrc = "machine dav.example.org login sam password from-netrc\n"
        var settings = CalendarSettings(url: "https://DAV.example.org/c/")
        XCTAssertEqual(try settings.credentials(netrc: netrc, printed: nil).get(), "sam:from-netrc")
        XCTAssertEqual(try settings.credentials(netrc: nil, printed: nil).get(), nil, "none: sent without")
        settings.passwordCommand = ["pass", "nudge"]
        XCTAssertEqual(try settings.credentials(netrc: netrc, printed: "s3cret\r\nsecond line\n").get(), "sam:s3cret")
        XCTAssertEqual(try settings.credentials(netrc: nil, printed: "s3cret\n").get(), nil, "no user anywhere")
        settings.user = "kim"
        XCTAssertEqual(try settings.credentials(netrc: netrc, printed: "s3cret").get(), "kim:s3cret")
        XCTAssertEqual(settings.credentials(netrc: netrc, printed: "\nlater\n"),
                       .failure(.transport("deliver.calendar.passwordCommand (pass) printed no password")))
    }

    func testNetrcFindsTheHostsEntryElseTheDefault() {
        let netrc = Netrc("""
            machine other.example login x password y
            machine DAV.example.org
              login sam
              password s3cret
            macdef init
            machine dav.example.org login evil password evil

            default login anon password guest
            """)
        XCTAssertEqual(netrc.entry(for: "dav.example.org"), Netrc.Entry(login: "sam", password: "s3cret"))
        XCTAssertEqual(netrc.entry(for: "unknown.example"), Netrc.Entry(login: "anon", password: "guest"))
        XCTAssertNil(Netrc("machine a login b").entry(for: "c"))
    }
}

/// What a PROPFIND of the collection says, as Radicale and Xandikos answer it (`CalDAVServerHarnessTests` pins
/// their answers).
final class CalendarCollectionTests: XCTestCase {
    private let settings = CalendarSettings(url: "http://127.0.0.1:5232/sam/nudge/")

    private func collection(_ status: Int, _ body: String) -> CalendarCollection? {
        try? CalendarCollection.of(CalendarAnswer(status: status, etag: nil, body: body), settings).get()
    }

    func testACalendarForEventsIsToldFromAFolderACalendarForTasksAndNothing() {
        XCTAssertEqual(collection(207, """
            <?xml version="1.0"?><multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response>\
            <href>/sam/nudge/</href><propstat><prop><resourcetype><collection /><C:calendar /></resourcetype>\
            <C:supported-calendar-component-set><C:comp name="VEVENT" /><C:comp name="VTODO" />\
            </C:supported-calendar-component-set></prop><status>HTTP/1.1 200 OK</status></propstat></response>\
            </multistatus>
            """), .calendar)
        XCTAssertEqual(collection(207, """
            <ns0:multistatus xmlns:ns0="DAV:"><ns0:response><ns0:propstat><ns0:prop><ns0:resourcetype>\
            <ns0:collection/></ns0:resourcetype></ns0:prop></ns0:propstat></ns0:response></ns0:multistatus>
            """), .notACalendar)
        XCTAssertEqual(collection(207, """
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response><d:propstat><d:prop>\
            <d:resourcetype><d:collection/><c:calendar/></d:resourcetype><c:supported-calendar-component-set>\
            <c:comp name="VTODO"/></c:supported-calendar-component-set></d:prop></d:propstat></d:response>\
            </d:multistatus>
            """), .takesNoEvents)
        XCTAssertEqual(collection(207, """
            <ns0:multistatus xmlns:ns0="DAV:"><ns0:response><ns0:href>http%3A//127.0.0.1%3A1/user/calendars/x/\
            </ns0:href><ns0:status>HTTP/1.1 404 Not Found</ns0:status></ns0:response></ns0:multistatus>
            """), .missing, "Xandikos's answer for nothing there")
        XCTAssertEqual(collection(404, ""), .missing)
        XCTAssertNil(collection(401, ""))
    }
}
