import Foundation
@testable import NudgeCore
import XCTest

/// Every calendar time the units contain never skips an hour when the clocks fall back (docs/systemd.md):
/// `systemd-analyze calendar` under `faketime`, on the night of 2026-10-25 in Berlin, where a local
/// `*-*-* *:*:00` goes from 02:59 CEST to 03:00 CET, 61 minutes with no run.
final class SystemdCalendarTests: XCTestCase {
    /// The elapses `systemd-analyze calendar` gives for `spec` from 01:58:30 CEST on the night of the fall back,
    /// as the UTC lines it prints.
    private func elapses(_ spec: String, iterations: Int) throws -> [String] {
        let faketime = try ExternalTool.require("faketime", package: "faketime")
        let analyze = try ExternalTool.require("systemd-analyze", package: "systemd")
        let result = try ExternalTool.run(faketime, ["2026-10-25 01:58:30", analyze, "calendar",
                                                     "--iterations=\(iterations)", spec],
                                          exactEnvironment: ["TZ": "Europe/Berlin", "PATH": "/usr/bin:/bin",
                                                             "SYSTEMD_COLORS": "0"])
        XCTAssertEqual(result.status, 0, result.summary)
        print("$ TZ=Europe/Berlin faketime '2026-10-25 01:58:30' systemd-analyze calendar "
              + "--iterations=\(iterations) '\(spec)'\n\(result.stdout)")
        return result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("(in UTC):") }.map { String($0.dropFirst("(in UTC): ".count)) }
    }

    func testTheHourlyTimerRunsInTheRepeatedHour() throws {
        let calendars = SystemdUnits.files(binary: "/usr/bin/nudge", dataDirectory: "/d", watched: .eachFile).flatMap { file in
            file.content.split(separator: "\n").filter { $0.hasPrefix("OnCalendar=") }
                .map { String($0.dropFirst("OnCalendar=".count)) }
        }
        XCTAssertEqual(calendars, ["*-*-* *:00:00 UTC"])
        for calendar in calendars {
            XCTAssertEqual(try elapses(calendar, iterations: 4),
                           ["Sun 2026-10-25 00:00:00 UTC", "Sun 2026-10-25 01:00:00 UTC",
                            "Sun 2026-10-25 02:00:00 UTC", "Sun 2026-10-25 03:00:00 UTC"],
                           "02:00 CEST, 02:00 CET, 03:00 CET: every hour, the repeated one too")
        }
    }

    func testTheArmedWakeElapsesAtItsInstantInTheRepeatedHour() throws {
        // 02:30 CET, the second 02:30 of the night: 01:30 UTC.
        let wake = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-10-25T01:30:00Z"))
        let calendar = SystemdWake.calendar(wake)
        XCTAssertEqual(calendar, "2026-10-25 01:30:00 UTC")
        XCTAssertEqual(try elapses(calendar, iterations: 1), ["Sun 2026-10-25 01:30:00 UTC"])
    }

    func testTheReadmeTemplateTimerRunsEveryMinuteOfTheRepeatedHour() throws {
        let calendars = try ReadmeBlock.iniBlocks().values.flatMap { block in
            block.split(separator: "\n").filter { $0.hasPrefix("OnCalendar=") }.map { String($0.dropFirst("OnCalendar=".count)) }
        }
        XCTAssertEqual(calendars, ["*-*-* *:*:00 UTC"])
        let faketime = try ExternalTool.require("faketime", package: "faketime")
        let analyze = try ExternalTool.require("systemd-analyze", package: "systemd")
        // From 02:59:30 CEST (00:59:30 UTC; a local time in the repeated hour is ambiguous to faketime): the next
        // minute is 02:00 CET, the first minute of the repeated hour, where a local calendar gives 03:00 CET.
        let result = try ExternalTool.run(faketime, ["@1792889970", analyze, "calendar", "--iterations=2",
                                                     calendars[0]],
                                          exactEnvironment: ["TZ": "Europe/Berlin", "PATH": "/usr/bin:/bin"])
        print("$ TZ=Europe/Berlin faketime '@1792889970' systemd-analyze calendar --iterations=2 '\(calendars[0])'\n"
              + result.stdout)
        XCTAssertTrue(result.stdout.contains("Next elapse: Sun 2026-10-25 02:00:00 CET"), result.summary)
    }
}
