import XCTest
@testable import NudgeCore

/// Where nudge puts things by default (SPEC §1) and the user units `nudge init --systemd` writes (SPEC §9).
final class SetupTests: XCTestCase {
    func testDataDirectoryFollowsXDGDataHomeElseHome() {
        XCTAssertEqual(try UserDirectories.dataDirectory(environment: [:], home: "/home/amira").get(),
                       "/home/amira/.local/share/nudge")
        XCTAssertEqual(try UserDirectories.dataDirectory(environment: ["XDG_DATA_HOME": "/srv/data/"],
                                                         home: "/home/amira").get(), "/srv/data/nudge")
    }

    func testRelativeOrEmptyXDGDataHomeIsIgnoredAsTheConventionSays() {
        for value in ["", "relative/share", "~/share"] {
            XCTAssertEqual(try UserDirectories.dataDirectory(environment: ["XDG_DATA_HOME": value],
                                                             home: "/home/amira").get(),
                           "/home/amira/.local/share/nudge", value)
        }
    }

    func testNoHomeAndNoXDGDataHomeIsAClearFailure() {
        XCTAssertEqual(UserDirectories.dataDirectory(environment: [:], home: nil), .failure(.init()))
        XCTAssertEqual(UserDirectories.dataDirectory(environment: [:], home: "relative"), .failure(.init()))
        XCTAssertTrue(UserDirectories.NoHome().description.contains("--data DIR"))
    }

    func testUserUnitDirectoryFollowsXDGConfigHome() {
        XCTAssertEqual(try UserDirectories.userUnitDirectory(environment: [:], home: "/home/amira").get(),
                       "/home/amira/.config/systemd/user")
        XCTAssertEqual(try UserDirectories.userUnitDirectory(environment: ["XDG_CONFIG_HOME": "/cfg"],
                                                             home: "/home/amira").get(), "/cfg/systemd/user")
    }

    func testServiceRunsTheGivenBinaryOnTheGivenDirectoryAndKeepsTheWaiters() {
        let service = SystemdUnits.service(binary: "/home/amira/.local/bin/nudge",
                                           dataDirectory: "/home/amira/.local/share/nudge")
        let lines = service.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("Type=oneshot"))
        XCTAssertTrue(lines.contains("KillMode=process"))
        XCTAssertTrue(lines.contains("LogLevelMax=notice"), "no Starting/Finished line per run in the journal")
        XCTAssertTrue(lines.contains("ExecStart=/home/amira/.local/bin/nudge run --quiet --linger 59 "
            + "--data /home/amira/.local/share/nudge"), service)
    }

    func testTimerRunsEveryMinuteAndCatchesUpAfterASuspend() {
        let lines = SystemdUnits.timer.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("OnCalendar=*-*-* *:*:00"))
        XCTAssertTrue(lines.contains("Persistent=true"))
        XCTAssertTrue(lines.contains("WantedBy=timers.target"))
    }

    func testExecArgumentsEscapeWhatSystemdWouldReadAsSpecifiersVariablesOrSeparators() {
        XCTAssertEqual(SystemdUnits.execArgument("/usr/bin/nudge"), "/usr/bin/nudge")
        XCTAssertEqual(SystemdUnits.execArgument("/home/a b/data"), #""/home/a b/data""#)
        XCTAssertEqual(SystemdUnits.execArgument("/data/100%"), "/data/100%%")
        XCTAssertEqual(SystemdUnits.execArgument("/data/$HOME"), "/data/$$HOME")
        XCTAssertEqual(SystemdUnits.execArgument(#"/data/"q"\x"#), #""/data/\"q\"\\x""#)
        XCTAssertEqual(SystemdUnits.execArgument(";"), #"";""#)
    }
}
