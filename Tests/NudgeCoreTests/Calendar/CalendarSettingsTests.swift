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
