import XCTest
@testable import nudge
@testable import NudgeCore

/// How the calendar's requests go to curl(1) and its answers come back (docs/calendar.md, "How nudge talks to
/// the server"), without a server: the end-to-end tests (CalendarChannelTests) use real ones.
final class CalendarClientTests: XCTestCase {
    func testTheLastHeaderBlockGivesTheStatusAndETagAndTheRestIsTheBody() {
        let output = Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\nETag: \"abc\"\r\n\r\n".utf8)
        XCTAssertEqual(CalendarClient.answer(output), CalendarAnswer(status: 201, etag: "\"abc\"", body: ""))
        let multistatus = Array("HTTP/1.0 207 Multi-Status\r\netag:  W/\"x\"  \r\n\r\n<multistatus/>\n".utf8)
        XCTAssertEqual(CalendarClient.answer(multistatus), CalendarAnswer(status: 207, etag: "W/\"x\"", body: "<multistatus/>\n"))
        let proxied = Array("HTTP/1.1 200 Connection established\r\n\r\nHTTP/2 412\r\nETag: \"e\"\r\n\r\n".utf8)
        XCTAssertEqual(CalendarClient.answer(proxied), CalendarAnswer(status: 412, etag: "\"e\"", body: ""),
                       "a proxy's block first: the server's answer is the last")
        XCTAssertNil(CalendarClient.answer(Array("garbage".utf8)))
        XCTAssertNil(CalendarClient.answer(Array("HTTP/1.1 200 OK\r\nno end".utf8)))
    }

    func testTheConfigurationQuotesEverythingCurlWouldReadOtherwise() {
        XCTAssertEqual(CalendarClient.quoted("sam:pa\"ss\\word"), #""sam:pa\"ss\\word""#)
        XCTAssertEqual(CalendarClient.quoted("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"), #""BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n""#)
    }

    func testCurlsExitCodesAreSaidInWordsWithTheHost() {
        XCTAssertEqual(CalendarClient.words(curlExit: 7, host: "dav.example.org", stderr: ""),
                       "cannot connect to dav.example.org: offline, or the server is down")
        XCTAssertEqual(CalendarClient.words(curlExit: 60, host: "dav.example.org",
                                            stderr: "curl: (60) SSL certificate problem: self-signed certificate\n"),
                       "dav.example.org's certificate is not trusted, so nothing was sent (curl: (60) SSL certificate "
                           + "problem: self-signed certificate)")
        XCTAssertEqual(CalendarClient.words(curlExit: 28, host: "h", stderr: ""),
                       "h did not answer in time (a run gives the calendar 10 s)")
        XCTAssertEqual(CalendarClient.words(curlExit: 6, host: "h", stderr: ""),
                       "cannot find the host h: offline, or a typo in deliver.calendar.url")
    }

    /// The password only in the configuration on curl's stdin, never among its arguments; `-q` first, so that no
    /// `~/.curlrc` adds `--insecure` or another server.
    func testThePasswordGoesOnlyOnStandardInputAndCurlrcIsNotRead() {
        let request = CalendarRequest(method: "PUT", url: "https://h/c/a\"b.ics", headers: ["If-None-Match: *"],
                                      body: "BEGIN:VCALENDAR\r\n")
        let (arguments, configuration) = CalendarClient.invocation(request, credentials: "sam:s3cr\"et",
                                                                   seconds: 9.93)
        XCTAssertEqual(Array(arguments.prefix(2)), ["curl", "-q"])
        XCTAssertFalse(arguments.joined(separator: " ").contains("s3cr"))
        XCTAssertTrue(arguments.contains("--suppress-connect-headers"))
        XCTAssertEqual(arguments.firstIndex(of: "--max-time").map { arguments[$0 + 1] }, "9.4")
        XCTAssertEqual(configuration, #"""
            url = "https://h/c/a\"b.ics"
            request = "PUT"
            header = "If-None-Match: *"
            user = "sam:s3cr\"et"
            data-binary = "BEGIN:VCALENDAR\r\n"

            """#)
    }
}
